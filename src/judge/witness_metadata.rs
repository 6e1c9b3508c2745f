//! Metadata the model received that the request never carried, and metadata the
//! request set that the model's wire could not carry: reported as notes on a case whose
//! parts reached the model, whichever door the request came in on and whichever wire
//! the host spoke to its model (Chat, Responses, Anthropic, Gemini).
//!
//! What a host *changed* (a filename, MIME type, `detail` or audio `format` other than
//! the one sent) is judged by `witness_form.rs` (SHOULD). What it *invented* where the
//! request had none is not always a fault: a request through a door without filenames
//! (Messages, openwop, AG-UI) that reaches a Chat or Responses model must be given one
//! there, so the name it got is said, not failed (LiteLLM names such a PDF
//! `my_file.pdf`). Only observed facts count: a filename is "never carried" when no
//! request body the case sent contains it, so a case without recorded requests (a
//! process target) gets no such note.

use super::witness::{Matched, best_match, media_sent};
use crate::request::sent::{SentMedia, SentPart};
use crate::scenario::model::WitnessExpectation;
use crate::wire::{chat, gemini, responses};
use crate::witness::{ModelCall, Part, PartKind};

/// The notes for a case expecting its parts to reach the model (`reached`,
/// `delivered`); nothing for the others. `requests` are the bodies the case sent.
pub fn notes(
    expect: WitnessExpectation,
    sent: &[SentPart],
    calls: &[ModelCall],
    nonce: &str,
    requests: &[&str],
) -> Vec<String> {
    if !matches!(
        expect,
        WitnessExpectation::Reached | WitnessExpectation::Delivered
    ) {
        return Vec::new();
    }
    let media = media_sent(sent);
    let Some(matched) = best_match(&media, calls, nonce) else {
        return Vec::new();
    };
    found_parts(&media, &matched)
        .flat_map(|(m, part)| {
            [
                invented_filename(m, part, requests),
                uncarried_filename(m, part),
                uncarried_detail(m, part),
            ]
        })
        .flatten()
        .collect()
}

fn found_parts<'a>(
    media: &'a [&'a SentMedia],
    matched: &'a Matched<'a>,
) -> impl Iterator<Item = (&'a SentMedia, &'a Part)> {
    media
        .iter()
        .zip(&matched.found)
        .filter_map(|(m, part)| part.map(|p| (*m, p)))
}

/// A filename on a part the case named none for, that no request body carried: the
/// host chose it. (A name the case set and the host changed is `witness.filename`; a
/// name a malformed case left out on purpose is the repair's.)
fn invented_filename(m: &SentMedia, part: &Part, requests: &[&str]) -> Option<String> {
    if m.filename.is_some() || m.omitted.iter().any(|f| f == "filename") || requests.is_empty() {
        return None;
    }
    let name = part.filename.as_deref()?;
    let quoted = serde_json::to_string(name).ok()?;
    if requests.iter().any(|body| body.contains(&quoted)) {
        return None;
    }
    Some(format!(
        "the model received the filename \"{name}\" at {} ({}), which the request never carried: the host named the {} part",
        part.at, part.wire_form, m.kind
    ))
}

/// A filename the case set, on a part whose wire form has no file name (Gemini's
/// `inlineData`/`fileData`): lost on the way, for want of a place.
fn uncarried_filename(m: &SentMedia, part: &Part) -> Option<String> {
    let name = m.filename.as_deref()?;
    let nameless = [gemini::form::INLINE_DATA, gemini::form::FILE_DATA];
    (part.kind == PartKind::Document && nameless.contains(&part.wire_form.as_str())).then(|| {
        format!(
            "the filename \"{name}\" did not reach the model: {} at {} has no file name",
            part.wire_form, part.at
        )
    })
}

