//! A Responses request body (`POST /v1/responses`, OpenAI API reference, "Responses",
//! input items) checked for what only Responses has, then translated into the Chat
//! body the rest of the server validates part by part, as a gateway that serves both
//! doors over one model does:
//!
//! - `input`: a non-empty string, or a non-empty list of message items
//!   (`{type?: message, role, content}`); `instructions` becomes a system message;
//! - `input_text {text}` -> `text`; `input_image {image_url: <string>, detail?}` ->
//!   `image_url {url, detail?}` (an object `image_url` is refused, as OpenAI does);
//!   `input_file {file_data, filename} | {file_id} | {file_url}` -> `file` (exactly one
//!   source; a URL must be http(s)); `input_audio` as it is;
//! - a Chat-style part (`text`, `image_url`, `file`) in Responses input is refused:
//!   skipping it would leave the model with the caption only.
//!
//! Parts of a type neither wire has go through untranslated, so the Chat validation
//! refuses them as an unknown part type. The Responses faults act here, and so does
//! `forward-unvalidated` on a forwarding server: what this door would refuse goes on
//! as it came (an empty input adds no message, a part it cannot read is passed raw),
//! for the Chat path to forward unvalidated.

use base64::Engine as _;
use serde_json::{Map, Value, json};

use super::super::part::{REFERENCE_IMAGE_ID, reference_image};
use super::super::refusal::{Cause, Refused, invalid_value, missing, wrong_type};
use super::super::{OpenaiConfig, OpenaiFault};

/// The Chat part types that are not Responses input parts.
const CHAT_ONLY_TYPES: [&str; 3] = ["text", "image_url", "file"];

/// The Chat body `body` (a Responses request) stands for, or why it is refused.
pub fn to_chat(config: &OpenaiConfig, body: &Value) -> Result<Value, Refused> {
    let Some(object) = body.as_object() else {
        return Err(wrong_type("body", "an object", body));
    };
    let mut messages = Vec::new();
    match object.get("instructions") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => messages.push(json!({"role": "system", "content": text})),
        Some(other) => return Err(wrong_type("instructions", "a string", other)),
    }
    let lenient = unvalidated(config);
    match object.get("input") {
        Some(Value::String(text)) if text.is_empty() && lenient => {}
        Some(Value::Array(items)) if items.is_empty() && lenient => {}
        Some(Value::String(text)) if text.is_empty() => return Err(empty("input")),
        Some(Value::String(text)) => messages.push(json!({"role": "user", "content": text})),
        Some(Value::Array(items)) if items.is_empty() => return Err(empty("input")),
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                messages.push(message(config, item, &format!("input[{i}]"))?);
            }
        }
        Some(other) => return Err(wrong_type("input", "a string or an array", other)),
        None => return Err(missing("input")),
    }
    let mut chat = Map::new();
    if let Some(model) = object.get("model") {
        chat.insert("model".into(), model.clone());
    }
    chat.insert("messages".into(), Value::Array(messages));
    if let Some(stream) = object.get("stream") {
        chat.insert("stream".into(), stream.clone());
    }
    Ok(Value::Object(chat))
}

/// `forward-unvalidated` on a server with an upstream: nothing is refused here.
fn unvalidated(config: &OpenaiConfig) -> bool {
    config.faulted(OpenaiFault::ForwardUnvalidated) && config.upstream.is_some()
}

fn empty(path: &str) -> Refused {
    invalid_value(
        path,
        format!("Invalid '{path}': empty. Expected a non-empty string or a non-empty array."),
    )
}

/// One input item: a message, translated; any other item type is refused.
fn message(config: &OpenaiConfig, item: &Value, at: &str) -> Result<Value, Refused> {
    let Some(object) = item.as_object() else {
        return Err(wrong_type(at, "an object", item));
    };
    match object.get("type") {
        None => {}
        Some(Value::String(t)) if t == "message" => {}
        Some(other) => {
            return Err(invalid_value(
                &format!("{at}.type"),
                format!(
                    "Invalid value for '{at}.type': {other}. This server takes message items only."
                ),
            ));
        }
    }
    let role = match object.get("role") {
        Some(Value::String(role)) => role.clone(),
        Some(other) => return Err(wrong_type(&format!("{at}.role"), "a string", other)),
        None => return Err(missing(&format!("{at}.role"))),
    };
    let content = match object.get("content") {
        Some(Value::String(text)) => json!(text),
        Some(Value::Array(parts)) => {
            let mut out = Vec::new();
            for (j, part) in parts.iter().enumerate() {
                if let Some(translated) = self::part(config, part, &format!("{at}.content[{j}]"))? {
                    out.push(translated);
                }
            }
            Value::Array(out)
        }
        // `forward-unvalidated`: content this door cannot read goes on as it came.
        Some(other) if unvalidated(config) => other.clone(),
        Some(other) => {
            return Err(wrong_type(
                &format!("{at}.content"),
                "a string or an array",
                other,
            ));
        }
        None => return Err(missing(&format!("{at}.content"))),
    };
    Ok(json!({"role": role, "content": content}))
}

/// One content part in its Chat form; None when a fault skips it.
fn part(config: &OpenaiConfig, part: &Value, at: &str) -> Result<Option<Value>, Refused> {
    match translated(config, part, at) {
        Err(_) if unvalidated(config) => Ok(Some(part.clone())),
        translated => translated,
    }
}

