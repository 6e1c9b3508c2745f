//! Reading a `RunAgentInput` the way the AG-UI 1.0 schema does: every violation is a
//! 422 before any stream, as FastAPI/pydantic servers answer. Only user messages carry
//! multimodal content in 1.0, so only their content is read part by part.

use super::AguiFault;
use serde_json::Value;

/// A non-text part's source, as the 1.0 schema defines it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Data { value: String, mime: String },
    Url { value: String, mime: Option<String> },
    File { value: String, mime: Option<String> },
}

impl Source {
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Data { .. } => "data",
            Source::Url { .. } => "url",
            Source::File { .. } => "file",
        }
    }

    pub fn mime(&self) -> Option<&str> {
        match self {
            Source::Data { mime, .. } => Some(mime),
            Source::Url { mime, .. } | Source::File { mime, .. } => mime.as_deref(),
        }
    }
}

/// One content part of a user message, as it leaves validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// A text part, or string content.
    Text {
        text: String,
        string_content: bool,
    },
    Media {
        kind: String,
        source: Source,
    },
}

/// Why an input breaks the schema (answered 422, or 500 under `crash-on-malformed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError(pub String);

const MEDIA_KINDS: [&str; 4] = ["image", "audio", "video", "document"];
const ROLES: [&str; 6] = [
    "developer",
    "system",
    "assistant",
    "user",
    "tool",
    "activity",
];

fn string<'a>(v: &'a Value, key: &str, at: &str) -> Result<&'a str, SchemaError> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| SchemaError(format!("{at}.{key}: a string is required")))
}

fn optional_string(v: &Value, key: &str, at: &str) -> Result<Option<String>, SchemaError> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(SchemaError(format!("{at}.{key}: must be a string"))),
    }
}

/// The MIME type a base64 value's magic bytes suggest (what a lenient server guesses).
pub(super) fn sniff(base64_value: &str) -> Option<&'static str> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(base64_value)
        .ok()?;
    let riff = |form: &[u8]| bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(form);
    Some(if bytes.starts_with(b"\x89PNG") {
        "image/png"
    } else if bytes.starts_with(b"\xFF\xD8") {
        "image/jpeg"
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        "image/gif"
    } else if riff(b"WEBP") {
        "image/webp"
    } else if riff(b"WAVE") {
        "audio/wav"
    } else if bytes.starts_with(b"ID3") || bytes.starts_with(b"\xFF\xFB") {
        "audio/mpeg"
    } else if bytes.starts_with(b"%PDF") {
        "application/pdf"
    } else if bytes.get(4..8) == Some(b"ftyp") {
        "video/mp4"
    } else {
        return None;
    })
}

fn source(
    v: &Value,
    part_kind: &str,
    at: &str,
    fault: Option<AguiFault>,
) -> Result<Option<Source>, SchemaError> {
    if !v.is_object() {
        return Err(SchemaError(format!("{at}: an object is required")));
    }
    let kind = string(v, "type", at)?;
    let value = string(v, "value", at)?.to_string();
    let mime = optional_string(v, "mimeType", at)?;
    Ok(Some(match kind {
        "data" => {
            let mime = match (mime, fault) {
                (Some(m), _) => m,
                // The lenient variant sniffs the bytes instead of refusing, as lenient
                // servers do.
                (None, Some(AguiFault::AcceptsMissingMimeType)) => sniff(&value)
                    .unwrap_or_else(|| mmconform_media::default_mime(part_kind))
                    .to_string(),
                (None, _) => {
                    return Err(SchemaError(format!(
                        "{at}.mimeType: a data source requires mimeType"
                    )));
                }
            };
            Source::Data { value, mime }
        }
        "url" => Source::Url { value, mime },
        "file" => Source::File { value, mime },
        _ if fault == Some(AguiFault::DropsUnknownSource) => return Ok(None),
        other => {
            return Err(SchemaError(format!(
                "{at}.type: unknown source type `{other}` (data, url, file)"
            )));
        }
    }))
}

