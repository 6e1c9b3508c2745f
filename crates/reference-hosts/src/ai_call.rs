//! Validation of an ai/call seam body: `{messages: [{role, content}], provider?, model?}`.
//!
//! A pure function of (config, JSON body) so every rule is testable without a server.
//! Auth and the request-body cap come first and live in the HTTP layer (`routes.rs`);
//! everything about the JSON is here. First problem wins, in document order: every
//! message (whatever its role) and every part is checked.

use serde_json::{Value, json};

use super::error_body::{ErrorCode, Rejection};
use super::modality::advertised_with_text;
use super::part::{self, PartOutcome};
use super::{Fault, ReferenceConfig};

/// What a successful call answers (after `ok: true, accepted: true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedSummary {
    /// The advertised modalities with the implicit `text` made explicit.
    pub advertised: Vec<String>,
    /// Distinct modalities received, in first-seen order (`text` for string content),
    /// so a tester can see that nothing it sent was dropped.
    pub modalities: Vec<String>,
    /// How many parts were received (a string content counts as one text part).
    pub parts: usize,
}

impl AcceptedSummary {
    /// The seam's 200 body: `{ok: true, accepted: true, advertised, modalities, parts}`.
    pub fn to_json(&self) -> Value {
        json!({
            "ok": true,
            "accepted": true,
            "advertised": self.advertised,
            "modalities": self.modalities,
            "parts": self.parts,
        })
    }

    fn new(config: &ReferenceConfig) -> Self {
        AcceptedSummary {
            advertised: advertised_with_text(config),
            modalities: Vec::new(),
            parts: 0,
        }
    }

    fn record(&mut self, modality: Option<String>) {
        self.parts += 1;
        if let Some(modality) = modality
            && !self.modalities.contains(&modality)
        {
            self.modalities.push(modality);
        }
    }

    /// Records a message a fault let through without looking at it.
    fn record_unchecked_message(&mut self, message: &Value) {
        match message.get("content") {
            Some(Value::String(_)) => self.record(Some("text".into())),
            Some(Value::Array(parts)) => {
                for p in parts {
                    self.record(part::unchecked_modality(p));
                }
            }
            _ => {}
        }
    }
}

/// Validates a call body; Ok is the 200 summary, Err the error to answer with.
pub fn validate_call(config: &ReferenceConfig, body: &Value) -> Result<AcceptedSummary, Rejection> {
    let Some(obj) = body.as_object() else {
        return Err(invalid("request body must be a JSON object".into(), None));
    };
    let messages = match obj.get("messages") {
        Some(Value::Array(messages)) => messages,
        Some(_) => {
            return Err(invalid(
                "`messages` must be an array".into(),
                Some("messages"),
            ));
        }
        None => return Err(invalid("`messages` is required".into(), Some("messages"))),
    };
    if messages.is_empty() && !config.faulted(Fault::AcceptsEmptyMessages) {
        return Err(Rejection::new(
            ErrorCode::ValidationError,
            "`messages` must contain at least one message",
        )
        .at("messages"));
    }
    for key in ["provider", "model"] {
        if obj.get(key).is_some_and(|v| !v.is_string() && !v.is_null()) {
            return Err(invalid(format!("`{key}` must be a string"), Some(key)));
        }
    }
    let mut summary = AcceptedSummary::new(config);
    for (index, message) in messages.iter().enumerate() {
        if index > 0 && config.faulted(Fault::ValidatesFirstMessageOnly) {
            summary.record_unchecked_message(message);
            continue;
        }
        validate_message(config, message, &format!("messages[{index}]"), &mut summary)?;
    }
    Ok(summary)
}

fn validate_message(
    config: &ReferenceConfig,
    message: &Value,
    path: &str,
    summary: &mut AcceptedSummary,
) -> Result<(), Rejection> {
    let Some(obj) = message.as_object() else {
        return Err(invalid(format!("{path} must be an object"), Some(path)));
    };
    let role = obj.get("role").and_then(Value::as_str);
    if !matches!(role, Some("user" | "assistant" | "system")) {
        return Err(invalid(
            format!("{path}.role must be one of user, assistant, system"),
            Some(path),
        ));
    }
    if role != Some("user") && config.faulted(Fault::ValidatesUserMessagesOnly) {
        summary.record_unchecked_message(message);
        return Ok(());
    }
    match obj.get("content") {
        Some(Value::String(_)) => {
            if config.faulted(Fault::RefusesStringContent) {
                return Err(invalid(
                    format!("{path}.content must be an array of content parts"),
                    Some(path),
                ));
            }
            summary.record(Some("text".into()));
            Ok(())
        }
        // No part at all: malformed on every model wire it would reach.
        Some(Value::Array(parts)) if parts.is_empty() => Err(invalid(
            format!("{path}.content is an empty list"),
            Some(path),
        )),
        Some(Value::Array(parts)) => validate_parts(config, parts, path, summary),
        _ if config.faulted(Fault::AcceptsNumericContent) => Ok(()),
        _ => Err(invalid(
            format!("{path}.content must be a string or an array of content parts"),
            Some(path),
        )),
    }
}

fn validate_parts(
    config: &ReferenceConfig,
    parts: &[Value],
    path: &str,
    summary: &mut AcceptedSummary,
) -> Result<(), Rejection> {
    let mut media_checked = false;
    for (index, part) in parts.iter().enumerate() {
        if media_checked && config.faulted(Fault::ValidatesFirstPartOnly) && !part::is_text(part) {
            summary.record(part::unchecked_modality(part));
            continue;
        }
        match part::validate(config, part, &format!("{path}.content[{index}]"))? {
            PartOutcome::Accepted(modality) => {
                media_checked |= modality != "text";
                summary.record(Some(modality));
            }
            PartOutcome::Dropped => {}
        }
    }
    Ok(())
}

fn invalid(message: String, path: Option<&str>) -> Rejection {
    let rejection = Rejection::new(ErrorCode::InvalidRequest, message);
    match path {
        Some(path) => rejection.at(path),
        None => rejection,
    }
}