fn translated(config: &OpenaiConfig, part: &Value, at: &str) -> Result<Option<Value>, Refused> {
    let Some(object) = part.as_object() else {
        return Err(wrong_type(at, "an object", part));
    };
    let part_type = match object.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(other) => return Err(wrong_type(&format!("{at}.type"), "a string", other)),
        None => return Err(missing(&format!("{at}.type"))),
    };
    match part_type {
        "input_text" | "output_text" => {
            Ok(Some(json!({"type": "text", "text": object.get("text")})))
        }
        "input_image" => input_image(config, object, at),
        "input_file" => input_file(config, object, at),
        "input_audio" => Ok(Some(part.clone())),
        chat if CHAT_ONLY_TYPES.contains(&chat) => {
            if config.faulted(OpenaiFault::ResponsesSkipsChatParts) {
                return Ok(None);
            }
            let mut refused = invalid_value(
                &format!("{at}.type"),
                format!(
                    "Invalid value: '{chat}'. Supported values are: 'input_text', 'input_image', 'input_file', and 'input_audio'."
                ),
            );
            refused.cause = Cause::UnknownPartType;
            Err(refused)
        }
        // Neither wire's: the Chat validation refuses it as an unknown part type.
        _ => Ok(Some(part.clone())),
    }
}

fn input_image(
    config: &OpenaiConfig,
    object: &Map<String, Value>,
    at: &str,
) -> Result<Option<Value>, Refused> {
    let url = match (object.get("image_url"), object.get("file_id")) {
        (Some(Value::String(url)), None) => url.clone(),
        (Some(Value::Object(inner)), None)
            if config.faulted(OpenaiFault::ResponsesAcceptsObjectImageUrl) =>
        {
            match inner.get("url") {
                Some(Value::String(url)) => url.clone(),
                _ => return Err(missing(&format!("{at}.image_url.url"))),
            }
        }
        (Some(other), None) => {
            return Err(wrong_type(&format!("{at}.image_url"), "a string", other));
        }
        (None, Some(Value::String(id))) => image_by_id(config, id, at)?,
        (Some(_), Some(_)) => {
            return Err(invalid_value(
                at,
                format!("Invalid '{at}': give image_url or file_id, not both."),
            ));
        }
        (None, Some(other)) => {
            return Err(wrong_type(&format!("{at}.file_id"), "a string", other));
        }
        (None, None) => return Err(missing(&format!("{at}.image_url"))),
    };
    let mut image_url = Map::new();
    image_url.insert("url".into(), json!(url));
    if let Some(detail) = object.get("detail") {
        image_url.insert("detail".into(), detail.clone());
    }
    Ok(Some(json!({"type": "image_url", "image_url": image_url})))
}

/// The image a file id names, as the data URL the Chat path reads: only
/// [`REFERENCE_IMAGE_ID`] names one.
fn image_by_id(config: &OpenaiConfig, id: &str, at: &str) -> Result<String, Refused> {
    if config.faulted(OpenaiFault::RefusesFileId) {
        return Err(invalid_value(
            &format!("{at}.file_id"),
            format!("Invalid '{at}.file_id': file ids are not supported."),
        ));
    }
    if id != REFERENCE_IMAGE_ID {
        return Err(invalid_value(
            &format!("{at}.file_id"),
            format!("Invalid '{at}.file_id': no image file with id '{id}'."),
        ));
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(reference_image());
    Ok(format!("data:image/png;base64,{b64}"))
}

fn input_file(
    config: &OpenaiConfig,
    object: &Map<String, Value>,
    at: &str,
) -> Result<Option<Value>, Refused> {
    let sources: Vec<&str> = ["file_data", "file_id", "file_url"]
        .into_iter()
        .filter(|k| object.contains_key(*k))
        .collect();
    let mut file = Map::new();
    if let Some(name) = object.get("filename") {
        file.insert("filename".into(), name.clone());
    }
    match sources.as_slice() {
        [] => Err(invalid_value(
            at,
            format!("Invalid '{at}': an input_file needs one of file_data, file_id or file_url."),
        )),
        ["file_data"] => {
            file.insert("file_data".into(), object["file_data"].clone());
            Ok(Some(json!({"type": "file", "file": file})))
        }
        ["file_id"] => {
            if config.faulted(OpenaiFault::ResponsesDropsFileIdPart) {
                return Ok(None);
            }
            file.insert("file_id".into(), object["file_id"].clone());
            Ok(Some(json!({"type": "file", "file": file})))
        }
        ["file_url"] => {
            let url = match &object["file_url"] {
                Value::String(url) => url,
                other => return Err(wrong_type(&format!("{at}.file_url"), "a string", other)),
            };
            let any_scheme = config.faulted(OpenaiFault::AcceptsNonHttpUrl);
            let taken =
                super::super::part::http_url(url) || (any_scheme && url::Url::parse(url).is_ok());
            if !taken {
                return Err(invalid_value(
                    &format!("{at}.file_url"),
                    format!("Invalid '{at}.file_url': expected an http(s) URL."),
                ));
            }
            if config.faulted(OpenaiFault::ResponsesDropsFileUrl) {
                return Ok(None);
            }
            // The Chat file part names a fetchable file by its URL as the id.
            file.insert("file_id".into(), json!(url));
            Ok(Some(json!({"type": "file", "file": file})))
        }
        _ => Err(invalid_value(
            at,
            format!("Invalid '{at}': give one of file_data, file_id or file_url, not several."),
        )),
    }
}
