//! Replacing secrets in everything the tool writes.
//!
//! The runner redacts transcripts before they become part of a `CaseResult`; reporters
//! pass their final text through the same redactor as a second line of defence.

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
    secrets: Vec<String>,
}

impl Redactor {
    /// Secrets shorter than 4 characters are still masked; empty ones are ignored.
    pub fn new<I, S>(secrets: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut secrets: Vec<String> = secrets
            .into_iter()
            .map(Into::into)
            .filter(|s| !s.is_empty())
            .collect();
        // Longest first, so a secret that contains another is masked whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        Redactor { secrets }
    }

    pub fn redact(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), MASK);
            }
        }
        out
    }

    /// The value to show for a header: masked entirely for sensitive names, else redacted.
    pub fn header_value(&self, name: &str, value: &str) -> String {
        if SENSITIVE_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
            MASK.to_string()
        } else {
            self.redact(value)
        }
    }
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
    fn sensitive_headers_are_masked_whatever_their_value() {
        let r = Redactor::new(Vec::<String>::new());
        assert_eq!(r.header_value("Authorization", "Bearer zzz"), MASK);
        assert_eq!(r.header_value("X-Other", "visible"), "visible");
    }
}
