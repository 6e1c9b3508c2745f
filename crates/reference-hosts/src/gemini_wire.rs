//! Content on its way to a Gemini model (the Gemini API reference, `Content`, `Part`,
//! `Blob`, `FileData`): the same [`WireMessage`]s the OpenAI shapes are made from
//! (`openai_wire.rs`), as `contents[]` of `{role, parts[]}`, bent by the same
//! [`Distortion`]s, for a host that translates its own wire into Gemini's (as the AG-UI
//! reference agent does with `--upstream-wire gemini`).
//!
//! The tool's witness reads this wire with its own decoder; this crate never uses the
//! tool's code, so the encoding is written here, small and on its own.

use crate::openai_wire::{
    Body, Distortion, WRONG_MIME, WireContent, WireMessage, WirePart, truncated,
};
use serde_json::{Value, json};

/// The MIME type `forward-document-as-image` labels a document with on this wire
/// (Gemini has one part shape for every medium: the type is all that can go wrong).
pub const DOCUMENT_AS_IMAGE_MIME: &str = "image/png";

/// A `generateContent` request body for `messages`, with `distortion` applied.
pub fn request(messages: &[WireMessage], distortion: Option<Distortion>) -> Value {
    let contents: Vec<Value> = messages
        .iter()
        .map(|m| {
            // Gemini's roles are `user` and `model`.
            let role = if m.role == "assistant" {
                "model"
            } else {
                "user"
            };
            json!({"role": role, "parts": parts(&m.content, distortion)})
        })
        .collect();
    json!({"contents": contents})
}

fn parts(content: &WireContent, distortion: Option<Distortion>) -> Value {
    let parts = match content {
        WireContent::Text(text) => return json!([{"text": text}]),
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

/// One part: text; inline bytes as `inlineData {mimeType, data}`; a URL the host did
/// not fetch as `fileData {mimeType, fileUri}`.
fn part(part: &WirePart, distortion: Option<Distortion>) -> Value {
    let media = match part {
        WirePart::Text(text) => return json!({"text": text}),
        WirePart::Media(media) => media,
    };
    let mime = match distortion {
        Some(Distortion::WrongMime) => WRONG_MIME,
        Some(Distortion::DocumentAsImage) if media.kind == "document" => DOCUMENT_AS_IMAGE_MIME,
        _ => media.mime.as_str(),
    };
    match &media.body {
        Body::Base64(b64) => {
            let data = match distortion {
                Some(Distortion::TruncatesBytes) => truncated(b64),
                _ => b64.clone(),
            };
            json!({"inlineData": {"mimeType": mime, "data": data}})
        }
        Body::Url(url) => json!({"fileData": {"mimeType": mime, "fileUri": url}}),
    }
}

/// The text of a `GenerateContentResponse`: the first candidate's text parts, joined.
pub fn reply_text(answer: &Value) -> String {
    answer["candidates"][0]["content"]["parts"]
        .as_array()
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .concat()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openai_wire::Media;

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
            media("image", "image/png", Body::Base64("AAEC".into())),
            media("audio", "audio/wav", Body::Base64("AwQF".into())),
            media(
                "document",
                "application/pdf",
                Body::Url("https://x.test/a.pdf".into()),
            ),
        ]
    }

    #[test]
    fn each_part_has_its_gemini_shape_and_each_distortion_its_effect() {
        assert_eq!(
            request(&user(every_kind()), None),
            json!({"contents": [{"role": "user", "parts": [
                {"text": "look"},
                {"inlineData": {"mimeType": "image/png", "data": "AAEC"}},
                {"inlineData": {"mimeType": "audio/wav", "data": "AwQF"}},
                {"fileData": {"mimeType": "application/pdf", "fileUri": "https://x.test/a.pdf"}},
            ]}]})
        );
        let parts = |d| request(&user(every_kind()), Some(d))["contents"][0]["parts"].clone();
        assert_eq!(parts(Distortion::DropsMedia), json!([{"text": "look"}]));
        assert_eq!(parts(Distortion::DropsAudio).as_array().unwrap().len(), 3);
        assert_eq!(
            parts(Distortion::ReordersParts)[0]["fileData"]["mimeType"],
            "application/pdf"
        );
        assert_eq!(
            parts(Distortion::WrongMime)[1]["inlineData"]["mimeType"],
            WRONG_MIME
        );
        assert_eq!(
            parts(Distortion::DocumentAsImage)[3]["fileData"]["mimeType"],
            "image/png"
        );
        assert_eq!(
            parts(Distortion::TruncatesBytes)[1]["inlineData"]["data"],
            "AAE="
        );
        let text = WireMessage {
            role: "user".into(),
            content: WireContent::Text("hi".into()),
        };
        assert_eq!(
            request(&[text], None)["contents"][0]["parts"],
            json!([{"text": "hi"}])
        );
    }

    #[test]
    fn the_reply_text_is_the_first_candidates_text() {
        let answer =
            json!({"candidates": [{"content": {"parts": [{"text": "a"}, {"text": "b"}]}}]});
        assert_eq!(reply_text(&answer), "ab");
        assert_eq!(reply_text(&json!({})), "");
    }
}
