//! The echo check: an agent that reports what reached its model lets a silent drop
//! inside a completed run be seen.
//!
//! The echo is a CUSTOM event (README, "The echo event";
//! `schemas/agui-echo.schema.json`):
//!
//! ```json
//! {"type": "CUSTOM", "name": "mmconform.echo", "value": {"parts": [
//!   {"type": "text"},
//!   {"type": "image", "source": "data", "mimeType": "image/png", "bytes": 1234, "nonce": "0f3a..."}
//! ]}}
//! ```
//!
//! `parts` lists every content part of every user message as it reached the model, in
//! order (string content is one text part). For a non-text part: its kind, its source
//! kind, its MIME type, the decoded byte count and the nonce found after
//! `mmconform-nonce:` in the bytes (`null` when the agent did not read the bytes, e.g.
//! a url it did not fetch).

use super::kind_of_mime;
pub use crate::scenario::stream::EchoAspect;
use base64::Engine as _;
use mmconform_media as media;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One part as sent, or as an agent echoed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EchoPart {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, rename = "mimeType", skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

#[derive(Debug, Deserialize)]
struct EchoValue {
    parts: Vec<EchoPart>,
}

/// The echo event's `value`, read strictly enough that a malformed echo is reported.
pub fn parse(value: &Value) -> Result<Vec<EchoPart>, String> {
    serde_json::from_value::<EchoValue>(value.clone())
        .map(|v| v.parts)
        .map_err(|e| format!("the echo is malformed ({e})"))
}

/// The non-text part `source` would become if an agent passed it on: size and nonce
/// are known only for inline data that decodes.
fn media_part(
    kind: String,
    source: &str,
    mime: Option<&str>,
    data: Option<&str>,
    nonce: &str,
) -> EchoPart {
    let decoded = data.and_then(|d| base64::engine::general_purpose::STANDARD.decode(d).ok());
    EchoPart {
        kind,
        source: Some(source.to_string()),
        mime_type: mime.map(str::to_string),
        bytes: decoded.as_ref().map(|b| b.len() as u64),
        nonce: decoded
            .as_ref()
            .filter(|b| media::contains_nonce(b, nonce))
            .map(|_| nonce.to_string()),
    }
}

fn sent_part(part: &Value, nonce: &str) -> EchoPart {
    let field = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let kind = field(part, "type").unwrap_or_else(|| "(no type)".into());
    if kind == "text" {
        return EchoPart::text();
    }
    if kind == "binary" {
        // The legacy part, as an agent that converts it to 1.0 would pass it on.
        let mime = field(part, "mimeType");
        let converted = kind_of_mime(mime.as_deref().unwrap_or("")).to_string();
        let (source, data) = if let Some(d) = part.get("data").and_then(Value::as_str) {
            ("data", Some(d))
        } else if part.get("url").is_some() {
            ("url", None)
        } else {
            ("file", None)
        };
        return media_part(converted, source, mime.as_deref(), data, nonce);
    }
    let source = part.get("source").cloned().unwrap_or(Value::Null);
    let source_kind = field(&source, "type").unwrap_or_else(|| "(none)".into());
    let data = (source_kind == "data")
        .then(|| source.get("value").and_then(Value::as_str))
        .flatten();
    let mime = field(&source, "mimeType");
    media_part(kind, &source_kind, mime.as_deref(), data, nonce)
}

/// The parts of every user message in a `RunAgentInput`, as an agent that used them
/// all would echo them.
pub fn sent_parts(run_input: &Value, nonce: &str) -> Vec<EchoPart> {
    let mut out = Vec::new();
    let messages = run_input.get("messages").and_then(Value::as_array);
    for message in messages.into_iter().flatten() {
        if message.get("role").and_then(Value::as_str) != Some("user") {
            continue;
        }
        match message.get("content") {
            Some(Value::String(_)) => out.push(EchoPart::text()),
            Some(Value::Array(parts)) => out.extend(parts.iter().map(|p| sent_part(p, nonce))),
            _ => {}
        }
    }
    out
}

fn kinds(parts: &[EchoPart]) -> String {
    if parts.is_empty() {
        return "no parts".into();
    }
    parts
        .iter()
        .map(|p| p.kind.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn non_text(parts: &[EchoPart]) -> Vec<&EchoPart> {
    parts.iter().filter(|p| p.kind != "text").collect()
}

fn show<T: ToString>(v: &Option<T>) -> String {
    v.as_ref()
        .map(T::to_string)
        .unwrap_or_else(|| "null".into())
}

/// One comparison: (expected, actual, passed). `None` when the aspect does not apply
/// (bytes and nonce apply only when some inline part was sent).
pub fn compare(
    aspect: EchoAspect,
    sent: &[EchoPart],
    echoed: &[EchoPart],
) -> Option<(String, String, bool)> {
    let (sent_media, echoed_media) = (non_text(sent), non_text(echoed));
    match aspect {
        EchoAspect::Kinds => {
            let passed = sent
                .iter()
                .map(|p| &p.kind)
                .eq(echoed.iter().map(|p| &p.kind));
            Some((
                format!("parts {}", kinds(sent)),
                format!("parts {}", kinds(echoed)),
                passed,
            ))
        }
        EchoAspect::Sources => {
            let list = |parts: &[&EchoPart]| {
                parts
                    .iter()
                    .map(|p| format!("{} {}", p.kind, show(&p.source)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let passed = sent_media.len() == echoed_media.len()
                && sent_media
                    .iter()
                    .zip(&echoed_media)
                    .all(|(s, e)| s.source == e.source);
            Some((
                format!("sources [{}]", list(&sent_media)),
                format!("sources [{}]", list(&echoed_media)),
                passed,
            ))
        }
        EchoAspect::Bytes | EchoAspect::Nonce => {
            let value = |p: &EchoPart| match aspect {
                EchoAspect::Bytes => show(&p.bytes),
                _ => show(&p.nonce),
            };
            let checked: Vec<(usize, &&EchoPart)> = sent_media
                .iter()
                .enumerate()
                .filter(|(_, p)| match aspect {
                    EchoAspect::Bytes => p.bytes.is_some(),
                    _ => p.nonce.is_some(),
                })
                .collect();
            if checked.is_empty() {
                return None;
            }
            let word = if aspect == EchoAspect::Bytes {
                "bytes"
            } else {
                "nonce"
            };
            let mut expected = Vec::new();
            let mut actual = Vec::new();
            let mut passed = true;
            for (i, part) in checked {
                expected.push(format!("{} {word} {}", part.kind, value(part)));
                match echoed_media.get(i) {
                    Some(e) => {
                        actual.push(format!("{} {word} {}", e.kind, value(e)));
                        passed &= value(e) == value(part);
                    }
                    None => {
                        actual.push(format!("part {} missing", i + 1));
                        passed = false;
                    }
                }
            }
            Some((expected.join(", "), actual.join(", "), passed))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NONCE: &str = "feedc0de";

    fn png_b64() -> String {
        base64::engine::general_purpose::STANDARD.encode(media::generate("image/png", NONCE))
    }

    fn input(parts: Value) -> Value {
        json!({"messages": [
            {"role": "system", "content": "ignored"},
            {"role": "user", "content": "earlier"},
            {"role": "user", "content": parts}
        ]})
    }

    #[test]
    fn sent_parts_follow_user_messages_and_decode_inline_data() {
        let body = input(json!([
            {"type": "text", "text": "hi"},
            {"type": "image", "source": {"type": "data", "value": png_b64(), "mimeType": "image/png"}},
            {"type": "audio", "source": {"type": "url", "value": "http://127.0.0.1/a.wav"}},
            {"type": "binary", "mimeType": "application/pdf", "id": "f1"}
        ]));
        let sent = sent_parts(&body, NONCE);
        assert_eq!(kinds(&sent), "text, text, image, audio, document");
        let png = media::generate("image/png", NONCE).len() as u64;
        assert_eq!(sent[2].bytes, Some(png));
        assert_eq!(sent[2].nonce.as_deref(), Some(NONCE));
        assert_eq!(
            (sent[3].bytes, sent[3].source.as_deref()),
            (None, Some("url"))
        );
        assert_eq!(sent[4].source.as_deref(), Some("file"));
    }

    #[test]
    fn a_dropped_part_fails_kinds_and_sources() {
        let sent = sent_parts(
            &input(
                json!([{"type": "text", "text": "x"}, {"type": "video", "source": {"type": "data", "value": "AAAA", "mimeType": "video/mp4"}}]),
            ),
            NONCE,
        );
        let echoed = parse(&json!({"parts": [{"type": "text"}, {"type": "text"}]})).unwrap();
        let (expected, actual, passed) = compare(EchoAspect::Kinds, &sent, &echoed).unwrap();
        assert!(!passed);
        assert_eq!(
            (expected.as_str(), actual.as_str()),
            ("parts text, text, video", "parts text, text")
        );
        assert!(!compare(EchoAspect::Sources, &sent, &echoed).unwrap().2);
        let (_, actual, passed) = compare(EchoAspect::Bytes, &sent, &echoed).unwrap();
        assert!(!passed && actual == "part 1 missing", "{actual}");
        // No inline part carries the nonce (AAAA is not media): the nonce check does not apply.
        assert!(compare(EchoAspect::Nonce, &sent, &echoed).is_none());
    }

    #[test]
    fn truncated_bytes_and_a_lost_nonce_are_caught() {
        let sent = sent_parts(
            &input(
                json!([{"type": "image", "source": {"type": "data", "value": png_b64(), "mimeType": "image/png"}}]),
            ),
            NONCE,
        );
        let whole = sent[1].clone();
        let mut cut = whole.clone();
        cut.bytes = Some(64);
        cut.nonce = None;
        let echo = |p: &EchoPart| vec![EchoPart::text(), p.clone()];
        for aspect in EchoAspect::ALL {
            assert!(
                compare(aspect, &sent, &echo(&whole)).unwrap().2,
                "{aspect:?}"
            );
        }
        assert!(!compare(EchoAspect::Bytes, &sent, &echo(&cut)).unwrap().2);
        let (_, actual, passed) = compare(EchoAspect::Nonce, &sent, &echo(&cut)).unwrap();
        assert!(!passed && actual == "image nonce null", "{actual}");
    }

    #[test]
    fn malformed_echoes_are_reported() {
        assert!(
            parse(&json!({"parts": [{"source": "data"}]}))
                .unwrap_err()
                .contains("malformed")
        );
        assert!(parse(&json!([1])).is_err());
        assert!(parse(&json!({"parts": []})).unwrap().is_empty());
    }
}