fn part(v: &Value, at: &str, fault: Option<AguiFault>) -> Result<Option<Part>, SchemaError> {
    let kind = string(v, "type", at)?;
    if kind == "text" {
        let text = string(v, "text", at)?;
        // Valid in the 1.0 schema, malformed on every model wire: refused before the run.
        if text.is_empty() && fault != Some(AguiFault::AcceptsEmptyText) {
            return Err(SchemaError(format!("{at}.text: an empty text part")));
        }
        return Ok(Some(Part::Text {
            text: text.to_owned(),
            string_content: false,
        }));
    }
    if !MEDIA_KINDS.contains(&kind) {
        return match fault {
            Some(AguiFault::DropsUnknownPart) => Ok(None),
            _ => Err(SchemaError(format!(
                "{at}.type: unknown content part type `{kind}` (text, image, audio, video, document)"
            ))),
        };
    }
    let Some(raw_source) = v.get("source") else {
        return match fault {
            Some(AguiFault::DropsPartWithoutSource) => Ok(None),
            _ => Err(SchemaError(format!(
                "{at}.source: required for a {kind} part"
            ))),
        };
    };
    Ok(
        source(raw_source, kind, &format!("{at}.source"), fault)?.map(|source| Part::Media {
            kind: kind.to_string(),
            source,
        }),
    )
}

fn user_content(v: &Value, at: &str, fault: Option<AguiFault>) -> Result<Vec<Part>, SchemaError> {
    match v.get("content") {
        Some(Value::String(text)) => Ok(vec![Part::Text {
            text: text.clone(),
            string_content: true,
        }]),
        // Valid in the 1.0 schema, malformed on every model wire: refused before the run.
        Some(Value::Array(items))
            if items.is_empty() && fault != Some(AguiFault::AcceptsEmptyContent) =>
        {
            Err(SchemaError(format!("{at}.content: an empty content list")))
        }
        Some(Value::Array(items)) => {
            let mut parts = Vec::new();
            for (i, item) in items.iter().enumerate() {
                parts.extend(part(item, &format!("{at}.content[{i}]"), fault)?);
            }
            Ok(parts)
        }
        Some(Value::Number(n)) if fault == Some(AguiFault::CoercesNumericContent) => {
            Ok(vec![Part::Text {
                text: n.to_string(),
                string_content: true,
            }])
        }
        _ => Err(SchemaError(format!(
            "{at}.content: a string or an array of content parts is required"
        ))),
    }
}

