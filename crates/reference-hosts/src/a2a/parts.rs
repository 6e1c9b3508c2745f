//! Reading a sent message in its version's spelling: 1.0's flat `Part` (exactly one of
//! `text`, `raw`, `url`, `data`, with `mediaType` and `filename`; proto `Part`) or 0.3's
//! `kind`-tagged parts (`file: {bytes | uri, mimeType, name}`; types.ts `Part`). What
//! does not read is `-32602` (§3.3.2: servers MUST validate all input parameters),
//! unless a lax fault lets it through.

use super::error::A2aError;
use super::{A2aFault, AgentConfig, Version};
use base64::Engine as _;
use serde_json::{Map, Value};

/// A message as the agent read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub message_id: String,
    pub context_id: Option<String>,
    pub parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    File(FilePart),
    /// Structured data: taken, and given to the model as its JSON text.
    Data(Value),
}

#[derive(Debug, Clone, PartialEq)]
pub struct FilePart {
    /// The stated media type (`None`: the part states none, and a lax fault let it in).
    pub mime: Option<String>,
    pub filename: Option<String>,
    pub content: Content,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Inline bytes: the base64 as sent, and the bytes it decodes to (`None`: it does
    /// not decode, and `accepts-invalid-base64` let it in).
    Inline {
        base64: String,
        bytes: Option<Vec<u8>>,
    },
    /// A URL the agent does not fetch.
    Url(String),
}

/// Reads `params.message` of a send in `version`.
pub fn read_message(
    config: &AgentConfig,
    version: Version,
    params: &Value,
) -> Result<Message, A2aError> {
    let message = params
        .get("message")
        .and_then(Value::as_object)
        .ok_or_else(|| A2aError::invalid("params.message is required and must be an object"))?;
    let role = message.get("role").and_then(Value::as_str);
    if role != Some(version.user_role()) {
        return Err(A2aError::invalid(format!(
            "message.role must be {} at A2A {}",
            version.user_role(),
            version.number()
        )));
    }
    let message_id = message
        .get("messageId")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| A2aError::invalid("message.messageId is required"))?
        .to_string();
    let raw_parts = message
        .get("parts")
        .and_then(Value::as_array)
        .ok_or_else(|| A2aError::invalid("message.parts is required and must be an array"))?;
    if raw_parts.is_empty() && !config.faulted(A2aFault::AcceptsEmptyParts) {
        return Err(A2aError::invalid(
            "message.parts must hold at least one part",
        ));
    }
    let mut parts = Vec::new();
    for (i, raw) in raw_parts.iter().enumerate() {
        let part = raw
            .as_object()
            .ok_or_else(|| A2aError::invalid(format!("message.parts[{i}] is not an object")))?;
        let read = match version {
            Version::V1
                if part.contains_key("kind") && config.faulted(A2aFault::AcceptsV03PartAtV1) =>
            {
                read_v03(config, part)
            }
            Version::V1 => read_v1(config, part),
            Version::V03 => read_v03(config, part),
        };
        parts.push(read.map_err(|e| A2aError::invalid(format!("message.parts[{i}]: {e}")))?);
    }
    Ok(Message {
        message_id,
        context_id: message
            .get("contextId")
            .and_then(Value::as_str)
            .map(str::to_string),
        parts,
    })
}

const V1_CONTENT: [&str; 4] = ["text", "raw", "url", "data"];

fn read_v1(config: &AgentConfig, part: &Map<String, Value>) -> Result<Part, String> {
    let present: Vec<&str> = V1_CONTENT
        .into_iter()
        .filter(|k| part.contains_key(*k))
        .collect();
    let content = match present.as_slice() {
        [one] => *one,
        ["raw", "url"] if config.faulted(A2aFault::AcceptsRawAndUrl) => "raw",
        [] if part.contains_key("kind") => {
            return Err("a 1.0 Part has no `kind`: this is a 0.3 part".into());
        }
        [] => return Err("a Part carries one of text, raw, url, data; this has none".into()),
        several => {
            return Err(format!(
                "a Part carries exactly one of text, raw, url, data; this has {}",
                several.join(" and ")
            ));
        }
    };
    let mime = part.get("mediaType").and_then(Value::as_str);
    let filename = part.get("filename").and_then(Value::as_str);
    match content {
        "text" => text(part.get("text")),
        "data" => Ok(Part::Data(part["data"].clone())),
        "raw" => file(config, mime, filename, inline(config, &part["raw"])?),
        _ => file(config, mime, filename, url(config, &part["url"])?),
    }
}

fn read_v03(config: &AgentConfig, part: &Map<String, Value>) -> Result<Part, String> {
    match part.get("kind").and_then(Value::as_str) {
        Some("text") => text(part.get("text")),
        Some("data") => Ok(Part::Data(part.get("data").cloned().unwrap_or(Value::Null))),
        Some("file") => {
            let file_object = part
                .get("file")
                .and_then(Value::as_object)
                .ok_or("a file part's `file` must be an object")?;
            let content = match (file_object.get("bytes"), file_object.get("uri")) {
                (Some(bytes), None) => inline(config, bytes)?,
                (None, Some(uri)) => url(config, uri)?,
                (Some(bytes), Some(_)) if config.faulted(A2aFault::AcceptsRawAndUrl) => {
                    inline(config, bytes)?
                }
                (Some(_), Some(_)) => return Err("a file has bytes or uri, not both".into()),
                (None, None) => return Err("a file has bytes or uri; this has neither".into()),
            };
            let mime = file_object.get("mimeType").and_then(Value::as_str);
            let name = file_object.get("name").and_then(Value::as_str);
            file(config, mime, name, content)
        }
        Some(other) => Err(format!("unknown part kind `{other}`")),
        None => Err("a 0.3 part names its `kind` (text, file, data)".into()),
    }
}

