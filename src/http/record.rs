//! What a transcript keeps of a body: JSON with long strings elided (base64 media),
//! anything else as lossy text, and never more than [`RECORDED_BODY_LIMIT`] bytes, so
//! a host answering every case with megabytes cannot make the reports (which hold every
//! case) grow without bound.

use super::{HttpClient, HttpRequest, JsonBody};
use crate::outcome::{Exchange, RecordedRequest, SentBody};
use mmconform_json::bounded;
use serde_json::Value;

/// Strings in recorded bodies longer than this are elided (base64 media).
const ELIDE_STRINGS_OVER: usize = 160;

/// Most bytes of a response body kept in a transcript.
pub const RECORDED_BODY_LIMIT: usize = 64 * 1024;

/// Replaces long strings so transcripts stay readable: `iVBORw0K…[+1234 chars]`.
pub fn elide(value: &Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > ELIDE_STRINGS_OVER => {
            let head: String = s.chars().take(24).collect();
            Value::String(format!("{head}…[+{} chars]", s.chars().count() - 24))
        }
        Value::Array(items) => Value::Array(items.iter().map(elide).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), elide(v))).collect())
        }
        other => other.clone(),
    }
}

impl HttpClient {
    /// How the request's body is recorded: long strings elided, secrets masked, and
    /// whether anything was elided. Computed before an owned body is sent.
    pub(super) fn shown_request_body(&self, body: Option<&Value>) -> Option<(String, bool)> {
        body.map(|b| {
            let elided = elide(b);
            let changed = elided != *b;
            (self.redactor.redact(&elided.to_string()), changed)
        })
    }

    /// The request side of an exchange, redacted, with its curl line.
    pub(super) fn recorded(
        &self,
        req: &HttpRequest,
        url: &str,
        shown_body: Option<(String, bool)>,
        body: Option<&JsonBody>,
    ) -> Exchange {
        let mut shown_headers = Vec::new();
        for (name, value) in self.settings.headers.iter().chain(req.headers.iter()) {
            shown_headers.push((name.clone(), self.redactor.header_value(name, value)));
        }
        if let (true, Some(_)) = (req.auth, &self.settings.token) {
            shown_headers.push(self.settings.auth_header("[REDACTED]"));
        }
        if body.is_some() {
            shown_headers.push(("Content-Type".into(), "application/json".into()));
        }
        let elided = shown_body.as_ref().is_some_and(|(_, elided)| *elided);
        Exchange {
            request: RecordedRequest {
                method: req.method.to_string(),
                url: self.redactor.redact(url),
                headers: shown_headers,
                body: shown_body.map(|(text, _)| text),
                sent: body.map(|b| SentBody {
                    bytes: b.len(),
                    sha256: b.sha256(),
                    elided,
                }),
            },
            response: None,
            curl: self.curl_line(req, body),
            retries: 0,
            notes: Vec::new(),
            seq: None,
            cached: false,
        }
    }
}

/// JSON bodies up to this size are parsed to elide long strings; larger ones would be
/// cut anyway, so they are recorded as text without building a value.
const PARSE_FOR_ELISION_UNDER: usize = 4 * RECORDED_BODY_LIMIT;

/// A response body as a transcript shows it.
pub fn shown_body(body: &[u8]) -> String {
    if body.len() <= PARSE_FOR_ELISION_UNDER
        && let Ok(value) = bounded::parse(body)
    {
        return cut(&elide(&value).to_string(), RECORDED_BODY_LIMIT);
    }
    // Only the recorded prefix is converted: a 4 MiB body costs 64 KiB here.
    let head = &body[..body.len().min(RECORDED_BODY_LIMIT)];
    let text = String::from_utf8_lossy(head);
    let mut shown = cut(&text, RECORDED_BODY_LIMIT);
    if body.len() > head.len() && !shown.ends_with("not recorded]") {
        shown.push_str(&format!(
            "…[+{} bytes not recorded]",
            body.len() - head.len()
        ));
    }
    shown
}

fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut at = limit;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    format!("{}…[+{} bytes not recorded]", &text[..at], text.len() - at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn elides_long_strings_only() {
        let long = "A".repeat(500);
        let v = elide(&json!({"data": long, "mimeType": "image/png"}));
        assert_eq!(v["mimeType"], "image/png");
        assert!(v["data"].as_str().unwrap().ends_with("…[+476 chars]"));
    }

    #[test]
    fn recorded_bodies_are_bounded_whatever_they_hold() {
        let big_json = format!("[{}0]", "1,".repeat(200_000));
        let shown = shown_body(big_json.as_bytes());
        assert!(shown.len() < RECORDED_BODY_LIMIT + 64, "{}", shown.len());
        assert!(shown.ends_with("bytes not recorded]"));
        let binary = vec![0xffu8; 300_000];
        let shown = shown_body(&binary);
        assert!(shown.len() < RECORDED_BODY_LIMIT + 64);
        assert!(shown.starts_with('\u{fffd}'));
        assert_eq!(shown_body(b"{\"a\": 1}"), r#"{"a":1}"#);
        assert_eq!(shown_body(b""), "");
    }
}