/// The parts of each user message of a schema-valid `RunAgentInput`, message by
/// message and in order, or the first violation.
pub fn read(input: &Value, fault: Option<AguiFault>) -> Result<Vec<Vec<Part>>, SchemaError> {
    if !input.is_object() {
        return Err(SchemaError(
            "the body must be a RunAgentInput object".into(),
        ));
    }
    string(input, "threadId", "input")?;
    string(input, "runId", "input")?;
    for key in ["tools", "context"] {
        if !input.get(key).is_some_and(Value::is_array) {
            return Err(SchemaError(format!("input.{key}: an array is required")));
        }
    }
    for key in ["state", "forwardedProps"] {
        if input.get(key).is_none() {
            return Err(SchemaError(format!("input.{key}: required")));
        }
    }
    let messages = input
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| SchemaError("input.messages: an array is required".into()))?;
    let mut parts = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        let at = format!("messages[{i}]");
        string(message, "id", &at)?;
        let role = string(message, "role", &at)?;
        if !ROLES.contains(&role) {
            return Err(SchemaError(format!("{at}.role: unknown role `{role}`")));
        }
        if role == "user" {
            parts.push(user_content(message, &at, fault)?);
        } else if matches!(role, "system" | "developer")
            && !message.get("content").is_some_and(Value::is_string)
            && fault != Some(AguiFault::IgnoresSystemParts)
        {
            // A system or developer message's content is a string (1.0 schema): no parts.
            return Err(SchemaError(format!(
                "{at}.content: a {role} message's content is a string"
            )));
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(content: Value) -> Value {
        json!({"threadId": "t", "runId": "r", "state": {}, "forwardedProps": {}, "tools": [], "context": [],
               "messages": [{"id": "m", "role": "user", "content": content}]})
    }

    fn err(content: Value) -> String {
        read(&input(content), None).unwrap_err().0
    }

    /// Every user part, the messages run together.
    fn flat(input: &Value, fault: Option<AguiFault>) -> Result<Vec<Part>, SchemaError> {
        read(input, fault).map(|messages| messages.concat())
    }

    #[test]
    fn valid_parts_are_read_in_order() {
        let parts = flat(
            &input(json!([
                {"type": "text", "text": "hi"},
                {"type": "image", "source": {"type": "data", "value": "AAAA", "mimeType": "image/png"}},
                {"type": "document", "source": {"type": "file", "value": "f1"}}
            ])),
            None,
        )
        .unwrap();
        assert_eq!(parts.len(), 3);
        assert!(
            matches!(&parts[1], Part::Media { kind, source: Source::Data { .. } } if kind == "image")
        );
        assert_eq!(
            read(&input(json!("plain")), None).unwrap(),
            [[Part::Text {
                text: "plain".into(),
                string_content: true
            }]]
        );
        let mut two = input(json!("one"));
        two["messages"] = json!([
            {"id": "a", "role": "user", "content": "one"},
            {"id": "b", "role": "assistant", "content": "skipped"},
            {"id": "c", "role": "user", "content": [{"type": "text", "text": "two"}]},
        ]);
        let messages = read(&two, None).unwrap();
        assert_eq!(messages.len(), 2);
        assert_eq!(
            messages[1],
            [Part::Text {
                text: "two".into(),
                string_content: false
            }]
        );
    }

    #[test]
    fn schema_violations_name_the_place() {
        assert!(
            err(json!([{"type": "hologram", "source": {}}]))
                .contains("unknown content part type `hologram`")
        );
        assert!(
            err(json!([{"type": "binary", "mimeType": "image/png", "data": "AAAA"}]))
                .contains("`binary`")
        );
        assert!(err(json!([{"type": "image"}])).contains("content[0].source: required"));
        assert!(
            err(json!([{"type": "image", "source": {"type": "data", "value": "AAAA"}}]))
                .contains("requires mimeType")
        );
        assert!(
            err(json!([{"type": "image", "source": {"type": "blob", "value": "x"}}]))
                .contains("unknown source type `blob`")
        );
        assert!(err(json!(42)).contains("a string or an array"));
        assert!(err(json!([])).contains("an empty content list"));
        assert!(err(json!([{"type": "text", "text": ""}])).contains("an empty text part"));
        let mut system_parts = input(json!("x"));
        system_parts["messages"] = json!([
            {"id": "s", "role": "system", "content": [{"type": "text", "text": "be brief"}]},
            {"id": "m", "role": "user", "content": "x"},
        ]);
        assert!(
            read(&system_parts, None)
                .unwrap_err()
                .0
                .contains("a system message's content is a string")
        );
        assert!(read(&system_parts, Some(AguiFault::IgnoresSystemParts)).is_ok());
        assert!(read(&input(json!([])), Some(AguiFault::AcceptsEmptyContent)).is_ok());
        let empty_text = input(json!([{"type": "text", "text": ""}]));
        assert!(read(&empty_text, Some(AguiFault::AcceptsEmptyText)).is_ok());
        assert!(read(&empty_text, Some(AguiFault::AcceptsEmptyContent)).is_err());
        let mut no_tools = input(json!("x"));
        no_tools.as_object_mut().unwrap().remove("tools");
        assert!(read(&no_tools, None).unwrap_err().0.contains("input.tools"));
    }

    #[test]
    fn lenient_faults_let_exactly_their_violation_through() {
        let unknown = input(json!([{"type": "text", "text": "x"}, {"type": "hologram"}]));
        assert_eq!(
            flat(&unknown, Some(AguiFault::DropsUnknownPart))
                .unwrap()
                .len(),
            1
        );
        assert!(flat(&unknown, Some(AguiFault::DropsUnknownSource)).is_err());
        let sourceless = input(json!([{"type": "audio"}]));
        assert!(
            flat(&sourceless, Some(AguiFault::DropsPartWithoutSource))
                .unwrap()
                .is_empty()
        );
        let blob = input(json!([{"type": "audio", "source": {"type": "blob", "value": "x"}}]));
        assert!(
            flat(&blob, Some(AguiFault::DropsUnknownSource))
                .unwrap()
                .is_empty()
        );
        let no_mime =
            input(json!([{"type": "image", "source": {"type": "data", "value": "AAAA"}}]));
        assert_eq!(
            flat(&no_mime, Some(AguiFault::AcceptsMissingMimeType))
                .unwrap()
                .len(),
            1
        );
        for mime in mmconform_media::supported_mimes() {
            let b64 = base64::Engine::encode(
                &base64::engine::general_purpose::STANDARD,
                mmconform_media::generate(mime, "0123456789abcdef"),
            );
            assert_eq!(sniff(&b64), Some(*mime), "{mime}");
        }
        assert_eq!(
            flat(&input(json!(42)), Some(AguiFault::CoercesNumericContent))
                .unwrap()
                .len(),
            1
        );
    }
}
