//! A Chat Completions request body, checked from the top: `model` (one the server
//! serves, else 404 `model_not_found`), `messages` (a non-empty list; each message's
//! role and content), `stream` and `stream_options`. Parts go to `part.rs`.
//!
//! The first problem wins, in body order. The faults that make the server take what
//! it should refuse act here, part by part, so the rest of the request is still checked.

use axum::http::StatusCode;
use serde_json::{Map, Value};

use super::api_error::{ApiError, INVALID_REQUEST};
use super::models::Model;
use super::part::{text_only_part, user_part};
use super::refusal::{Cause, Refused, invalid_value, missing, wrong_type};
use super::seen::Seen;
use super::{OpenaiConfig, OpenaiFault};

/// The roles a message may have.
pub const ROLES: [&str; 5] = ["system", "developer", "user", "assistant", "tool"];

/// An accepted request: the model, how to answer, and what each message carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRequest {
    pub model: Model,
    pub stream: bool,
    pub include_usage: bool,
    pub messages: Vec<SeenMessage>,
    /// The door it came in by, which is the form its answer takes.
    pub door: Door,
}

/// The front door a request came in by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Door {
    /// `POST /v1/chat/completions`.
    #[default]
    Chat,
    /// `POST /v1/responses` (`responses/`).
    Responses,
}

/// One message as the model saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenMessage {
    pub role: String,
    pub parts: Vec<Seen>,
}

/// Checks `body` for `config`'s server.
pub fn validate(config: &OpenaiConfig, body: &Value) -> Result<ChatRequest, Refused> {
    let Some(object) = body.as_object() else {
        return Err(wrong_type("body", "an object", body));
    };
    let model = model(config, object)?;
    let messages = match object.get("messages") {
        Some(Value::Array(list)) if list.is_empty() => return Err(empty("messages")),
        Some(Value::Array(list)) => list,
        Some(other) => return Err(wrong_type("messages", "an array", other)),
        None => return Err(missing("messages")),
    };
    let messages = messages
        .iter()
        .enumerate()
        .map(|(i, m)| message(config, &model, m, i))
        .collect::<Result<Vec<_>, _>>()?;
    let (stream, include_usage) = streaming(object)?;
    Ok(ChatRequest {
        model,
        stream,
        include_usage,
        messages,
        door: Door::Chat,
    })
}

fn model(config: &OpenaiConfig, object: &Map<String, Value>) -> Result<Model, Refused> {
    let id = match object.get("model") {
        Some(Value::String(id)) => id,
        Some(other) => return Err(wrong_type("model", "a string", other)),
        None => return Err(missing("model")),
    };
    config.served(id).ok_or_else(|| {
        let mut error = ApiError::plain(
            StatusCode::NOT_FOUND,
            INVALID_REQUEST,
            Some("model_not_found"),
            format!("The model `{id}` does not exist or you do not have access to it."),
        );
        error.param = Some("model".into());
        Refused::new(error, Cause::Other)
    })
}

/// An empty list at `path`.
fn empty(path: &str) -> Refused {
    Refused::shape(
        path,
        "empty_array",
        format!(
            "Invalid '{path}': empty array. Expected an array with minimum length 1, but got an empty array instead."
        ),
    )
}

