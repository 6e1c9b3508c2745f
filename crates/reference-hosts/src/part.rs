//! Validation of one content part (RFC 0091 §A `ContentPart`).
//!
//! Order, first problem wins: shape of the part and its `type`; whether the type is
//! advertised (`modality.rs`); for media, `mimeType` presence, exactly one source,
//! MIME fit, then the source itself (base64, size, mediaRef, SSRF guard).

use serde_json::{Map, Value};

use super::error_body::{ErrorCode, Rejection};
use super::modality::{self, PartKind};
use super::{Fault, ReferenceConfig, mime, source};

/// The verdict on a part that was not refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartOutcome {
    /// Accepted; the canonical modality to report (`text`, `image`, ...).
    Accepted(String),
    /// Discarded without a word (only under `silently-drops-unadvertised`).
    Dropped,
}

/// Validates the part at `path` (e.g. `messages[0].content[1]`).
pub fn validate(
    config: &ReferenceConfig,
    part: &Value,
    path: &str,
) -> Result<PartOutcome, Rejection> {
    let Some(obj) = part.as_object() else {
        return Err(invalid(format!("{path} must be an object"), path));
    };
    let Some(part_type) = obj.get("type").and_then(Value::as_str) else {
        return Err(invalid(format!("{path}.type must be a string"), path));
    };
    match modality::classify(config, part_type).map_err(|r| r.at(path))? {
        PartKind::Text => match obj.get("text") {
            // Nothing to say: an empty text is malformed on every model wire it would
            // reach (llm-provider 0015 §3.1.1), so it is refused here.
            Some(Value::String(text))
                if text.is_empty() && !config.faulted(Fault::AcceptsEmptyText) =>
            {
                Err(invalid(format!("{path}.text is empty"), path))
            }
            Some(Value::String(_)) => Ok(PartOutcome::Accepted("text".into())),
            _ => Err(invalid(format!("{path}.text must be a string"), path)),
        },
        PartKind::Drop => Ok(PartOutcome::Dropped),
        PartKind::Media(modality) => {
            validate_media(config, &modality, obj, path)?;
            Ok(PartOutcome::Accepted(modality))
        }
    }
}

fn validate_media(
    config: &ReferenceConfig,
    modality: &str,
    obj: &Map<String, Value>,
    path: &str,
) -> Result<(), Rejection> {
    let mime = match obj.get("mimeType") {
        Some(Value::String(mime)) => Some(mime.as_str()),
        None if config.faulted(Fault::AcceptsMissingMimeType) => None,
        None => {
            return Err(invalid(
                format!("{path}.mimeType is required on a {modality} part"),
                path,
            ));
        }
        Some(_) => return Err(invalid(format!("{path}.mimeType must be a string"), path)),
    };
    let sources = source::collect(config, obj, path)?;
    if let Some(mime) = mime {
        mime::check_fit(config, modality, mime, path)?;
    }
    if sources.len() > 1 && config.faulted(Fault::AcceptsTwoSources) {
        // The realistic bug: the host uses whichever source works and ignores the rest,
        // so a part is accepted as soon as one of its sources passes.
        let mut first_problem = None;
        for found in sources {
            match source::check(config, modality, found, path) {
                Ok(()) => return Ok(()),
                Err(problem) => {
                    first_problem.get_or_insert(problem);
                }
            }
        }
        return first_problem.map_or(Ok(()), Err);
    }
    for found in &sources {
        source::check(config, modality, *found, path)?;
    }
    match (mime, sources.first()) {
        (Some(mime), Some(&(key @ ("data" | "dataBase64"), value))) => {
            source::check_declared(config, mime, key, value, path)
        }
        _ => Ok(()),
    }
}

fn invalid(message: String, path: &str) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message).at(path)
}

/// The modality an unchecked part would be reported as (used by the faults that skip
/// validation, so their summaries still list what they let through).
pub fn unchecked_modality(part: &Value) -> Option<String> {
    part.get("type")
        .and_then(Value::as_str)
        .map(|t| modality::canonical(t).to_owned())
}

/// True for a part whose `type` is `text` (the faults that skip "non-text" parts).
pub fn is_text(part: &Value) -> bool {
    part.get("type").and_then(Value::as_str) == Some("text")
}
