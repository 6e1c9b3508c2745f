//! Replacing secrets in everything the tool writes.
//!
//! The runner redacts transcripts before they become part of a `CaseResult`; reporters
//! pass their final text through the same redactor as a second line of defence.
//!
//! Three things are masked: the configured secret values (token, secret header values,
//! passwords in URLs, the values of secret-looking environment variables a started
//! program could have learnt, see [`environment`]) wherever they appear, in any ASCII
//! case and in their JSON-escaped spelling; the value of every sensitive header
//! (`Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization` and each
//! `--secret-header`) whatever it holds; and the userinfo of any URL in any text
//! (`http://user:pass@host` becomes `http://[REDACTED]@host`).

pub mod environment;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

/// Header names whose values are always replaced, whatever their content.
pub const SENSITIVE_HEADERS: [&str; 4] = [
    "authorization",
    "cookie",
    "set-cookie",
    "proxy-authorization",
];

pub const MASK: &str = "[REDACTED]";

#[derive(Debug, Clone, Default)]
pub struct Redactor {
    /// Finds the secrets and [`MASK`] itself, leftmost-longest, in any ASCII case (a
    /// host name, an RFC 0108 endpoint, may come back in another case, and masking a
    /// token that differs from the real one only in case costs nothing); `None` when
    /// there are no secrets.
    matcher: Option<AhoCorasick>,
    /// The secrets (and their JSON-escaped spellings), to find their beginnings where a
    /// text was cut.
    secrets: Vec<String>,
    /// Lower-case names of headers masked on top of [`SENSITIVE_HEADERS`].
    secret_headers: Vec<String>,
}

/// The mark every clip of a long text ends with. A secret a clip cut in two leaves its
/// beginning right before it, which no whole-secret match finds: that beginning is
/// masked too, from [`MIN_CUT_PREFIX`] characters on.
pub const CUT: char = '…';
const MIN_CUT_PREFIX: usize = 3;

impl Redactor {
    /// Secrets shorter than 4 characters are still masked; empty ones are ignored.
    pub fn new<I, S>(secrets: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut patterns = vec![MASK.to_string()];
        for secret in secrets.into_iter().map(Into::into) {
            if secret.is_empty() {
                continue;
            }
            // A secret inside a JSON string a target printed (a JSON-RPC frame, an
            // event line) is spelled escaped: `a"b` as `a\"b`.
            let escaped = serde_json::to_string(&secret)
                .map(|quoted| quoted[1..quoted.len() - 1].to_string())
                .unwrap_or_default();
            if !escaped.is_empty() && escaped != secret {
                patterns.push(escaped);
            }
            patterns.push(secret);
        }
        patterns.sort();
        patterns.dedup();
        let matcher = (patterns.len() > 1).then(|| {
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostLongest)
                .ascii_case_insensitive(true)
                .build(&patterns)
                .expect("literal patterns always build")
        });
        patterns.retain(|p| p != MASK);
        Redactor {
            matcher,
            secrets: patterns,
            secret_headers: Vec::new(),
        }
    }

    /// Also masks the values of these headers by name (`--secret-header`).
    pub fn with_sensitive_headers<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.secret_headers
            .extend(names.into_iter().map(|n| n.as_ref().to_ascii_lowercase()));
        self
    }

    /// Whether a header's value is masked whatever it holds.
    pub fn is_sensitive_header(&self, name: &str) -> bool {
        let name = name.to_ascii_lowercase();
        SENSITIVE_HEADERS.contains(&name.as_str()) || self.secret_headers.contains(&name)
    }

    /// One left-to-right pass: at each position the longest matching secret is masked, and
    /// a mask already present is copied as is, so redacting twice changes nothing (reporters
    /// redact text the runner already redacted).
    pub fn redact(&self, text: &str) -> String {
        mask_userinfo(&self.mask_cut_secrets(&self.mask_secrets(text)))
    }

    /// Masks the beginning of a secret that ends right before a [`CUT`] mark.
    fn mask_cut_secrets(&self, text: &str) -> String {
        if self.secrets.is_empty() || !text.contains(CUT) {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find(CUT) {
            let head = &rest[..at];
            let cut = self
                .secrets
                .iter()
                .filter_map(|secret| cut_beginning(head, secret))
                .max()
                .unwrap_or(0);
            out.push_str(&head[..head.len() - cut]);
            if cut > 0 {
                out.push_str(MASK);
            }
            out.push(CUT);
            rest = &rest[at + CUT.len_utf8()..];
        }
        out.push_str(rest);
        out
    }

    fn mask_secrets(&self, text: &str) -> String {
        match &self.matcher {
            None => text.to_string(),
            Some(matcher) => {
                let mut out = String::with_capacity(text.len());
                matcher.replace_all_with(text, &mut out, |_, _, out| {
                    out.push_str(MASK);
                    true
                });
                out
            }
        }
    }

    /// The value to show for a header: masked entirely for sensitive names, else redacted.
    pub fn header_value(&self, name: &str, value: &str) -> String {
        if self.is_sensitive_header(name) {
            MASK.to_string()
        } else {
            self.redact(value)
        }
    }
}

