//! One `session/prompt`: every block read with the protocol's own `ContentBlock`
//! (an unknown type, a missing `mimeType` do not parse), each kind checked against what
//! the agent advertises and its base64 decoded (refused with -32602 otherwise, as the
//! protocol asks of a block outside `promptCapabilities`), then one model call with the
//! text and the media in one user turn. Faults act here.

use super::{AcpConfig, AcpFault};
pub use crate::openai_wire::WirePart;
use crate::openai_wire::{Body, Media, WireContent, WireMessage};
use agent_client_protocol_schema::v1::{ContentBlock, EmbeddedResourceResource};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

/// What the prompt became: the model's parts, or why it is refused.
pub enum Read {
    Parts(Vec<WirePart>),
    Refused(String),
    /// The agent crashes (a fault).
    Crash(String),
}

pub fn read(config: &AcpConfig, blocks: &Value) -> Read {
    let Some(list) = blocks.as_array() else {
        return Read::Refused("prompt must be an array of ContentBlock".into());
    };
    let mut parts = Vec::new();
    for (i, raw) in list.iter().enumerate() {
        let raw = &with_assumed_mime_type(config, raw);
        let block = match serde_json::from_value::<ContentBlock>(raw.clone()) {
            Ok(block) => block,
            Err(_) if config.faulted(AcpFault::IgnoresUnknownBlocks) && unknown_type(raw) => {
                continue;
            }
            Err(e) => return Read::Refused(format!("prompt[{i}] is not a ContentBlock: {e}")),
        };
        match one(config, block) {
            Ok(Some(part)) => parts.push(part),
            Ok(None) => {}
            Err(Read::Refused(why)) => return Read::Refused(format!("prompt[{i}]: {why}")),
            Err(other) => return other,
        }
    }
    Read::Parts(parts)
}

/// The block as read: under `accepts-missing-mime-type`, an image or audio block
/// without `mimeType` gets one assumed instead of being refused.
fn with_assumed_mime_type(config: &AcpConfig, raw: &Value) -> Value {
    let mut block = raw.clone();
    if config.faulted(AcpFault::AcceptsMissingMimeType)
        && let Some(map) = block.as_object_mut()
        && !map.contains_key("mimeType")
    {
        let assumed = match map.get("type").and_then(Value::as_str) {
            Some("image") => "image/png",
            Some("audio") => "audio/wav",
            _ => return block,
        };
        map.insert("mimeType".into(), Value::from(assumed));
    }
    block
}

fn unknown_type(raw: &Value) -> bool {
    !matches!(
        raw.get("type").and_then(Value::as_str),
        Some("text" | "image" | "audio" | "resource_link" | "resource")
    )
}

fn one(config: &AcpConfig, block: ContentBlock) -> Result<Option<WirePart>, Read> {
    let advertised = |on: bool, what: &str| -> Result<(), Read> {
        if on || config.faulted(AcpFault::AcceptsUnadvertised) {
            Ok(())
        } else {
            Err(Read::Refused(format!(
                "{what} blocks are not in promptCapabilities"
            )))
        }
    };
    Ok(match block {
        ContentBlock::Text(text) if config.faulted(AcpFault::DropsPromptText) => {
            let _ = text;
            None
        }
        ContentBlock::Text(text) => Some(WirePart::Text(text.text)),
        ContentBlock::ResourceLink(link) => {
            Some(WirePart::Text(format!("(linked resource: {})", link.uri)))
        }
        ContentBlock::Image(image) => {
            advertised(config.image, "image")?;
            let bytes = decode(config, &image.data)?;
            (!config.faulted(AcpFault::DropsImage)).then(|| media("image", image.mime_type, &bytes))
        }
        ContentBlock::Audio(audio) => {
            advertised(config.audio, "audio")?;
            let bytes = decode(config, &audio.data)?;
            let kind = if config.faulted(AcpFault::AudioAsImage) {
                "image"
            } else {
                "audio"
            };
            Some(media(kind, audio.mime_type, &bytes))
        }
        ContentBlock::Resource(resource) => {
            advertised(config.embedded_context, "resource")?;
            let part = match resource.resource {
                EmbeddedResourceResource::TextResourceContents(text) => {
                    WirePart::Text(format!("(resource {})\n{}", text.uri, text.text))
                }
                EmbeddedResourceResource::BlobResourceContents(blob) => {
                    let bytes = decode(config, &blob.blob)?;
                    let mime = blob
                        .mime_type
                        .unwrap_or_else(|| "application/octet-stream".into());
                    media(crate_kind(&mime), mime, &bytes)
                }
                _ => {
                    return Err(Read::Refused(
                        "an embedded resource of an unknown shape".into(),
                    ));
                }
            };
            (!config.faulted(AcpFault::IgnoresResources)).then_some(part)
        }
        _ => {
            return Err(Read::Refused(
                "a block type this agent does not know".into(),
            ));
        }
    })
}

fn crate_kind(mime: &str) -> &'static str {
    match mime.split('/').next().unwrap_or("") {
        "image" => "image",
        "audio" => "audio",
        "video" => "video",
        _ => "document",
    }
}

fn decode(config: &AcpConfig, data: &str) -> Result<Vec<u8>, Read> {
    STANDARD.decode(data).map_err(|e| {
        if config.faulted(AcpFault::CrashesOnBadBase64) {
            Read::Crash(format!("cannot decode base64: {e}"))
        } else {
            Read::Refused(format!("data is not base64: {e}"))
        }
    })
}

fn media(kind: &str, mime: String, bytes: &[u8]) -> WirePart {
    WirePart::Media(Media {
        kind: kind.to_string(),
        mime,
        body: Body::bytes(bytes),
    })
}

/// The one user turn the model gets.
pub fn turn(parts: Vec<WirePart>) -> Vec<WireMessage> {
    vec![WireMessage {
        role: "user".into(),
        content: WireContent::Parts(parts),
    }]
}
