//! An outbound `MediaAttachment` (a `media` event's `media`, an item of
//! `done.result.media`) as it is judged: its `mimeType`, and where its bytes are. Base64
//! is decoded as it is read (a chunk at a time, never the whole item at once) and only
//! the head is kept: enough for the format's signature. A `filePath` is kept to be read
//! after the run, inside the bridge's working folder (`outbound_file.rs`).

use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};
use std::io::Read as _;

/// Bytes kept of an item: more than any signature needs.
pub const HEAD_BYTES: usize = 64;
/// Longer `filePath`s name no file (PATH_MAX): they are not kept.
const MAX_PATH_BYTES: usize = 4096;
/// Longest `mimeType` kept (a report quotes it).
const MAX_MIME_CHARS: usize = 120;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// `mimeType`, when it is a non-empty string (clipped).
    pub mime: Option<String>,
    pub source: Source,
}

/// Where an item's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `base64`: its first [`HEAD_BYTES`] decoded, or why it does not decode.
    Base64(Result<Vec<u8>, String>),
    /// `filePath` (no `base64`).
    FilePath(String),
    /// A `filePath` too long to name a file.
    PathTooLong(usize),
    Neither,
}

impl Attachment {
    pub fn of(media: &Map<String, Value>) -> Attachment {
        let mime = media
            .get("mimeType")
            .and_then(Value::as_str)
            .filter(|m| !m.trim().is_empty())
            .map(|m| super::event::clip(m, MAX_MIME_CHARS));
        let source = if let Some(b64) = media.get("base64").and_then(Value::as_str) {
            Source::Base64(head_of_base64(b64))
        } else if let Some(path) = media.get("filePath").and_then(Value::as_str) {
            if path.len() > MAX_PATH_BYTES {
                Source::PathTooLong(path.len())
            } else {
                Source::FilePath(path.to_string())
            }
        } else {
            Source::Neither
        };
        Attachment { mime, source }
    }
}

/// The first [`HEAD_BYTES`] of `b64` decoded, after checking the whole of it decodes.
fn head_of_base64(b64: &str) -> Result<Vec<u8>, String> {
    let mut decoder = base64::read::DecoderReader::new(b64.as_bytes(), &STANDARD);
    let mut head = Vec::with_capacity(HEAD_BYTES);
    let mut chunk = [0u8; 8192];
    loop {
        let n = decoder.read(&mut chunk).map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(head);
        }
        let room = HEAD_BYTES.saturating_sub(head.len()).min(n);
        head.extend_from_slice(&chunk[..room]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use serde_json::json;

    fn of(v: serde_json::Value) -> Attachment {
        Attachment::of(v.as_object().unwrap())
    }

    #[test]
    fn base64_is_checked_whole_and_only_its_head_kept() {
        let png = mmconform_media::generate("image/png", "n1");
        let item = of(json!({"mimeType": "image/png", "base64": STANDARD.encode(&png)}));
        assert_eq!(item.mime.as_deref(), Some("image/png"));
        assert_eq!(item.source, Source::Base64(Ok(png[..HEAD_BYTES].to_vec())));
        let bad = of(json!({"mimeType": "image/png", "base64": "iVBORw0KGgo*"}));
        assert!(matches!(bad.source, Source::Base64(Err(_))), "{bad:?}");
        let mut long = STANDARD.encode(vec![7u8; 100_000]);
        long.push('!');
        assert!(matches!(
            of(json!({"base64": long})).source,
            Source::Base64(Err(_))
        ));
    }

    #[test]
    fn a_path_is_kept_to_be_read_later_unless_it_names_no_file() {
        let item = of(json!({"mimeType": " ", "filePath": "out/a.png"}));
        assert_eq!(item.mime, None);
        assert_eq!(item.source, Source::FilePath("out/a.png".into()));
        let long = "a/".repeat(3000);
        assert_eq!(
            of(json!({"filePath": long})).source,
            Source::PathTooLong(6000)
        );
        assert_eq!(of(json!({"mimeType": "x/y"})).source, Source::Neither);
    }
}
