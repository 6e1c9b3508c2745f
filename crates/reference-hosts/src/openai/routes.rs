//! HTTP wiring of the OpenAI-compatible reference server: `GET /v1/models`,
//! `GET /v1/models/{id}`, `POST /v1/chat/completions`, the media files http(s) URL parts
//! may name (`GET /media/...`), and OpenAI-shaped 404/405s. Every API route checks the
//! bearer token first (when one is configured), then reads the body under the cap, then
//! parses it.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};
use serde_json::Value;

use super::api_error::{ApiError, INVALID_REQUEST};
use super::completion::{Answer, answer};
use super::forward;
use super::models;
use super::refusal::{Cause, Refused};
use super::request::{ChatRequest, Door, validate};
use super::responses;
use super::stream::{chunks, sse_body};
use super::{BASE_PATH, MEDIA_PATH, OpenaiConfig, OpenaiFault};
use crate::auth::presented_bearer;
use crate::body_limit::{BodyError, DEFAULT_CAP, drain, read_capped};
use crate::media_files::media_file;
use crate::upstream::Upstream;

/// The configuration, and the model a forwarding server calls.
struct Server {
    config: OpenaiConfig,
    upstream: Option<Upstream>,
}

type Shared = Arc<Server>;

/// The reference server as an axum router (no listener; see `spawn`).
pub fn router(config: OpenaiConfig) -> Router {
    let route = |method: MethodRouter<Shared>| method.fallback(method_not_allowed);
    Router::new()
        .route(&format!("{BASE_PATH}/models"), route(get(list_models)))
        .route(&format!("{BASE_PATH}/models/{{id}}"), route(get(one_model)))
        .route(&format!("{BASE_PATH}/chat/completions"), route(post(chat)))
        .route(
            &format!("{BASE_PATH}{}", responses::PATH),
            route(post(responses_door)),
        )
        .route(&format!("{MEDIA_PATH}/{{name}}"), route(get(media)))
        .fallback(not_found)
        // The body is read under the server's own cap (body_limit.rs).
        .layer(DefaultBodyLimit::disable())
        .with_state(Arc::new(Server {
            upstream: config
                .upstream
                .as_ref()
                .map(|url| Upstream::over(url, config.upstream_wire)),
            config,
        }))
}

fn reject(config: &OpenaiConfig, error: ApiError) -> Response {
    error.into_response(config.faulted(OpenaiFault::ErrorBodyNotOpenai))
}

/// The bearer check: Ok when no token is configured or the right one is presented.
/// The token is never echoed.
fn authorized(config: &OpenaiConfig, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(expected) = config.token.as_deref() else {
        return Ok(());
    };
    if config.faulted(OpenaiFault::IgnoresAuth) {
        return Ok(());
    }
    let message = match presented_bearer(headers) {
        Some(token) if token == expected => return Ok(()),
        Some(_) => "Incorrect API key provided.",
        None => "You didn't provide an API key. Send it as `Authorization: Bearer <key>`.",
    };
    Err(ApiError::plain(
        StatusCode::UNAUTHORIZED,
        INVALID_REQUEST,
        Some("invalid_api_key"),
        message,
    ))
}

async fn list_models(State(server): State<Shared>, headers: HeaderMap) -> Response {
    match authorized(&server.config, &headers) {
        Ok(()) => Json(models::list(&server.config.models)).into_response(),
        Err(error) => reject(&server.config, error),
    }
}

async fn one_model(
    State(server): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let config = &server.config;
    if let Err(error) = authorized(config, &headers) {
        return reject(config, error);
    }
    match config.served(&id) {
        Some(model) => Json(models::card(&model)).into_response(),
        None => reject(
            config,
            ApiError::plain(
                StatusCode::NOT_FOUND,
                INVALID_REQUEST,
                Some("model_not_found"),
                format!("The model `{id}` does not exist or you do not have access to it."),
            ),
        ),
    }
}

/// `GET /media/<kind>.<ext>`: files for http(s) URL parts (`--media-base-url`), public
/// as a CDN would serve them; the server itself never fetches them.
async fn media(State(server): State<Shared>, Path(name): Path<String>) -> Response {
    match media_file(&name) {
        Some((mime, bytes)) => ([(header::CONTENT_TYPE, mime)], bytes).into_response(),
        None => reject(
            &server.config,
            ApiError::plain(
                StatusCode::NOT_FOUND,
                INVALID_REQUEST,
                None,
                format!("No media named `{name}`."),
            ),
        ),
    }
}

/// Auth, the body cap, JSON, validation; then the server's own answer, or the
/// upstream's when forwarding.
async fn chat(State(server): State<Shared>, headers: HeaderMap, body: Body) -> Response {
    let config = &server.config;
    let json = match read_json(config, &headers, body).await {
        Ok(json) => json,
        Err(refused) => return refuse(config, refused),
    };
    answer_chat(&server, json, Door::Chat).await
}

