//! Content on its way to a model: the OpenAI Chat Completions message shapes both
//! reference hosts forward to an upstream (docs/wire.md, "Forwarding to a model").
//!
//! Each host reads its own wire (RFC 0091 parts, AG-UI parts) into [`WireMessage`]s;
//! this module turns them into the OpenAI JSON, and is the one place the forwarding
//! faults of both hosts bend that JSON ([`Distortion`]), so the two hosts cannot map
//! the same content differently.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

/// The MIME type `forward-wrong-mime` puts in every data URL: never the right one for
/// a real part, so the fault always shows.
pub const WRONG_MIME: &str = "application/octet-stream";

/// One message as it goes to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireMessage {
    pub role: String,
    pub content: WireContent,
}

/// String content stays a string; parts stay parts, in their order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireContent {
    Text(String),
    Parts(Vec<WirePart>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WirePart {
    Text(String),
    Media(Media),
}

/// A non-text part: its kind (`image`, `audio`, `document`, `video`, ...), its MIME
/// type and where its bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    pub kind: String,
    pub mime: String,
    pub body: Body,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// Inline bytes as base64, passed on exactly as they came (or as the host encoded
    /// the bytes it resolved itself).
    Base64(String),
    /// A URL the host did not fetch.
    Url(String),
}

impl Body {
    /// Inline `bytes`, base64-encoded.
    pub fn bytes(bytes: &[u8]) -> Body {
        Body::Base64(STANDARD.encode(bytes))
    }
}

/// What a forwarding fault does to the request on its way, each breaking one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distortion {
    /// Only text reaches the model.
    DropsMedia,
    /// Audio parts are left out.
    DropsAudio,
    /// Documents go as `image_url`.
    DocumentAsImage,
    /// Every data URL names [`WRONG_MIME`].
    WrongMime,
    /// Inline bytes lose their last byte (the nonce stamp, early in every generated
    /// file, survives: only a byte-for-byte comparison notices).
    TruncatesBytes,
    /// The parts of each message arrive in reverse order.
    ReordersParts,
}

/// `data:<mime>;base64,<b64>`.
pub fn data_url(mime: &str, base64: &str) -> String {
    format!("data:{mime};base64,{base64}")
}

/// The `input_audio.format` for an audio MIME type: `wav` and `mp3` for their usual
/// spellings; any other subtype is passed on as it is and the model decides.
pub fn audio_format(mime: &str) -> String {
    let essence = mmconform_media::mime_essence(mime);
    let subtype = essence.split_once('/').map_or(essence.as_str(), |(_, s)| s);
    match subtype {
        "wav" | "x-wav" | "wave" | "vnd.wave" => "wav".into(),
        "mpeg" | "mp3" | "mpeg3" | "x-mpeg-3" => "mp3".into(),
        other => other.into(),
    }
}

/// The file name a forwarded file part carries: the part kind and an extension from
/// its MIME type (`document.pdf`, `document.txt`; `.bin` when unknown).
pub fn filename(kind: &str, mime: &str) -> String {
    let ext = match mmconform_media::mime_essence(mime).as_str() {
        "application/pdf" => "pdf",
        "text/plain" => "txt",
        "text/markdown" => "md",
        "text/csv" => "csv",
        "text/html" => "html",
        "application/json" => "json",
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/webp" => "webp",
        "audio/wav" => "wav",
        "audio/mpeg" => "mp3",
        "video/mp4" => "mp4",
        _ => "bin",
    };
    format!("{kind}.{ext}")
}

/// The `messages` of a Chat Completions request, with `distortion` applied.
pub fn messages(messages: &[WireMessage], distortion: Option<Distortion>) -> Value {
    Value::Array(
        messages
            .iter()
            .map(|m| json!({"role": m.role, "content": content(&m.content, distortion)}))
            .collect(),
    )
}

fn content(content: &WireContent, distortion: Option<Distortion>) -> Value {
    let parts = match content {
        WireContent::Text(text) => return json!(text),
        WireContent::Parts(parts) => parts,
    };
    let mut kept: Vec<&WirePart> = parts
        .iter()
        .filter(|part| match (part, distortion) {
            (WirePart::Media(_), Some(Distortion::DropsMedia)) => false,
            (WirePart::Media(m), Some(Distortion::DropsAudio)) => m.kind != "audio",
            _ => true,
        })
        .collect();
    if distortion == Some(Distortion::ReordersParts) {
        kept.reverse();
    }
    Value::Array(kept.into_iter().map(|p| part(p, distortion)).collect())
}

/// One part in the OpenAI shape: text; an image as `image_url` (a data URL, or the
/// http URL); audio as `input_audio`; a document (or any other kind) as `file` with a
/// data URL and a file name. Audio and documents given by URL go as `file {file_id:
/// <url>}`: the host does not fetch them, and an http `file_id` is how gateways such
/// as LiteLLM take a file by URL.
pub fn part(part: &WirePart, distortion: Option<Distortion>) -> Value {
    let media = match part {
        WirePart::Text(text) => return json!({"type": "text", "text": text}),
        WirePart::Media(media) => media,
    };
    let kind = match (media.kind.as_str(), distortion) {
        ("document", Some(Distortion::DocumentAsImage)) => "image",
        (kind, _) => kind,
    };
    let url_mime = if distortion == Some(Distortion::WrongMime) {
        WRONG_MIME
    } else {
        media.mime.as_str()
    };
    let body = match (&media.body, distortion) {
        (Body::Base64(b64), Some(Distortion::TruncatesBytes)) => Body::Base64(truncated(b64)),
        (body, _) => body.clone(),
    };
    match (kind, body) {
        ("image", Body::Base64(b64)) => {
            json!({"type": "image_url", "image_url": {"url": data_url(url_mime, &b64)}})
        }
        ("image", Body::Url(url)) => json!({"type": "image_url", "image_url": {"url": url}}),
        ("audio", Body::Base64(b64)) => json!({"type": "input_audio", "input_audio": {
            "data": b64, "format": audio_format(&media.mime)}}),
        (kind, Body::Base64(b64)) => json!({"type": "file", "file": {
            "file_data": data_url(url_mime, &b64), "filename": filename(kind, &media.mime)}}),
        (kind, Body::Url(url)) => json!({"type": "file", "file": {
            "file_id": url, "filename": filename(kind, &media.mime)}}),
    }
}