fn message(
    config: &OpenaiConfig,
    model: &Model,
    message: &Value,
    i: usize,
) -> Result<SeenMessage, Refused> {
    let path = format!("messages[{i}]");
    let object = message
        .as_object()
        .ok_or_else(|| wrong_type(&path, "an object", message))?;
    let role = match object.get("role") {
        Some(Value::String(role)) if ROLES.contains(&role.as_str()) => role.as_str(),
        Some(Value::String(role)) => {
            return Err(invalid_value(
                &format!("{path}.role"),
                format!(
                    "Invalid value: '{role}'. Supported values are: 'system', 'developer', 'user', 'assistant', and 'tool'."
                ),
            ));
        }
        Some(other) => return Err(wrong_type(&format!("{path}.role"), "a string", other)),
        None => return Err(missing(&format!("{path}.role"))),
    };
    if role == "tool" && !object.get("tool_call_id").is_some_and(Value::is_string) {
        return Err(missing(&format!("{path}.tool_call_id")));
    }
    let at = format!("{path}.content");
    let parts = match object.get("content") {
        Some(Value::String(text)) if text.is_empty() && role == "user" => {
            return Err(invalid_value(
                &at,
                format!("Invalid '{at}': a user message must not be empty."),
            ));
        }
        Some(text @ Value::String(_))
            if role == "user" && config.faulted(OpenaiFault::RefusesStringContent) =>
        {
            return Err(wrong_type(&at, "an array of content parts", text));
        }
        Some(Value::String(text)) => vec![Seen::text(text)],
        Some(Value::Array(parts)) if parts.is_empty() => return Err(empty(&at)),
        Some(list @ Value::Array(parts))
            if role == "user"
                && config.faulted(OpenaiFault::RefusesTextOnlyArray)
                && parts.iter().all(|p| p["type"] == "text") =>
        {
            return Err(wrong_type(&at, "a string", list));
        }
        Some(Value::Array(parts)) => parts_of(config, model, role, parts, &at)?,
        None | Some(Value::Null) if role == "assistant" => Vec::new(),
        Some(other) => {
            return Err(wrong_type(
                &at,
                "a string or an array of content parts",
                other,
            ));
        }
        None => return Err(missing(&at)),
    };
    Ok(SeenMessage {
        role: role.to_owned(),
        parts,
    })
}

/// The parts of one message, each checked; a fault may let a refused part through
/// (left out of what the model saw).
fn parts_of(
    config: &OpenaiConfig,
    model: &Model,
    role: &str,
    parts: &[Value],
    at: &str,
) -> Result<Vec<Seen>, Refused> {
    let mut seen = Vec::new();
    for (j, part) in parts.iter().enumerate() {
        let path = format!("{at}[{j}]");
        let checked = if role == "user" {
            user_part(model, part, &path, config.fault)
        } else {
            text_only_part(role, part, &path)
        };
        match checked {
            Ok(part) => seen.push(part),
            Err(refused) if tolerated(config.fault, model, refused.cause) => {}
            Err(refused) => return Err(refused),
        }
    }
    if config.faulted(OpenaiFault::DropsMedia) {
        // Valid, accepted, and never shown to the model: only the text goes on.
        seen.retain(|part| matches!(part.kind, "text" | "refusal"));
    }
    Ok(seen)
}

/// True when `fault` makes the server take a part refused for `cause`.
fn tolerated(fault: Option<OpenaiFault>, model: &Model, cause: Cause) -> bool {
    match (fault, cause) {
        (Some(OpenaiFault::AcceptsUnknownPartType), Cause::UnknownPartType) => true,
        (Some(OpenaiFault::IgnoresImageOnTextModel), Cause::Capability("image")) => !model.image,
        (Some(OpenaiFault::DropsUnsupportedParts), Cause::Capability(_)) => true,
        _ => false,
    }
}

/// `stream` and `stream_options.include_usage`; options only with `stream: true`.
fn streaming(object: &Map<String, Value>) -> Result<(bool, bool), Refused> {
    let stream = match object.get("stream") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(wrong_type("stream", "a boolean", other)),
    };
    let options = match object.get("stream_options") {
        None | Some(Value::Null) => return Ok((stream, false)),
        Some(Value::Object(options)) => options,
        Some(other) => return Err(wrong_type("stream_options", "an object", other)),
    };
    if !stream {
        return Err(invalid_value(
            "stream_options",
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        ));
    }
    match options.get("include_usage") {
        None | Some(Value::Null) => Ok((true, false)),
        Some(Value::Bool(b)) => Ok((true, *b)),
        Some(other) => Err(wrong_type(
            "stream_options.include_usage",
            "a boolean",
            other,
        )),
    }
}
