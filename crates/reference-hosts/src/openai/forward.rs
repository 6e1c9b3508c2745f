//! The forwarding mode (docs/wire.md, "Forwarding to a model"): with an upstream
//! configured the server stands in for a gateway. A request it accepted goes on to
//! `{upstream}/chat/completions` as it came (same model name, same parts, same
//! `detail`, same file names), except that it is always sent non-streamed and that a
//! part a fault let through without the model seeing it is left out. The upstream's
//! answer is relayed: its status and body as they are, or, for a streamed request,
//! its reply re-chunked. A refused request is never forwarded.
//!
//! With [`OpenaiConfig::upstream_wire`] set to Responses the server is a gateway that
//! translates wires: the same request, bent the same way, goes to `{upstream}/responses`
//! as input items (`responses_wire.rs`), and the reply's text comes back as this
//! server's own completion.
//!
//! The three forwarding faults change the forwarded request here and nowhere else.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::api_error::ApiError;
use super::completion::{Answer, Usage, answer, completion_id, now};
use super::models::Model;
use super::part::{text_only_part, user_part};
use super::request::ChatRequest;
use super::routes::respond;
use super::{OpenaiConfig, OpenaiFault};
use crate::responses_wire;
use crate::upstream::{Upstream, UpstreamWire, reply_text};

/// The name `forward-replaces-filename` gives every file, and `invents-filename` an
/// unnamed one (LiteLLM's invention).
pub const INVENTED_FILENAME: &str = "my_file.pdf";

/// Forwards the accepted `request` (whose body is `body`) and answers with what the
/// upstream said; 502 `upstream_unavailable` when it cannot be reached or answers
/// something that is not JSON.
pub async fn relay(
    config: &OpenaiConfig,
    upstream: &Upstream,
    body: &Value,
    request: &ChatRequest,
) -> Response {
    let outgoing = in_wire(upstream, outgoing(body, &request.model, config.fault));
    let relayed = match upstream.relay(&outgoing).await {
        Ok(relayed) => relayed,
        Err(unavailable) => {
            let error = ApiError::plain(
                StatusCode::BAD_GATEWAY,
                "api_error",
                Some("upstream_unavailable"),
                unavailable.0,
            );
            return error.into_response(config.faulted(OpenaiFault::ErrorBodyNotOpenai));
        }
    };
    let status = StatusCode::from_u16(relayed.status).unwrap_or(StatusCode::BAD_GATEWAY);
    // Another wire's answer, or a Responses door's: its text as this server's own.
    let translated =
        upstream.wire() != UpstreamWire::Chat || request.door == super::request::Door::Responses;
    if !status.is_success() || (!request.stream && !translated) {
        return (status, Json(relayed.body)).into_response();
    }
    if translated {
        let mut own = answer(request);
        own.text = upstream.reply_text(&relayed.body);
        return respond(config, request, &own);
    }
    respond(config, request, &rechunked(request, &relayed.body))
}

/// The Chat request `chat` in the upstream's wire.
fn in_wire(upstream: &Upstream, chat: Value) -> Value {
    match upstream.wire() {
        UpstreamWire::Responses => responses_wire::from_chat(&chat),
        // The Chat server forwards Chat or Responses; Gemini is the agent's.
        UpstreamWire::Chat | UpstreamWire::Gemini => chat,
    }
}

/// `forward-unvalidated`: a request that deserved a 400 goes upstream as it came (not
/// streamed), and the upstream's answer is relayed as JSON, as a gateway that checks
/// nothing does.
pub async fn relay_unvalidated(
    config: &OpenaiConfig,
    upstream: &Upstream,
    body: &Value,
) -> Response {
    let mut outgoing = body.clone();
    if let Some(object) = outgoing.as_object_mut() {
        object.insert("stream".into(), json!(false));
        object.remove("stream_options");
    }
    match upstream.relay(&in_wire(upstream, outgoing)).await {
        Ok(relayed) => {
            let status = StatusCode::from_u16(relayed.status).unwrap_or(StatusCode::BAD_GATEWAY);
            (status, Json(relayed.body)).into_response()
        }
        Err(unavailable) => ApiError::plain(
            StatusCode::BAD_GATEWAY,
            "api_error",
            Some("upstream_unavailable"),
            unavailable.0,
        )
        .into_response(config.faulted(OpenaiFault::ErrorBodyNotOpenai)),
    }
}

