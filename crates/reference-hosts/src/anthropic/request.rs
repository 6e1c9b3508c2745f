//! Checking a Messages request from the top: `model`, `max_tokens`, `messages`, each
//! message's content and each block. The first problem found is the refusal (400
//! `invalid_request_error`, as the API answers), except a block of an unknown type
//! under [`AnthropicFault::CrashOnUnknownBlock`] (500).

use axum::http::StatusCode;
use serde_json::{Map, Value};

use super::error::ApiError;
use super::models::{IMAGE_MIMES, Model};
use super::{AnthropicConfig, AnthropicFault};
use crate::openai::data_url::{self, InlineError};

/// An accepted request: the model, whether to stream, what each block was, and the
/// body to forward (blocks a fault drops already left out).
#[derive(Debug, Clone)]
pub struct Accepted {
    pub model: Model,
    pub stream: bool,
    /// `text`, `image/png 1234 B`, `document text/plain 12 B`, `image url`.
    pub seen: Vec<String>,
    pub forward: Value,
}

/// The request, checked; Err: the refusal.
pub fn validate(config: &AnthropicConfig, body: &Value) -> Result<Accepted, ApiError> {
    let object = body
        .as_object()
        .ok_or_else(|| ApiError::invalid("the request body must be a JSON object"))?;
    let model_id = object
        .get("model")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::invalid("model: Field required"))?;
    let model = config.served(model_id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found_error",
            format!("model: {model_id}"),
        )
    })?;
    match object.get("max_tokens").and_then(Value::as_u64) {
        Some(n) if n >= 1 => {}
        _ => {
            return Err(ApiError::invalid(
                "max_tokens: a positive integer is required",
            ));
        }
    }
    let stream = match object.get("stream") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::invalid("stream: Input should be a valid boolean")),
    };
    check_system(object.get("system"))?;
    let messages = object
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::invalid("messages: Field required"))?;
    if messages.is_empty() {
        return Err(ApiError::invalid(
            "messages: at least one message is required",
        ));
    }
    let mut seen = Vec::new();
    let mut forwarded = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        forwarded.push(check_message(config, model, message, i, &mut seen)?);
    }
    let mut forward = body.clone();
    forward["messages"] = Value::Array(forwarded);
    Ok(Accepted {
        model,
        stream,
        seen,
        forward,
    })
}

/// The top-level `system`: absent, a string, or text blocks (no media: Anthropic API
/// reference, Messages `system`).
fn check_system(system: Option<&Value>) -> Result<(), ApiError> {
    let blocks = match system {
        None | Some(Value::String(_)) => return Ok(()),
        Some(Value::Array(blocks)) => blocks,
        Some(_) => {
            return Err(ApiError::invalid(
                "system: Input should be a valid string or a list of text blocks",
            ));
        }
    };
    for (j, block) in blocks.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("text")
                if block
                    .get("text")
                    .and_then(Value::as_str)
                    .is_some_and(|t| !t.is_empty()) => {}
            Some("text") => {
                return Err(ApiError::invalid(format!(
                    "system.{j}: text content blocks must be non-empty"
                )));
            }
            _ => {
                return Err(ApiError::invalid(format!(
                    "system.{j}.type: Input should be 'text'"
                )));
            }
        }
    }
    Ok(())
}

/// One message: its role and content; returns it as forwarded.
fn check_message(
    config: &AnthropicConfig,
    model: Model,
    message: &Value,
    i: usize,
    seen: &mut Vec<String>,
) -> Result<Value, ApiError> {
    let at = format!("messages.{i}");
    let role = message.get("role").and_then(Value::as_str);
    if !matches!(role, Some("user" | "assistant")) {
        return Err(ApiError::invalid(format!(
            "{at}.role: Input should be 'user' or 'assistant'"
        )));
    }
    match message.get("content") {
        Some(Value::String(s)) if !s.is_empty() => {
            seen.push("text".into());
            Ok(message.clone())
        }
        Some(Value::String(_)) => Err(ApiError::invalid(format!(
            "{at}: text content blocks must be non-empty"
        ))),
        Some(Value::Array(blocks)) => {
            if blocks.is_empty() && !config.faulted(AnthropicFault::AcceptsEmptyContent) {
                return Err(ApiError::invalid(format!(
                    "{at}: all messages must have non-empty content"
                )));
            }
            let mut kept = Vec::new();
            for (j, block) in blocks.iter().enumerate() {
                let at = format!("{at}.content.{j}");
                if let Some(what) = check_block(config, model, block, &at)? {
                    seen.push(what);
                    kept.push(block.clone());
                }
            }
            let mut out = message.clone();
            out["content"] = Value::Array(kept);
            Ok(out)
        }
        _ => Err(ApiError::invalid(format!("{at}.content: Field required"))),
    }
}

