//! The forwarding mode of the reference agent (docs/wire.md, "Forwarding to a model"):
//! with an upstream configured, what of each user message reached the model (`model.rs`)
//! goes on to `{upstream}/chat/completions`, one OpenAI user message per AG-UI user
//! message (or, with [`AgentConfig::upstream_wire`] set, as Gemini `contents` to
//! `{upstream}/v1beta/models/{model}:generateContent`), and the run streams the
//! model's reply.
//!
//! A run the model ends with `RUN_ERROR` is never forwarded (only `forward-then-errors`
//! does it). A model that cannot be reached or fails ends the run with `RUN_ERROR`
//! code `upstream_unavailable`. The eight forwarding faults act only here.

use super::input::{Part, Source};
use super::model::{self, Verdict};
use super::{AgentConfig, AguiFault, known_file_id};
use crate::openai_wire::{Body, Distortion, Media, WireContent, WireMessage, WirePart};
use crate::upstream::Upstream;

/// The run's verdict once the model has been called, and the model's reply text.
pub async fn run(
    config: &AgentConfig,
    upstream: &Upstream,
    messages: &[Vec<Part>],
) -> (Verdict, Option<String>) {
    let mut seen = Vec::new();
    for parts in messages {
        match model::see(config, parts) {
            Ok(message) => seen.push((parts, message)),
            Err(verdict) => {
                let undeclared = matches!(verdict, Verdict::RunError { code, .. } if code == "unsupported_part_kind");
                if undeclared && config.fault == Some(AguiFault::ForwardThenErrors) {
                    // The defect: the model saw the part before the agent refused it.
                    let _ = upstream.complete(&unchecked(messages), None).await;
                }
                return (verdict, None);
            }
        }
    }
    let echo = seen
        .iter()
        .flat_map(|(_, message)| message.iter().map(|s| s.echo.clone()))
        .collect();
    let verdict = Verdict::Completed(echo);
    if config.fault == Some(AguiFault::ForwardSkipsModel) {
        return (verdict, None);
    }
    let wire: Vec<WireMessage> = seen
        .into_iter()
        .map(|(parts, message)| user(parts, message.into_iter().map(|s| s.wire).collect()))
        .collect();
    match upstream.complete(&wire, distortion(config.fault)).await {
        Ok(reply) => (verdict, Some(reply.text)),
        Err(unavailable) => (
            Verdict::RunError {
                code: "upstream_unavailable",
                message: unavailable.0,
            },
            None,
        ),
    }
}

/// A user message: string content (one text part read from a string) stays a string.
fn user(parts: &[Part], wire: Vec<WirePart>) -> WireMessage {
    let content = match (parts, wire.as_slice()) {
        (
            [
                Part::Text {
                    string_content: true,
                    ..
                },
            ],
            [WirePart::Text(text)],
        ) => WireContent::Text(text.clone()),
        _ => WireContent::Parts(wire),
    };
    WireMessage {
        role: "user".into(),
        content,
    }
}

/// What each mapping fault does to the forwarded request.
fn distortion(fault: Option<AguiFault>) -> Option<Distortion> {
    Some(match fault? {
        AguiFault::ForwardDropsMedia => Distortion::DropsMedia,
        AguiFault::ForwardDropsAudio => Distortion::DropsAudio,
        AguiFault::ForwardDocumentAsImage => Distortion::DocumentAsImage,
        AguiFault::ForwardWrongMime => Distortion::WrongMime,
        AguiFault::ForwardTruncatesBytes => Distortion::TruncatesBytes,
        AguiFault::ForwardReordersParts => Distortion::ReordersParts,
        _ => return None,
    })
}

/// Every part as it came, unchecked (`forward-then-errors`); a file the agent does not
/// hold is left out, having no bytes.
fn unchecked(messages: &[Vec<Part>]) -> Vec<WireMessage> {
    messages
        .iter()
        .map(|parts| {
            let wire = parts.iter().filter_map(unchecked_part).collect();
            user(parts, wire)
        })
        .collect()
}

fn unchecked_part(part: &Part) -> Option<WirePart> {
    let (kind, source) = match part {
        Part::Text { text, .. } => return Some(WirePart::Text(text.clone())),
        Part::Media { kind, source } => (kind, source),
    };
    let default = || mmconform_media::default_mime(kind).to_owned();
    let (mime, body) = match source {
        Source::Data { value, mime } => (mime.clone(), Body::Base64(value.clone())),
        Source::Url { value, mime } => (
            mime.clone().unwrap_or_else(default),
            Body::Url(value.clone()),
        ),
        Source::File { value, .. } => {
            if known_file_id(kind).as_deref() != Some(value.as_str()) {
                return None;
            }
            (default(), Body::bytes(&model::held_file(kind)))
        }
    };
    Some(WirePart::Media(Media {
        kind: kind.clone(),
        mime,
        body,
    }))
}
