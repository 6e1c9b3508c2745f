//! What a case's request hands the host for its model, as the witness judges it: each
//! `$media` part (its kind, MIME type, where its bytes come from and, for generated
//! inline data, their length and SHA-256) and each text carrying the case's nonce, in
//! body order.
//!
//! Derived from the body template the way every protocol renders it: the part's type
//! and MIME type resolved, the bytes from `mmconform_media::generate` (deterministic for
//! a MIME type, nonce and size), so no protocol has to report what it sent.

use crate::scenario::model::{MediaSource, MediaSpec};
use crate::scenario::{media_size, template};
use mmconform_media as media;
use serde_json::Value;

/// One part of the request, in body order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentPart {
    /// A text naming the case's nonce (a `{nonce}` placeholder in a string).
    Text,
    Media(SentMedia),
}

/// A `$media` part as it was sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SentMedia {
    /// The part's type as sent: `image`, `audio`, `document`, `video`, made-up ones.
    pub kind: String,
    pub mime: String,
    pub source: SentSource,
    /// `detail` as the scenario set it (OpenAI `image_url.detail`); `None`: not set, so
    /// absent on the wire.
    pub detail: Option<String>,
    /// The filename the scenario set (OpenAI `file.filename`); `None`: the protocol's
    /// default, which a gateway may replace.
    pub filename: Option<String>,
    /// The fields the scenario left out of the part (`omit`: `mimeType`, `filename`):
    /// what a gateway that adds them invented (`judge::repair`).
    pub omitted: Vec<String>,
}

/// Where a part's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SentSource {
    /// Generated inline data, stamped with the case's nonce; a picture's or sound's
    /// `shape` (`104x104`, `8000 Hz mono`) names what a transformation changed, and
    /// `kept` is the file itself when small, to tell a cut copy from a re-encoded one.
    Data {
        bytes: u64,
        sha256: String,
        shape: Option<String>,
        kept: Option<Kept>,
    },
    /// A literal `data` value from the scenario (malformed on purpose, usually).
    LiteralData,
    /// A reference the host resolves (`url`, `mediaRef`, `file`): no bytes sent.
    Reference(&'static str),
    /// No source, or several: a shape error on purpose.
    Malformed,
}

/// A sent file kept for comparison (shown by its length only).
#[derive(Clone, PartialEq, Eq)]
pub struct Kept(pub std::sync::Arc<[u8]>);

impl std::fmt::Debug for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kept({} B)", self.0.len())
    }
}

/// Largest sent file kept to compare with what arrived.
const MAX_KEPT: usize = 1 << 20;

impl SentMedia {
    /// `image/png 1,234 B`, `image/png (url)`.
    pub fn describe(&self) -> String {
        match &self.source {
            SentSource::Data { bytes, .. } => format!("{} {}", self.mime, size(*bytes)),
            SentSource::LiteralData => format!("{} (literal data)", self.mime),
            SentSource::Reference(how) => format!("{} ({how})", self.mime),
            SentSource::Malformed => format!("{} (malformed part)", self.mime),
        }
    }
}

/// `1,234 B`.
pub fn size(bytes: u64) -> String {
    let digits = bytes.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out} B")
}

/// The parts of `body` (a request body template) in body order, rendered with
/// `resolve` and stamped with `nonce`. `Err` when a `$media` spec does not render (the
/// case itself then errored before sending).
pub fn sent_parts(
    body: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
    nonce: &str,
) -> Result<Vec<SentPart>, String> {
    let mut out = Vec::new();
    walk(body, resolve, nonce, &mut out)?;
    Ok(out)
}