/// A `detail` the case set, on an image whose wire form has none (Anthropic, Gemini):
/// lost on the way, for want of a place.
fn uncarried_detail(m: &SentMedia, part: &Part) -> Option<String> {
    let detail = m.detail.as_deref()?;
    let carries = [chat::form::IMAGE, responses::form::IMAGE];
    (!carries.contains(&part.wire_form.as_str())).then(|| {
        format!(
            "the detail \"{detail}\" did not reach the model: {} at {} has no detail",
            part.wire_form, part.at
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::sent::SentSource;
    use crate::witness::{Limits, Wire, decode_call};
    use serde_json::json;

    const NONCE: &str = "0123456789abcdef-c7";

    fn pdf() -> SentPart {
        let bytes = mmconform_media::generate("application/pdf", NONCE);
        SentPart::Media(SentMedia {
            kind: "document".into(),
            mime: "application/pdf".into(),
            source: SentSource::Data {
                bytes: bytes.len() as u64,
                sha256: crate::digest::sha256_hex(&bytes),
                shape: None,
                kept: None,
            },
            detail: None,
            filename: None,
            omitted: Vec::new(),
        })
    }

    fn data_url(mime: &str) -> String {
        let bytes = mmconform_media::generate(mime, NONCE);
        crate::wire::data_url::encode(
            Some(mime),
            &base64::Engine::encode(&base64::engine::general_purpose::STANDARD, bytes),
        )
    }

    fn call(wire: Wire, body: serde_json::Value) -> ModelCall {
        let path = match wire {
            Wire::OpenaiResponses => "/v1/responses",
            Wire::AnthropicMessages => "/v1/messages",
            _ => "/v1/chat/completions",
        };
        decode_call(
            wire,
            path,
            &body.to_string().into_bytes(),
            &Limits::default(),
            1,
        )
    }

    /// LiteLLM's Messages door bridged to Responses: a PDF sent with no name reaches the
    /// model as `my_file.pdf`.
    #[test]
    fn a_filename_no_request_carried_is_named() {
        let sent = [SentPart::Text, pdf()];
        let responses = call(
            Wire::OpenaiResponses,
            json!({"model": "m", "input": [{"role": "user", "content": [
                {"type": "input_text", "text": format!("read this {NONCE}")},
                {"type": "input_file", "file_data": data_url("application/pdf"), "filename": "my_file.pdf"},
            ]}]}),
        );
        let request = r#"{"messages":[{"role":"user","content":[{"type":"document","source":{"type":"base64"}}]}]}"#;
        let notes = notes_of(&sent, &responses, &[request]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("the filename \"my_file.pdf\"")
                && notes[0].contains("which the request never carried"),
            "{notes:?}"
        );
        // The name the request carried (a door's default) is not the host's invention.
        let named = r#"{"file":{"filename":"my_file.pdf"}}"#;
        assert!(notes_of(&sent, &responses, &[named]).is_empty());
        // Nothing recorded, nothing said.
        assert!(notes_of(&sent, &responses, &[]).is_empty());
        // Only a case expecting its parts to arrive.
        let withheld = super::notes(
            WitnessExpectation::Withheld,
            &sent,
            &[responses],
            NONCE,
            &[request],
        );
        assert!(withheld.is_empty());
    }

    fn notes_of(sent: &[SentPart], call: &ModelCall, requests: &[&str]) -> Vec<String> {
        notes(
            WitnessExpectation::Reached,
            sent,
            std::slice::from_ref(call),
            NONCE,
            requests,
        )
    }

    #[test]
    fn a_detail_or_filename_the_wire_cannot_carry_is_said_lost() {
        let bytes = mmconform_media::generate("image/png", NONCE);
        let image = SentPart::Media(SentMedia {
            kind: "image".into(),
            mime: "image/png".into(),
            source: SentSource::Data {
                bytes: bytes.len() as u64,
                sha256: crate::digest::sha256_hex(&bytes),
                shape: None,
                kept: None,
            },
            detail: Some("low".into()),
            filename: None,
            omitted: Vec::new(),
        });
        let b64 = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &bytes);
        let anthropic = call(
            Wire::AnthropicMessages,
            json!({"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": [
                {"type": "text", "text": format!("look {NONCE}")},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64}},
            ]}]}),
        );
        let notes = notes_of(&[SentPart::Text, image.clone()], &anthropic, &["{}"]);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("the detail \"low\" did not reach the model"));
        let chat = call(
            Wire::OpenaiChat,
            json!({"model": "m", "messages": [{"role": "user", "content": [
                {"type": "text", "text": format!("look {NONCE}")},
                {"type": "image_url", "image_url": {"url": data_url("image/png"), "detail": "low"}},
            ]}]}),
        );
        assert!(notes_of(&[SentPart::Text, image], &chat, &["{}"]).is_empty());
    }
}
