//! The `mmconform.echo` CUSTOM event the reference agent ends a completed run with: every
//! content part of every user message as it reached the model, in order (string content
//! is one text part). Its shape is documented for third-party agents in the README ("The
//! echo event") and `schemas/agui-echo.schema.json`.

use serde::Serialize;

/// The CUSTOM event's `name`.
pub const ECHO_EVENT_NAME: &str = "mmconform.echo";

/// One part as it reached the model: its kind; for a non-text part, its source kind, its
/// MIME type, the byte count read and the nonce found in the bytes (absent when the
/// agent did not read them, e.g. a url it did not fetch).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EchoPart {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
}

impl EchoPart {
    /// A text part: only its kind is echoed.
    pub fn text() -> EchoPart {
        EchoPart {
            kind: "text".into(),
            source: None,
            mime_type: None,
            bytes: None,
            nonce: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_facts_are_left_out() {
        let part = EchoPart {
            source: Some("url".into()),
            ..EchoPart::text()
        };
        assert_eq!(
            serde_json::to_value([EchoPart::text(), part]).unwrap(),
            serde_json::json!([{"type": "text"}, {"type": "text", "source": "url"}])
        );
    }
}
