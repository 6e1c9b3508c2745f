//! HTTP wiring: `GET /v1/models`, `POST /v1/messages`, and 404/405s in the error
//! envelope. Every API route checks `x-api-key` (when one is configured) and
//! `anthropic-version` first, then reads the body under the cap, then parses it.
//! With an upstream, an accepted request goes on to `{upstream}/messages` (model
//! replaced, not streamed) and the upstream's text is the answer.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};
use serde_json::Value;

use super::answer::{events, message, sse_body};
use super::error::ApiError;
use super::request::{Accepted, validate};
use super::{AnthropicConfig, AnthropicFault, BASE_PATH, MEDIA_PATH, models};
use crate::body_limit::{BodyError, DEFAULT_CAP, drain, read_capped};
use crate::media_files::media_file;
use crate::upstream::{MODEL, Upstream};

struct Server {
    config: AnthropicConfig,
    upstream: Option<Upstream>,
}

type Shared = Arc<Server>;

/// The reference server as an axum router (no listener; see `spawn`).
pub fn router(config: AnthropicConfig) -> Router {
    let route = |method: MethodRouter<Shared>| method.fallback(method_not_allowed);
    Router::new()
        .route(&format!("{BASE_PATH}/models"), route(get(list_models)))
        .route(&format!("{BASE_PATH}/messages"), route(post(messages)))
        .route(&format!("{MEDIA_PATH}/{{name}}"), get(media))
        .fallback(not_found)
        .layer(DefaultBodyLimit::disable())
        .with_state(Arc::new(Server {
            upstream: config
                .upstream
                .as_ref()
                .map(|url| Upstream::relaying_to(url, "/messages")),
            config,
        }))
}

fn reject(config: &AnthropicConfig, error: ApiError) -> Response {
    let error = if config.faulted(AnthropicFault::CrashOnMalformed)
        && error.kind == "invalid_request_error"
        && error.status == StatusCode::BAD_REQUEST
    {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "api_error",
            "Internal server error",
        )
    } else {
        error
    };
    error.into_response(config.faulted(AnthropicFault::ErrorBodyNotAnthropic))
}

/// `x-api-key` when a key is configured (never echoed), then `anthropic-version`.
fn admitted(config: &AnthropicConfig, headers: &HeaderMap) -> Result<(), ApiError> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(expected) = config.api_key.as_deref()
        && !config.faulted(AnthropicFault::IgnoresAuth)
        && header("x-api-key") != Some(expected)
    {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "authentication_error",
            "invalid x-api-key",
        ));
    }
    if header("anthropic-version").is_none_or(str::is_empty) {
        return Err(ApiError::invalid("anthropic-version: header is required"));
    }
    Ok(())
}

async fn list_models(State(server): State<Shared>, headers: HeaderMap) -> Response {
    match admitted(&server.config, &headers) {
        Ok(()) => Json(models::list(&server.config.models)).into_response(),
        Err(error) => reject(&server.config, error),
    }
}

/// `GET /media/<kind>.<ext>`: files for `url` sources (`--media-base-url`), public as
/// a CDN would serve them; the server itself never fetches them.
async fn media(State(server): State<Shared>, Path(name): Path<String>) -> Response {
    match media_file(&name) {
        Some((mime, bytes)) => ([(header::CONTENT_TYPE, mime)], bytes).into_response(),
        None => reject(
            &server.config,
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found_error",
                format!("No media named `{name}`."),
            ),
        ),
    }
}

async fn messages(State(server): State<Shared>, headers: HeaderMap, body: Body) -> Response {
    let config = &server.config;
    let json = match read_json(config, &headers, body).await {
        Ok(json) => json,
        Err(error) => return reject(config, error),
    };
    let accepted = match validate(config, &json) {
        Ok(accepted) => accepted,
        Err(error) => {
            return match (&server.upstream, config.fault) {
                (Some(upstream), Some(AnthropicFault::ForwardUnvalidated)) => {
                    relay(config, upstream, &json, None).await
                }
                _ => reject(config, error),
            };
        }
    };
    match &server.upstream {
        Some(upstream) if !config.faulted(AnthropicFault::ForwardSkipsModel) => {
            relay(config, upstream, &accepted.forward, Some(&accepted)).await
        }
        _ => respond(
            config,
            &accepted,
            &format!("saw: {}", accepted.seen.join(", ")),
        ),
    }
}

/// `text` as a message, or as its event stream when the request asked.
fn respond(config: &AnthropicConfig, accepted: &Accepted, text: &str) -> Response {
    let model = accepted.model.id;
    if !accepted.stream {
        return Json(message(model, text)).into_response();
    }
    let cut = config.faulted(AnthropicFault::StreamWithoutMessageStop);
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        sse_body(&events(model, text, cut)),
    )
        .into_response()
}

/// Sends `body` to the upstream (model replaced, not streamed). An accepted request
/// is answered with the upstream's text in this server's shape; an unvalidated one
/// (a fault) gets the upstream's answer relayed as it came.
async fn relay(
    config: &AnthropicConfig,
    upstream: &Upstream,
    body: &Value,
    accepted: Option<&Accepted>,
) -> Response {
    let mut call = body.clone();
    if let Some(object) = call.as_object_mut() {
        object.insert("model".into(), MODEL.into());
        object.insert("stream".into(), false.into());
    }
    let relayed = match upstream.relay(&call).await {
        Ok(relayed) => relayed,
        Err(why) => {
            return reject(
                config,
                ApiError::new(StatusCode::BAD_GATEWAY, "api_error", why.0),
            );
        }
    };
    let Some(accepted) = accepted else {
        let status = StatusCode::from_u16(relayed.status).unwrap_or(StatusCode::BAD_GATEWAY);
        return (status, Json(relayed.body)).into_response();
    };
    if !(200..300).contains(&relayed.status) {
        return reject(
            config,
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                "api_error",
                format!("the upstream model answered {}", relayed.status),
            ),
        );
    }
    respond(config, accepted, &reply_text(&relayed.body))
}

/// The text blocks of a Messages answer, joined.
fn reply_text(answer: &Value) -> String {
    answer["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("")
        })
        .unwrap_or_default()
}

/// Admission, the body cap, then JSON: the first problem wins.
async fn read_json(
    config: &AnthropicConfig,
    headers: &HeaderMap,
    body: Body,
) -> Result<Value, ApiError> {
    let cap = config.max_request_body_bytes.unwrap_or(DEFAULT_CAP);
    if let Err(error) = admitted(config, headers) {
        // Read what the client sends first, so it sees the refusal and not a reset.
        drain(body, cap).await;
        return Err(error);
    }
    let bytes = read_capped(body, cap).await.map_err(|err| match err {
        BodyError::TooLarge { cap } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "request_too_large",
            format!("Request exceeds the maximum allowed number of bytes ({cap})."),
        ),
        BodyError::Transport(why) => {
            ApiError::invalid(format!("Could not read the request body: {why}"))
        }
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|err| ApiError::invalid(format!("The request body is not valid JSON: {err}")))
}

async fn not_found(State(server): State<Shared>, method: Method, uri: Uri) -> Response {
    reject(
        &server.config,
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found_error",
            format!("Not found: {method} {}", uri.path()),
        ),
    )
}

async fn method_not_allowed(State(server): State<Shared>, method: Method, uri: Uri) -> Response {
    reject(
        &server.config,
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "invalid_request_error",
            format!("Method not allowed: {method} {}", uri.path()),
        ),
    )
}