fn text(value: Option<&Value>) -> Result<Part, String> {
    value
        .and_then(Value::as_str)
        .map(|t| Part::Text(t.to_string()))
        .ok_or_else(|| "`text` must be a string".into())
}

fn file(
    config: &AgentConfig,
    mime: Option<&str>,
    filename: Option<&str>,
    content: Content,
) -> Result<Part, String> {
    if mime.is_none() && !config.faulted(A2aFault::AcceptsMissingMediaType) {
        return Err("a file part states its mediaType".into());
    }
    Ok(Part::File(FilePart {
        mime: mime.map(str::to_string),
        filename: filename.map(str::to_string),
        content,
    }))
}

/// Inline bytes: base64 decoded strictly (RFC 4648 §3.3), or as `lax-base64` does.
fn inline(config: &AgentConfig, value: &Value) -> Result<Content, String> {
    let base64 = value
        .as_str()
        .ok_or("inline bytes must be a base64 string")?;
    let cleaned: String = if config.faulted(A2aFault::LaxBase64) {
        base64
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
            .collect()
    } else {
        base64.to_string()
    };
    match base64::engine::general_purpose::STANDARD.decode(&cleaned) {
        Ok(bytes) => Ok(Content::Inline {
            base64: base64.to_string(),
            bytes: Some(bytes),
        }),
        Err(_) if config.faulted(A2aFault::AcceptsInvalidBase64) => Ok(Content::Inline {
            base64: base64.to_string(),
            bytes: None,
        }),
        Err(e) => Err(format!("inline bytes are not valid base64 ({e})")),
    }
}

fn url(config: &AgentConfig, value: &Value) -> Result<Content, String> {
    let raw = value.as_str().ok_or("a url must be a string")?;
    let http = url::Url::parse(raw).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
    if http || config.faulted(A2aFault::AcceptsNonHttpUrl) {
        Ok(Content::Url(raw.to_string()))
    } else {
        Err(format!("`{raw}` is not an http(s) URL"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(fault: Option<A2aFault>, version: Version, parts: Value) -> Result<Message, String> {
        let config = AgentConfig {
            fault,
            ..AgentConfig::default()
        };
        let role = version.user_role();
        read_message(
            &config,
            version,
            &json!({"message": {"role": role, "messageId": "m", "parts": parts}}),
        )
        .map_err(|e| e.message)
    }

    #[test]
    fn v1_parts_carry_exactly_one_content() {
        let png = base64::engine::general_purpose::STANDARD.encode(b"\x89PNG");
        let ok = read(
            None,
            Version::V1,
            json!([{"text": "hi"}, {"raw": png, "mediaType": "image/png"}]),
        )
        .unwrap();
        assert_eq!(ok.parts.len(), 2);
        for bad in [
            json!([]),
            json!([{"raw": png, "url": "http://x/y", "mediaType": "image/png"}]),
            json!([{"raw": png}]),
            json!([{"raw": "!!!", "mediaType": "image/png"}]),
            json!([{"url": "file:///etc/passwd", "mediaType": "image/png"}]),
            json!([{"kind": "file", "file": {"bytes": png, "mimeType": "image/png"}}]),
        ] {
            assert!(read(None, Version::V1, bad.clone()).is_err(), "{bad}");
        }
        let v03 = json!([{"kind": "file", "file": {"bytes": png, "mimeType": "image/png"}}]);
        assert!(read(Some(A2aFault::AcceptsV03PartAtV1), Version::V1, v03).is_ok());
    }

    #[test]
    fn v03_parts_are_kind_tagged() {
        let ok = read(
            None,
            Version::V03,
            json!([{"kind": "text", "text": "hi"}, {"kind": "file", "file": {"uri": "https://x/a.png", "mimeType": "image/png"}}]),
        )
        .unwrap();
        assert!(
            matches!(&ok.parts[1], Part::File(f) if f.content == Content::Url("https://x/a.png".into()))
        );
        assert!(read(None, Version::V03, json!([{"text": "hi"}])).is_err());
        assert!(
            read(
                None,
                Version::V03,
                json!([{"kind": "file", "file": {"bytes": "AA==", "uri": "https://x", "mimeType": "image/png"}}])
            )
            .is_err()
        );
    }

    #[test]
    fn the_role_is_spelled_by_the_version() {
        let config = AgentConfig::default();
        let body = json!({"message": {"role": "user", "messageId": "m", "parts": [{"text": "x"}]}});
        assert!(read_message(&config, Version::V1, &body).is_err());
        assert!(read_message(&config, Version::V03, &body).is_err());
    }
}
