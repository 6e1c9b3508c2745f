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

    /// One left-to-right pass: at each position the longest matching secret is masked, and
    /// a mask already present is copied as is, so redacting twice changes nothing (reporters
    /// redact text the runner already redacted).
    pub fn redact(&self, text: &str) -> String {
        if self.secrets.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if rest.starts_with(MASK) {
                out.push_str(MASK);
                rest = &rest[MASK.len()..];
            } else if let Some(secret) = self.secrets.iter().find(|s| rest.starts_with(s.as_str()))
            {
                out.push_str(MASK);
                rest = &rest[secret.len()..];
            } else {
                out.push(c);
                rest = &rest[c.len_utf8()..];
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
    fn redaction_is_idempotent() {
        let r = Redactor::new(["RED", "tok"]);
        let once = r.redact("tok RED");
        assert_eq!(once, "[REDACTED] [REDACTED]");
        assert_eq!(r.redact(&once), once);
    }

    #[test]
    fn sensitive_headers_are_masked_whatever_their_value() {
        let r = Redactor::new(Vec::<String>::new());
        assert_eq!(r.header_value("Authorization", "Bearer zzz"), MASK);
        assert_eq!(r.header_value("X-Other", "visible"), "visible");
    }
}