fn walk(
    value: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
    nonce: &str,
    out: &mut Vec<SentPart>,
) -> Result<(), String> {
    match value {
        Value::String(s)
            if template::placeholders(s).is_ok_and(|names| names.iter().any(|n| n == "nonce")) =>
        {
            out.push(SentPart::Text);
        }
        Value::Array(items) => {
            for item in items {
                walk(item, resolve, nonce, out)?;
            }
        }
        Value::Object(map) => {
            if let Some(spec) = map.get("$media") {
                let spec: MediaSpec =
                    serde_json::from_value(spec.clone()).map_err(|e| format!("bad $media: {e}"))?;
                out.push(SentPart::Media(media_part(&spec, resolve, nonce)?));
                return Ok(());
            }
            for item in map.values() {
                walk(item, resolve, nonce, out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A `$media` spec as the protocols render it (`protocol::*::part::render`).
fn media_part(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    nonce: &str,
) -> Result<SentMedia, String> {
    let text = |t: &str| template::render_text(t, resolve);
    let kind = text(&spec.part_type)?;
    let mime = match &spec.mime {
        Some(m) => text(m)?,
        // `file` is the OpenAI pack's name for a document part.
        None if kind == "file" => media::default_mime("document").to_string(),
        None => media::default_mime(&kind).to_string(),
    };
    let sources = spec
        .source
        .as_ref()
        .map(|s| s.to_vec())
        .unwrap_or_else(|| vec![MediaSource::Data]);
    let source = match sources.as_slice() {
        [MediaSource::Data] if spec.data.is_some() => SentSource::LiteralData,
        [MediaSource::Data] => {
            let bytes = match media_size::media_size(spec, resolve)? {
                Some(n) => media::generate_sized(&mime, nonce, n).map_err(|e| e.to_string())?,
                None => media::generate(&mime, nonce),
            };
            SentSource::Data {
                bytes: bytes.len() as u64,
                sha256: crate::digest::sha256_hex(&bytes),
                shape: media::content::read(&bytes, &media::content::Bounds::default())
                    .ok()
                    .map(|c| c.shape()),
                kept: (bytes.len() <= MAX_KEPT).then(|| Kept(bytes.into())),
            }
        }
        [MediaSource::Url] => SentSource::Reference("url"),
        [MediaSource::MediaRef] => SentSource::Reference("mediaRef"),
        [MediaSource::File] => SentSource::Reference("file"),
        _ => SentSource::Malformed,
    };
    let detail = spec.detail.as_deref().map(text).transpose()?;
    let filename = spec.filename.as_deref().map(text).transpose()?;
    Ok(SentMedia {
        kind,
        mime,
        source,
        detail,
        filename,
        omitted: spec.omit.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(name: &str) -> Option<Value> {
        (name == "kind").then(|| json!("audio"))
    }

    #[test]
    fn parts_in_body_order_with_the_bytes_the_protocols_generate() {
        let body = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "what is this? {nonce}"},
            {"$media": {"type": "{kind}"}},
            {"$media": {"type": "image", "source": "url", "detail": "low"}},
            {"$media": {"type": "image", "data": "not base64 {nonce}"}},
            {"$media": {"type": "image", "source": []}},
            {"type": "text", "text": "no nonce here"}
        ]}]});
        let parts = sent_parts(&body, &resolve, "n-c1").unwrap();
        let wav = media::generate("audio/wav", "n-c1");
        assert_eq!(parts.len(), 5);
        assert_eq!(parts[0], SentPart::Text);
        assert_eq!(
            parts[1],
            SentPart::Media(SentMedia {
                kind: "audio".into(),
                mime: "audio/wav".into(),
                source: SentSource::Data {
                    bytes: wav.len() as u64,
                    sha256: crate::digest::sha256_hex(&wav),
                    shape: Some("8000 Hz mono".into()),
                    kept: Some(Kept(wav.clone().into())),
                },
                detail: None,
                filename: None,
                omitted: Vec::new(),
            })
        );
        let SentPart::Media(url) = &parts[2] else {
            panic!("{parts:?}")
        };
        assert_eq!(url.describe(), "image/png (url)");
        assert_eq!(url.detail.as_deref(), Some("low"));
        assert!(matches!(&parts[3], SentPart::Media(m) if m.source == SentSource::LiteralData));
        assert!(matches!(&parts[4], SentPart::Media(m) if m.source == SentSource::Malformed));
    }

    #[test]
    fn sizes_are_grouped_by_thousands() {
        assert_eq!(size(0), "0 B");
        assert_eq!(size(999), "999 B");
        assert_eq!(size(1234), "1,234 B");
        assert_eq!(size(20_971_521), "20,971,521 B");
    }
}