/// How many bytes at the end of `head` are the beginning of `secret` (at least
/// [`MIN_CUT_PREFIX`] characters, less than all of it), in any ASCII case.
fn cut_beginning(head: &str, secret: &str) -> Option<usize> {
    let shortest = secret
        .char_indices()
        .nth(MIN_CUT_PREFIX)
        .map_or(secret.len(), |(i, _)| i);
    (shortest..secret.len()).rev().find(|&k| {
        secret.is_char_boundary(k)
            && head.len() >= k
            && head.is_char_boundary(head.len() - k)
            && head[head.len() - k..].eq_ignore_ascii_case(&secret[..k])
    })
}

/// Masks the userinfo of every `scheme://userinfo@host` in `text`. The authority ends
/// at `/`, `?`, `#`, whitespace, a quote or an angle bracket, so an `@` in a path or in
/// an e-mail address elsewhere is left alone. Idempotent: a masked userinfo is the mask.
fn mask_userinfo(text: &str) -> String {
    if !text.contains("://") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '"' | '\'' | '<' | '>' | '`') || c.is_whitespace()
            })
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@') {
            Some(user_end) if authority[..user_end] != *MASK => {
                out.push_str(MASK);
                out.push_str(&authority[user_end..]);
            }
            _ => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_every_occurrence_and_longest_first() {
        let r = Redactor::new(["abc", "abcdef"]);
        assert_eq!(r.redact("x abcdef y abc"), "x [REDACTED] y [REDACTED]");
    }

    #[test]
    fn secrets_are_masked_in_any_ascii_case() {
        let r = Redactor::new(["compat.internal:8089"]);
        assert_eq!(r.redact("at COMPAT.Internal:8089/v1"), "at [REDACTED]/v1");
        // Never cut a character in two when a secret's length ends inside one.
        assert_eq!(Redactor::new(["ab"]).redact("aé"), "aé");
    }

    #[test]
    fn a_secret_is_masked_in_its_json_escaped_spelling_too() {
        let r = Redactor::new([r#"pa"ss\word"#]);
        let frame = serde_json::json!({"echo": r#"pa"ss\word"#}).to_string();
        assert_eq!(frame, r#"{"echo":"pa\"ss\\word"}"#);
        assert_eq!(r.redact(&frame), r#"{"echo":"[REDACTED]"}"#);
        assert_eq!(r.redact(r#"raw pa"ss\word"#), "raw [REDACTED]");
    }

    #[test]
    fn the_beginning_of_a_secret_a_clip_cut_is_masked_too() {
        let r = Redactor::new(["sk-canary-openai-8Jd2w"]);
        assert_eq!(r.redact("key: sk-canary-op…"), "key: [REDACTED]…");
        assert_eq!(
            r.redact("key SK-CAN…, then sk…"),
            "key [REDACTED]…, then sk…"
        );
        assert_eq!(
            r.redact("the whole sk-canary-openai-8Jd2w…"),
            "the whole [REDACTED]…"
        );
        let once = r.redact("x sk-canary…");
        assert_eq!(r.redact(&once), once);
        assert_eq!(
            r.redact("nothing cut here: sk-canary"),
            "nothing cut here: sk-canary"
        );
    }

    #[test]
    fn redaction_is_idempotent() {
        let r = Redactor::new(["RED", "tok"]);
        let once = r.redact("tok RED");
        assert_eq!(once, "[REDACTED] [REDACTED]");
        assert_eq!(r.redact(&once), once);
    }

    #[test]
    fn sensitive_headers_are_masked_whatever_their_value() {
        let r = Redactor::new(Vec::<String>::new()).with_sensitive_headers(["X-Api-Key"]);
        assert_eq!(r.header_value("Authorization", "Bearer zzz"), MASK);
        assert_eq!(r.header_value("set-cookie", "id=1"), MASK);
        assert_eq!(r.header_value("x-api-KEY", "k"), MASK);
        assert_eq!(r.header_value("X-Other", "visible"), "visible");
    }

    #[test]
    fn url_userinfo_is_masked_anywhere_and_only_there() {
        let r = Redactor::default();
        assert_eq!(
            r.redact("GET http://alice:pw@h:1/p?q=a@b failed"),
            "GET http://[REDACTED]@h:1/p?q=a@b failed"
        );
        assert_eq!(
            r.redact(r#"{"u":"https://tok@x/y","m":"me@example.org"}"#),
            r#"{"u":"https://[REDACTED]@x/y","m":"me@example.org"}"#
        );
        assert_eq!(r.redact("http://h/a@b"), "http://h/a@b");
        let once = r.redact("x://a:b@c and y://d@e");
        assert_eq!(once, "x://[REDACTED]@c and y://[REDACTED]@e");
        assert_eq!(r.redact(&once), once);
        assert_eq!(r.redact("no url://"), "no url://");
    }
}