/// The Responses door: its own checks and translation (`responses/input.rs`), then
/// the Chat path, answered in the Responses form.
async fn responses_door(State(server): State<Shared>, headers: HeaderMap, body: Body) -> Response {
    let config = &server.config;
    let json = match read_json(config, &headers, body).await {
        Ok(json) => json,
        Err(refused) => return refuse(config, refused),
    };
    match responses::input::to_chat(config, &json) {
        Ok(chat) => answer_chat(&server, chat, Door::Responses).await,
        Err(refused) => refuse(config, refused),
    }
}

/// Validation of a Chat body, then the server's own answer or the upstream's.
async fn answer_chat(server: &Server, json: Value, door: Door) -> Response {
    let config = &server.config;
    let request = match validate(config, &json).map(|r| ChatRequest { door, ..r }) {
        Ok(request) => request,
        Err(refused) => match (&server.upstream, config.fault) {
            (Some(upstream), Some(OpenaiFault::ForwardUnvalidated)) => {
                return forward::relay_unvalidated(config, upstream, &json).await;
            }
            _ => return refuse(config, refused),
        },
    };
    match &server.upstream {
        Some(upstream) if !config.faulted(OpenaiFault::ForwardSkipsModel) => {
            forward::relay(config, upstream, &json, &request).await
        }
        _ => respond(config, &request, &answer(&request)),
    }
}

/// `answer` as a `chat.completion`, or as a chunk stream when the request asked.
pub(super) fn respond(config: &OpenaiConfig, request: &ChatRequest, answer: &Answer) -> Response {
    if request.door == Door::Responses {
        return responses::respond(config, request, answer);
    }
    if !request.stream {
        let mut completion = answer.to_json();
        if config.faulted(OpenaiFault::CompletionWithoutFinishReason) {
            completion["choices"][0]["finish_reason"] = Value::Null;
        }
        return Json(completion).into_response();
    }
    let body = sse_body(&chunks(answer, request.include_usage), config.fault);
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// A refusal as the client gets it, with the faults that bend refusals applied.
pub(super) fn refuse(config: &OpenaiConfig, refused: Refused) -> Response {
    let mut error = refused.error;
    match (config.fault, refused.cause) {
        (Some(OpenaiFault::CrashOnInvalidBase64), Cause::BadBase64) => error = server_error(),
        (Some(OpenaiFault::CrashOnMalformed), cause) if cause.is_malformed() => {
            error = server_error()
        }
        (Some(OpenaiFault::CapabilityRefusal404), Cause::Capability(_)) => {
            error.status = StatusCode::NOT_FOUND
        }
        _ => {}
    }
    reject(config, error)
}

/// What an unhandled exception looks like from outside an OpenAI-compatible server.
fn server_error() -> ApiError {
    ApiError::plain(
        StatusCode::INTERNAL_SERVER_ERROR,
        "server_error",
        None,
        "The server had an error while processing your request.",
    )
}

/// Auth, then the body cap, then JSON: the first problem wins.
async fn read_json(
    config: &OpenaiConfig,
    headers: &HeaderMap,
    body: Body,
) -> Result<Value, Refused> {
    let cap = config.max_request_body_bytes.unwrap_or(DEFAULT_CAP);
    if let Err(error) = authorized(config, headers) {
        // Read what the client sends first, so it sees the 401 and not a reset.
        drain(body, cap).await;
        return Err(Refused::new(error, Cause::Other));
    }
    let bytes = read_capped(body, cap).await.map_err(|err| {
        let error = match err {
            BodyError::TooLarge { cap } => ApiError::plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                INVALID_REQUEST,
                Some("request_too_large"),
                format!("The request body exceeds {cap} bytes."),
            ),
            BodyError::Transport(why) => ApiError::plain(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                None,
                format!("Could not read the request body: {why}"),
            ),
        };
        Refused::new(error, Cause::Other)
    })?;
    serde_json::from_slice(&bytes).map_err(|err| {
        Refused::new(
            ApiError::plain(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                Some("invalid_json"),
                format!("We could not parse the JSON body of your request: {err}"),
            ),
            Cause::Shape,
        )
    })
}

async fn not_found(State(server): State<Shared>, method: Method, uri: Uri) -> Response {
    reject(
        &server.config,
        ApiError::plain(
            StatusCode::NOT_FOUND,
            INVALID_REQUEST,
            None,
            format!("Invalid URL ({method} {})", uri.path()),
        ),
    )
}

async fn method_not_allowed(State(server): State<Shared>, method: Method, uri: Uri) -> Response {
    reject(
        &server.config,
        ApiError::plain(
            StatusCode::METHOD_NOT_ALLOWED,
            INVALID_REQUEST,
            None,
            format!("Invalid method for URL ({method} {})", uri.path()),
        ),
    )
}
