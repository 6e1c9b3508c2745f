//! What the agent does with a message that read well: each file part's media type is
//! checked against what the card lists (the bytes must be what the part says they
//! are; a type the card does not list is `ContentTypeNotSupportedError`, §3.3.2,
//! §13.4), and what passes goes to the model: with an upstream configured, one Chat
//! Completions call carrying the text and the media (`crate::upstream`), its reply the
//! answer; without one, a reply saying what the model was given.

use super::error::{A2aError, ErrorKind};
use super::parts::{Content, FilePart, Message, Part};
use super::{A2aFault, AgentConfig};
use crate::agui::kind_of_mime;
use crate::openai_wire::{Body, Distortion, Media, WireContent, WireMessage, WirePart};
use crate::upstream::Upstream;

/// How the model's turn ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// The reply text.
    Completed(String),
    /// The model could not be reached or failed: the task fails with this message.
    Failed(String),
}

/// The parts as they go to the model, or the error that refuses the message.
pub fn check(config: &AgentConfig, message: &Message) -> Result<Vec<WirePart>, A2aError> {
    let mut wire = Vec::new();
    for (i, part) in message.parts.iter().enumerate() {
        match part {
            Part::Text(text) => wire.push(WirePart::Text(text.clone())),
            Part::Data(data) => wire.push(WirePart::Text(data.to_string())),
            Part::File(file) => {
                if let Some(media) = media(config, file).map_err(|e| {
                    A2aError::new(e.kind, format!("message.parts[{i}]: {}", e.message))
                })? {
                    wire.push(WirePart::Media(media));
                }
            }
        }
    }
    Ok(wire)
}

/// One file part as the model gets it; `Ok(None)`: dropped (`drops-unadvertised`).
fn media(config: &AgentConfig, file: &FilePart) -> Result<Option<Media>, A2aError> {
    let bytes = match &file.content {
        Content::Inline { bytes, .. } => bytes.as_deref(),
        Content::Url(_) if config.faulted(A2aFault::RefusesUrlParts) => {
            return Err(A2aError::invalid("this agent takes inline bytes only"));
        }
        Content::Url(_) => None,
    };
    let sniffed = bytes.and_then(mmconform_media::sniff_mime);
    let mime = match (&file.mime, sniffed) {
        (Some(stated), _) => stated.clone(),
        (None, Some(sniffed)) => sniffed.to_string(),
        (None, None) => "application/octet-stream".to_string(),
    };
    if let Some(actual) = sniffed
        && mmconform_media::canonical_mime(actual) != mmconform_media::canonical_mime(&mime)
        && !config.faulted(A2aFault::AcceptsMismatchedMediaType)
    {
        return Err(A2aError::invalid(format!(
            "the part says {mime} but its bytes are {actual}"
        )));
    }
    let listed = config.accepts.accepts_mime(&mime) && !config.faulted(A2aFault::RefusesAdvertised);
    if !listed {
        let refusal = format!(
            "{mime} is not among the media types this agent accepts ({})",
            config.accepts.prefixes().join(", ")
        );
        match config.fault {
            Some(A2aFault::AcceptsUnadvertised) => {}
            Some(A2aFault::DropsUnadvertised) => return Ok(None),
            Some(A2aFault::RefusesWithInvalidParams) => return Err(A2aError::invalid(refusal)),
            _ => return Err(A2aError::new(ErrorKind::ContentTypeNotSupported, refusal)),
        }
    }
    let body = match &file.content {
        Content::Inline { base64, .. } => Body::Base64(base64.clone()),
        Content::Url(url) => Body::Url(url.clone()),
    };
    Ok(Some(Media {
        kind: kind_of_mime(&mime).to_string(),
        mime,
        body,
    }))
}

/// The model's turn on `parts`.
pub async fn turn(config: &AgentConfig, upstream: Option<&Upstream>, parts: Vec<WirePart>) -> Turn {
    let Some(upstream) = upstream else {
        return Turn::Completed(format!("The model was given: {}.", describe(&parts)));
    };
    if config.faulted(A2aFault::ForwardSkipsModel) {
        return Turn::Completed("Done.".into());
    }
    let distortion = config
        .faulted(A2aFault::ForwardTextOnly)
        .then_some(Distortion::DropsMedia);
    let message = WireMessage {
        role: "user".into(),
        content: WireContent::Parts(parts),
    };
    match upstream.complete(&[message], distortion).await {
        Ok(reply) => Turn::Completed(reply.text),
        Err(unavailable) => Turn::Failed(unavailable.0),
    }
}

/// `text, image/png` for the reply of an agent without a model.
fn describe(parts: &[WirePart]) -> String {
    if parts.is_empty() {
        return "nothing".into();
    }
    parts
        .iter()
        .map(|p| match p {
            WirePart::Text(_) => "text".to_string(),
            WirePart::Media(m) => m.mime.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn inline(mime: &str, bytes: &[u8]) -> Message {
        let base64 = base64::engine::general_purpose::STANDARD.encode(bytes);
        Message {
            message_id: "m".into(),
            context_id: None,
            parts: vec![Part::File(FilePart {
                mime: Some(mime.into()),
                filename: None,
                content: Content::Inline {
                    base64,
                    bytes: Some(bytes.to_vec()),
                },
            })],
        }
    }

    fn with(fault: Option<A2aFault>) -> AgentConfig {
        AgentConfig {
            fault,
            ..AgentConfig::default()
        }
    }

    #[test]
    fn listed_types_pass_and_others_are_refused_as_the_faults_say() {
        let png = mmconform_media::generate("image/png", "n");
        let mp3 = mmconform_media::generate("audio/mpeg", "n");
        assert_eq!(
            check(&with(None), &inline("image/png", &png))
                .unwrap()
                .len(),
            1
        );
        let code = |fault| {
            check(&with(fault), &inline("audio/mpeg", &mp3))
                .map(|w| w.len())
                .map_err(|e| e.kind)
        };
        assert_eq!(code(None), Err(ErrorKind::ContentTypeNotSupported));
        assert_eq!(
            code(Some(A2aFault::RefusesWithInvalidParams)),
            Err(ErrorKind::InvalidParams)
        );
        // The 415 fault changes how HTTP+JSON renders the refusal (rest.rs), not the
        // refusal itself.
        assert_eq!(
            code(Some(A2aFault::Http415WithoutErrorInfo)),
            Err(ErrorKind::ContentTypeNotSupported)
        );
        assert_eq!(code(Some(A2aFault::AcceptsUnadvertised)), Ok(1));
        assert_eq!(code(Some(A2aFault::DropsUnadvertised)), Ok(0));
    }

    #[test]
    fn bytes_that_contradict_their_type_are_invalid() {
        let wav = mmconform_media::generate("audio/wav", "n");
        let said_png = inline("image/png", &wav);
        assert_eq!(
            check(&with(None), &said_png).unwrap_err().kind,
            ErrorKind::InvalidParams
        );
        assert!(check(&with(Some(A2aFault::AcceptsMismatchedMediaType)), &said_png).is_ok());
    }
}
