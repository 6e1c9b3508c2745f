//! Redirects: followed on the target's own origin up to `--max-redirects`, never to
//! another origin. reqwest drops `Authorization` and `Cookie` on a cross-host hop but
//! not a `--secret-header`, and a conformance verdict is about the target, not where it
//! points: a cross-origin 3xx is judged as the answer, with a note saying so.

use reqwest::redirect::Policy;
use url::Url;

/// Scheme, host and port, as the same-origin rule compares them.
pub fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
}

pub fn policy(max_redirects: usize) -> Policy {
    Policy::custom(move |attempt| {
        // `previous` starts with the original URL, so it holds one more than the hops so far.
        let first = attempt.previous().first().cloned();
        let same = first
            .as_ref()
            .is_some_and(|f| same_origin(f, attempt.url()));
        if same && attempt.previous().len() <= max_redirects {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}

/// A note for the exchange when redirects were followed or a 3xx came back unfollowed.
pub fn note(
    requested: &Url,
    answered_from: &Url,
    status: u16,
    location: Option<&str>,
    max_redirects: usize,
) -> Option<String> {
    let target = location.and_then(|l| answered_from.join(l).ok());
    match target {
        Some(target) if (300..400).contains(&status) => Some(if !same_origin(requested, &target) {
            format!(
                "HTTP {status} to another origin ({}) not followed: credentials never leave the \
                 target, so the {status} is judged as the answer",
                target.origin().ascii_serialization()
            )
        } else {
            format!(
                "HTTP {status}: stopped after {max_redirects} redirect(s) (--max-redirects); \
                 the {status} is judged as the answer"
            )
        }),
        _ if answered_from != requested => Some(format!(
            "answered after same-origin redirect(s), from {answered_from}"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        assert!(same_origin(&u("http://h:80/a"), &u("http://h/b")));
        assert!(!same_origin(&u("http://h/a"), &u("https://h/a")));
        assert!(!same_origin(&u("http://h:1/a"), &u("http://h:2/a")));
        assert!(!same_origin(
            &u("http://127.0.0.1/"),
            &u("http://localhost/")
        ));
    }

    #[test]
    fn notes_say_why_a_3xx_is_the_answer() {
        let from = u("http://127.0.0.1:8080/x");
        let cross = note(&from, &from, 302, Some("http://127.0.0.1:9/y"), 5).unwrap();
        assert!(
            cross.contains("another origin (http://127.0.0.1:9) not followed"),
            "{cross}"
        );
        let looped = note(&from, &from, 301, Some("/x"), 5).unwrap();
        assert!(looped.contains("stopped after 5 redirect(s)"), "{looped}");
        assert_eq!(note(&from, &from, 200, None, 5), None);
        assert_eq!(note(&from, &from, 304, None, 5), None);
        let moved = note(&from, &u("http://127.0.0.1:8080/z"), 200, None, 5).unwrap();
        assert!(moved.contains("from http://127.0.0.1:8080/z"), "{moved}");
    }
}
