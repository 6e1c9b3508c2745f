//! The `curl` line that replays a request. Secrets never appear in it: the bearer
//! token is `$TOKEN`, and every header whose value is secret (`Authorization`,
//! `Cookie`, `--secret-header` names) is a shell variable named after the header.

use super::{HttpRequest, HttpSettings, JsonBody};
use crate::redact::Redactor;

/// Request bodies larger than this are not inlined into the curl line.
const CURL_INLINE_LIMIT: usize = 64 * 1024;

pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `X-Api-Key` -> `X_API_KEY`: the variable a secret header's value is read from.
pub fn variable_for(header: &str) -> String {
    header
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

pub fn curl_line(
    settings: &HttpSettings,
    redactor: &Redactor,
    url: &str,
    req: &HttpRequest,
    body: Option<&JsonBody>,
) -> String {
    let mut parts = vec!["curl -sS -i".to_string()];
    let streamed = req.headers.iter().any(|(name, value)| {
        name.eq_ignore_ascii_case("accept") && value.contains("text/event-stream")
    });
    if streamed {
        // Show events as they arrive instead of when the stream ends.
        parts.push("-N".to_string());
    }
    if settings.tls.insecure {
        parts.push("-k".to_string());
    }
    if let Some(cacert) = &settings.tls.cacert_path {
        parts.push(format!("--cacert {}", shell_quote(cacert)));
    }
    parts.push(format!("-X {}", req.method));
    parts.push(shell_quote(&redactor.redact(url)));
    for (name, value) in settings.headers.iter().chain(req.headers.iter()) {
        if redactor.is_sensitive_header(name) {
            // Single-quoted name, double-quoted variable: the shell expands only the latter.
            parts.push(format!(
                "-H {}\"${}\"",
                shell_quote(&format!("{name}: ")),
                variable_for(name)
            ));
        } else {
            parts.push(format!(
                "-H {}",
                shell_quote(&format!("{name}: {}", redactor.redact(value)))
            ));
        }
    }
    if req.auth && settings.token.is_some() {
        // Double quotes so the shell expands $TOKEN; the real token is never printed.
        let (name, value) = settings.auth_header("$TOKEN");
        parts.push(format!("-H \"{name}: {value}\""));
    }
    if let Some(body) = body {
        parts.push("-H 'Content-Type: application/json'".to_string());
        if let Some(text) = body.text_within(CURL_INLINE_LIMIT) {
            parts.push(format!(
                "--data-raw {}",
                shell_quote(&redactor.redact(&text))
            ));
        } else {
            parts.push(format!(
                "--data-binary @body.json  # a {} byte body, too large to inline here or in the reports: `run --export-hurl FILE` writes it beside FILE",
                body.len()
            ));
        }
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_variables_are_shell_names() {
        assert_eq!(variable_for("X-Api-Key"), "X_API_KEY");
        assert_eq!(variable_for("cookie"), "COOKIE");
    }
}