/// The base64 of the same bytes minus the last one; a value that is not base64 loses
/// its last character instead (it was never bytes).
pub(crate) fn truncated(b64: &str) -> String {
    match STANDARD.decode(b64) {
        Ok(mut bytes) => {
            bytes.pop();
            STANDARD.encode(bytes)
        }
        Err(_) => b64
            .chars()
            .take(b64.chars().count().saturating_sub(1))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn media(kind: &str, mime: &str, body: Body) -> WirePart {
        WirePart::Media(Media {
            kind: kind.into(),
            mime: mime.into(),
            body,
        })
    }

    fn user(parts: Vec<WirePart>) -> Vec<WireMessage> {
        vec![WireMessage {
            role: "user".into(),
            content: WireContent::Parts(parts),
        }]
    }

    fn every_kind() -> Vec<WirePart> {
        vec![
            WirePart::Text("look".into()),
            media("image", "image/jpeg", Body::Base64("AAEC".into())),
            media(
                "image",
                "image/png",
                Body::Url("https://x.test/a.png".into()),
            ),
            media("audio", "audio/mpeg", Body::Base64("AwQF".into())),
            media("document", "application/pdf", Body::Base64("BgcI".into())),
            media(
                "document",
                "text/plain",
                Body::Url("https://x.test/a.txt".into()),
            ),
        ]
    }

    #[test]
    fn each_kind_and_source_has_its_openai_shape() {
        let wire = messages(&user(every_kind()), None);
        assert_eq!(
            wire,
            json!([{"role": "user", "content": [
                {"type": "text", "text": "look"},
                {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAEC"}},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
                {"type": "input_audio", "input_audio": {"data": "AwQF", "format": "mp3"}},
                {"type": "file", "file": {"file_data": "data:application/pdf;base64,BgcI", "filename": "document.pdf"}},
                {"type": "file", "file": {"file_id": "https://x.test/a.txt", "filename": "document.txt"}},
            ]}])
        );
        let string = vec![WireMessage {
            role: "system".into(),
            content: WireContent::Text("be brief".into()),
        }];
        assert_eq!(
            messages(&string, None),
            json!([{"role": "system", "content": "be brief"}])
        );
    }

    #[test]
    fn audio_formats_and_file_names_follow_the_mime_type() {
        for (mime, format) in [
            ("audio/wav", "wav"),
            ("audio/x-wav", "wav"),
            ("Audio/WAVE; rate=8000", "wav"),
            ("audio/mpeg", "mp3"),
            ("audio/mp3", "mp3"),
            ("audio/ogg", "ogg"),
        ] {
            assert_eq!(audio_format(mime), format, "{mime}");
        }
        assert_eq!(filename("document", "application/pdf"), "document.pdf");
        assert_eq!(filename("document", "text/markdown"), "document.md");
        assert_eq!(filename("video", "video/mp4"), "video.mp4");
        assert_eq!(filename("document", "application/zip"), "document.bin");
    }

    fn kinds(wire: &Value) -> Vec<String> {
        wire[0]["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["type"].as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn distortions_bend_exactly_their_rule() {
        let faithful = messages(&user(every_kind()), None);
        let with = |d| messages(&user(every_kind()), Some(d));
        assert_eq!(kinds(&with(Distortion::DropsMedia)), ["text"]);
        let no_audio = with(Distortion::DropsAudio);
        assert!(!kinds(&no_audio).contains(&"input_audio".to_owned()));
        assert_eq!(kinds(&no_audio).len(), 5);
        let as_image = with(Distortion::DocumentAsImage);
        assert_eq!(
            as_image[0]["content"][4],
            json!({"type": "image_url", "image_url": {"url": "data:application/pdf;base64,BgcI"}})
        );
        assert_eq!(
            as_image[0]["content"][5]["image_url"]["url"],
            "https://x.test/a.txt"
        );
        let wrong = with(Distortion::WrongMime);
        assert_eq!(
            wrong[0]["content"][1]["image_url"]["url"],
            "data:application/octet-stream;base64,AAEC"
        );
        assert_eq!(wrong[0]["content"][3], faithful[0]["content"][3]);
        let cut = with(Distortion::TruncatesBytes);
        assert_eq!(
            cut[0]["content"][1]["image_url"]["url"],
            "data:image/jpeg;base64,AAE="
        );
        assert_eq!(cut[0]["content"][3]["input_audio"]["data"], "AwQ=");
        assert_eq!(cut[0]["content"][2], faithful[0]["content"][2]);
        let reversed = with(Distortion::ReordersParts);
        let mut expected = faithful[0]["content"].as_array().unwrap().clone();
        expected.reverse();
        assert_eq!(reversed[0]["content"], Value::Array(expected));
    }

    #[test]
    fn bytes_are_encoded_and_junk_is_cut_by_a_character() {
        assert_eq!(Body::bytes(b"\x00\x01\x02"), Body::Base64("AAEC".into()));
        assert_eq!(truncated("not base64!"), "not base64");
    }
}