/// One block: `Some(what it was)` when accepted, `None` when a fault leaves it out.
fn check_block(
    config: &AnthropicConfig,
    model: Model,
    block: &Value,
    at: &str,
) -> Result<Option<String>, ApiError> {
    let empty = Map::new();
    let object = block.as_object().unwrap_or(&empty);
    match object.get("type").and_then(Value::as_str) {
        Some("text") => match object.get("text").and_then(Value::as_str) {
            Some(t) if !t.is_empty() => Ok(Some("text".into())),
            _ => Err(ApiError::invalid(format!(
                "{at}: text content blocks must be non-empty"
            ))),
        },
        Some("image") => {
            if !model.image && !config.faulted(AnthropicFault::IgnoresImageOnTextModel) {
                return Err(ApiError::invalid(format!(
                    "{at}: the model {} does not support image input",
                    model.id
                )));
            }
            let what = source(config, object, at, Kind::Image)?;
            Ok((model.image).then_some(what))
        }
        Some("document") => {
            if !model.document && !config.faulted(AnthropicFault::IgnoresDocumentOnTextModel) {
                return Err(ApiError::invalid(format!(
                    "{at}: the model {} does not support document input",
                    model.id
                )));
            }
            let what = source(config, object, at, Kind::Document)?;
            let kept = model.document && !config.faulted(AnthropicFault::DropsDocuments);
            Ok(kept.then_some(what))
        }
        other => {
            let shown = other.unwrap_or("(none)");
            if config.faulted(AnthropicFault::AcceptsUnknownBlock) {
                return Ok(None);
            }
            if config.faulted(AnthropicFault::CrashOnUnknownBlock) {
                return Err(ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "api_error",
                    "Internal server error",
                ));
            }
            Err(ApiError::invalid(format!(
                "{at}.type: unknown content block type '{shown}'"
            )))
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Image,
    Document,
}

/// A block's `source`: base64, url, or (documents) text.
fn source(
    config: &AnthropicConfig,
    block: &Map<String, Value>,
    at: &str,
    kind: Kind,
) -> Result<String, ApiError> {
    let at = format!("{at}.source");
    let source = block
        .get("source")
        .and_then(Value::as_object)
        .ok_or_else(|| ApiError::invalid(format!("{at}: Field required")))?;
    let field = |name: &str| source.get(name).and_then(Value::as_str);
    let noun = if kind == Kind::Image {
        "image"
    } else {
        "document"
    };
    match field("type") {
        Some("base64") => {
            let media_type = field("media_type")
                .ok_or_else(|| ApiError::invalid(format!("{at}.media_type: Field required")))?;
            allowed_type(config, media_type, kind, &at)?;
            let data = field("data")
                .ok_or_else(|| ApiError::invalid(format!("{at}.data: Field required")))?;
            let lax = config.faulted(AnthropicFault::LaxBase64);
            let bytes = match data_url::decode_with(data, lax) {
                Ok(bytes) => bytes,
                Err(_) if config.faulted(AnthropicFault::AcceptsInvalidBase64) => {
                    return Ok(format!("{noun} {media_type} undecoded"));
                }
                Err(e) => return Err(ApiError::invalid(e.describe(&format!("{at}.data")))),
            };
            match data_url::check_bytes(media_type, &bytes) {
                Ok(()) => {}
                Err(_) if config.faulted(AnthropicFault::AcceptsMismatchedMediaType) => {}
                Err(InlineError::Mismatch { declared, sniffed }) => {
                    return Err(ApiError::invalid(format!(
                        "{at}: the {noun} was specified using the {declared} media type, but the data is {}",
                        sniffed.unwrap_or("something else")
                    )));
                }
                Err(e) => return Err(ApiError::invalid(e.describe(&at))),
            }
            Ok(format!("{noun} {media_type} {} B", bytes.len()))
        }
        Some("url") => {
            if config.faulted(AnthropicFault::RefusesUrlSource) {
                return Err(ApiError::invalid(format!(
                    "{at}.type: url sources are not supported"
                )));
            }
            let url = field("url")
                .ok_or_else(|| ApiError::invalid(format!("{at}.url: Field required")))?;
            match url::Url::parse(url) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(format!("{noun} url")),
                Ok(_) if config.faulted(AnthropicFault::AcceptsNonHttpUrl) => {
                    Ok(format!("{noun} url"))
                }
                _ => Err(ApiError::invalid(format!(
                    "{at}.url: an http(s) URL is required"
                ))),
            }
        }
        Some("text") if kind == Kind::Document => {
            if config.faulted(AnthropicFault::RefusesTextDocument) {
                return Err(ApiError::invalid(format!(
                    "{at}.type: text sources are not supported"
                )));
            }
            if field("media_type") != Some("text/plain") {
                return Err(ApiError::invalid(format!(
                    "{at}.media_type: Input should be 'text/plain'"
                )));
            }
            let data = field("data")
                .ok_or_else(|| ApiError::invalid(format!("{at}.data: Field required")))?;
            Ok(format!("document text/plain {} B", data.len()))
        }
        other => Err(ApiError::invalid(format!(
            "{at}.type: unknown source type '{}' for {noun}",
            other.unwrap_or("(none)")
        ))),
    }
}

/// Images: png, jpeg, gif, webp; base64 documents: application/pdf.
fn allowed_type(
    config: &AnthropicConfig,
    media_type: &str,
    kind: Kind,
    at: &str,
) -> Result<(), ApiError> {
    let allowed: &[&str] = match kind {
        Kind::Image if config.faulted(AnthropicFault::AcceptsPngOnly) => &["image/png"],
        Kind::Image if config.faulted(AnthropicFault::AcceptsMediaTypeOutsideSet) => {
            return Ok(());
        }
        Kind::Image => &IMAGE_MIMES,
        Kind::Document => &["application/pdf"],
    };
    if allowed.contains(&media_type) {
        Ok(())
    } else {
        Err(ApiError::invalid(format!(
            "{at}.media_type: Input should be {}",
            allowed
                .iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}