/// The upstream's completion as this server's streamed answer: its id, text,
/// finish_reason and usage where it gave them.
fn rechunked(request: &ChatRequest, completion: &Value) -> Answer {
    let own = answer(request);
    let usage = &completion["usage"];
    let count = |key: &str| usage[key].as_u64();
    Answer {
        id: completion["id"]
            .as_str()
            .map_or_else(completion_id, str::to_owned),
        created: completion["created"].as_u64().unwrap_or_else(now),
        model: request.model.id.to_owned(),
        text: reply_text(completion),
        finish_reason: completion["choices"][0]["finish_reason"]
            .as_str()
            .unwrap_or("stop")
            .to_owned(),
        usage: match (count("prompt_tokens"), count("completion_tokens")) {
            (Some(prompt_tokens), Some(completion_tokens)) => Usage {
                prompt_tokens,
                completion_tokens,
            },
            _ => own.usage,
        },
    }
}

/// The request that goes upstream: `body` non-streamed, its parts as they came save
/// the ones the model did not see, bent by a forwarding `fault`.
pub fn outgoing(body: &Value, model: &Model, fault: Option<OpenaiFault>) -> Value {
    let mut outgoing = body.clone();
    if let Some(object) = outgoing.as_object_mut() {
        object.insert("stream".into(), json!(false));
        object.remove("stream_options");
    }
    let Some(messages) = outgoing.get_mut("messages").and_then(Value::as_array_mut) else {
        return outgoing;
    };
    for (i, message) in messages.iter_mut().enumerate() {
        let role = message["role"].as_str().unwrap_or_default().to_owned();
        let Some(parts) = message.get_mut("content").and_then(Value::as_array_mut) else {
            continue;
        };
        let path = format!("messages[{i}].content");
        let mut j = 0;
        parts.retain(|part| {
            let at = format!("{path}[{j}]");
            j += 1;
            seen_by_model(model, &role, part, &at, fault)
        });
        for part in parts.iter_mut() {
            bend(part, fault);
        }
    }
    outgoing
}

/// True when the model saw `part`: it passes the checks (a part a fault let through
/// does not).
fn seen_by_model(
    model: &Model,
    role: &str,
    part: &Value,
    path: &str,
    fault: Option<OpenaiFault>,
) -> bool {
    if role == "user" {
        user_part(model, part, path, fault).is_ok()
    } else {
        text_only_part(role, part, path).is_ok()
    }
}

/// What a forwarding fault does to one part.
fn bend(part: &mut Value, fault: Option<OpenaiFault>) {
    let Some(object) = part.as_object_mut() else {
        return;
    };
    match (fault, object.get("type").and_then(Value::as_str)) {
        (Some(OpenaiFault::ForwardDropsDetail), Some("image_url")) => {
            if let Some(image_url) = object.get_mut("image_url").and_then(Value::as_object_mut) {
                image_url.remove("detail");
            }
        }
        (Some(OpenaiFault::ForwardReplacesFilename), Some("file")) => {
            if let Some(file) = object.get_mut("file").and_then(Value::as_object_mut) {
                let invented = if file.get("filename") == Some(&json!(INVENTED_FILENAME)) {
                    "my_file_1.pdf"
                } else {
                    INVENTED_FILENAME
                };
                file.insert("filename".into(), json!(invented));
            }
        }
        (Some(OpenaiFault::InventsFilename), Some("file")) => {
            if let Some(file) = object.get_mut("file").and_then(Value::as_object_mut)
                && file.contains_key("file_data")
                && !file.contains_key("filename")
            {
                file.insert("filename".into(), json!(INVENTED_FILENAME));
            }
        }
        (Some(OpenaiFault::ForwardAudioAsImage), Some("input_audio")) => audio_as_image(object),
        _ => {}
    }
}

/// `input_audio {data, format}` -> `image_url {url: data:audio/<type>;base64,<data>}`.
fn audio_as_image(part: &mut Map<String, Value>) {
    let audio = part.remove("input_audio").unwrap_or_default();
    let mime = match audio["format"].as_str() {
        Some("mp3") => "audio/mpeg",
        _ => "audio/wav",
    };
    let url = format!(
        "data:{mime};base64,{}",
        audio["data"].as_str().unwrap_or_default()
    );
    part.insert("type".into(), json!("image_url"));
    part.insert("image_url".into(), json!({"url": url}));
}
