//! Turning the attachments of `params.media` into the parts the model gets: bytes from
//! `base64` or, failing that, from the file at `filePath`; only the types the runtime
//! accepts; each fault that loses an attachment acts here.

use super::{RuntimeConfig, RuntimeFault};
use crate::openai_wire::{Body, Media};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

/// The largest attachment file read.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// What became of the attachments.
#[derive(Debug, Default)]
pub struct Attached {
    pub media: Vec<Media>,
    /// MIME types outside `acceptsInbound` (left out, or an error under a fault).
    pub undeclared: Vec<String>,
    /// Attachments that could not be read (a broken path, bad base64).
    pub unreadable: Vec<String>,
    pub audio: bool,
}

/// The part kind a MIME type goes to the model as.
pub fn kind(mime: &str) -> &'static str {
    match mime
        .split('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
        .as_str()
    {
        "image" => "image",
        "audio" => "audio",
        "video" => "video",
        _ => "document",
    }
}

pub fn attachments(config: &RuntimeConfig, params: &Value) -> Attached {
    let mut out = Attached::default();
    let resuming = params.get("sessionId").is_some_and(|s| !s.is_null());
    if resuming && config.faulted(RuntimeFault::DropsMediaOnResume) {
        return out;
    }
    let list = params
        .get("media")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for attachment in list {
        let mime = attachment
            .get("mimeType")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if kind(&mime) == "audio" {
            out.audio = true;
        }
        if !config.accepts_mime(&mime) {
            out.undeclared.push(mime);
            continue;
        }
        let b64 = attachment.get("base64").and_then(Value::as_str);
        let path = attachment.get("filePath").and_then(Value::as_str);
        let bytes = match (b64, path) {
            (Some(_), None) if config.faulted(RuntimeFault::DropsBase64Only) => continue,
            (None, Some(_)) if config.faulted(RuntimeFault::IgnoresFilePath) => continue,
            (Some(b64), _) => STANDARD.decode(b64).map_err(|e| e.to_string()),
            (None, Some(path)) => read_file(path),
            (None, None) => Err("neither base64 nor filePath".into()),
        };
        match bytes {
            Ok(mut bytes) => {
                if config.faulted(RuntimeFault::TruncatesMedia) {
                    bytes.pop();
                }
                let kind = kind(&mime).to_string();
                out.media.push(Media {
                    kind,
                    mime,
                    body: Body::bytes(&bytes),
                });
            }
            Err(e) => out.unreadable.push(format!("{mime}: {e}")),
        }
    }
    out
}

fn read_file(path: &str) -> Result<Vec<u8>, String> {
    let len = std::fs::metadata(path)
        .map_err(|e| format!("{path}: {e}"))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(format!("{path}: {len} bytes, more than {MAX_FILE_BYTES}"));
    }
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}
