//! HTTP wiring: the model endpoints under `/v1` (and without it): Chat Completions,
//! Messages, Responses, the OpenAI model list; Gemini's `/{version}/models/...` (at the
//! root and under `/v1`); and what happens to everything else. Every POST is recorded,
//! even one the witness cannot read: a call that went wrong is evidence too.
//!
//! Only the path is recorded, never the query: a Gemini client's `?key=` stays out of
//! every record and report, as the `x-goog-api-key` and `Authorization` headers do.

use super::answer::{self, Reply};
use super::body::{BodyError, read_capped};
use super::config::WitnessConfig;
use super::decode::{Decoded, decode};
use super::log::CallLog;
use super::record::{ProblemCode, Wire};
use super::wire::gemini::answer as gemini_answer;
use crate::wire::{gemini, responses};
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// What every handler shares.
pub struct Shared {
    pub config: WitnessConfig,
    pub log: CallLog,
    /// Calls read and decoded at once (`Limits::max_concurrent`).
    permits: Semaphore,
}

impl Shared {
    pub fn new(config: WitnessConfig) -> Shared {
        Shared {
            log: CallLog::new(config.limits.max_calls),
            permits: Semaphore::new(config.limits.max_concurrent),
            config,
        }
    }
}

type S = Arc<Shared>;

/// The witness as an axum router (no listener).
pub fn router(shared: S) -> Router {
    let mut app = Router::new();
    for base in ["/v1", ""] {
        app = app
            .route(&format!("{base}/chat/completions"), only(post(chat)))
            .route(&format!("{base}/messages"), only(post(messages)))
            .route(
                &format!("{base}{}", responses::PATH),
                only(post(responses_call)),
            )
            .route(&format!("{base}/models"), only(get(models)))
            // Gemini's v1 shares this path with OpenAI's: `POST /v1/models/{model}:{method}`.
            .route(
                &format!("{base}/models/{{id}}"),
                only(get(model).post(gemini_call)),
            );
        for version in gemini::VERSIONS {
            let models = format!("{base}/{version}/models");
            app = app.route(&models, gemini_only(get(gemini_models))).route(
                &format!("{models}/{{*rest}}"),
                gemini_only(get(gemini_model).post(gemini_call)),
            );
        }
    }
    app.fallback(elsewhere)
        // Bodies are read under the witness's own cap (body.rs), not axum's 2 MiB.
        .layer(DefaultBodyLimit::disable())
        .with_state(shared)
}

fn gemini_only(route: MethodRouter<S>) -> MethodRouter<S> {
    route.fallback(|| async {
        answer::error(
            Wire::Gemini,
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed",
        )
    })
}

fn only(route: MethodRouter<S>) -> MethodRouter<S> {
    route.fallback(|| async {
        answer::error(
            Wire::OpenaiChat,
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed",
        )
    })
}

async fn chat(State(shared): State<S>, uri: Uri, body: Body) -> Response {
    record(shared, Wire::OpenaiChat, uri.path(), Route::default(), body).await
}

async fn messages(State(shared): State<S>, uri: Uri, body: Body) -> Response {
    record(
        shared,
        Wire::AnthropicMessages,
        uri.path(),
        Route::default(),
        body,
    )
    .await
}

async fn responses_call(State(shared): State<S>, uri: Uri, body: Body) -> Response {
    record(
        shared,
        Wire::OpenaiResponses,
        uri.path(),
        Route::default(),
        body,
    )
    .await
}

/// `POST .../models/{model}:{method}`: the model and the method come from the path, and
/// a stream's framing from `?alt=sse`. An unknown method is recorded like any other
/// unknown POST.
async fn gemini_call(
    State(shared): State<S>,
    Path(rest): Path<String>,
    uri: Uri,
    body: Body,
) -> Response {
    let sse = uri
        .query()
        .is_some_and(|q| q.split('&').any(|pair| pair == "alt=sse"));
    let found = gemini::model_method(&rest)
        .and_then(|(model, method)| Some((model, gemini::Method::parse(method)?)));
    let Some((model, method)) = found else {
        return record(shared, Wire::Unknown, uri.path(), Route::default(), body).await;
    };
    let (wire, stream) = match method {
        gemini::Method::Generate => (Wire::Gemini, false),
        gemini::Method::StreamGenerate => (Wire::Gemini, true),
        gemini::Method::CountTokens => (Wire::GeminiCountTokens, false),
    };
    let route = Route {
        model: Some(model.trim_start_matches("models/")),
        stream,
        sse,
    };
    record(shared, wire, uri.path(), route, body).await
}

async fn gemini_models(State(shared): State<S>) -> Response {
    axum::Json(gemini_answer::models(&shared.config.model)).into_response()
}

async fn gemini_model(State(shared): State<S>, Path(id): Path<String>) -> Response {
    if id == shared.config.model {
        return axum::Json(gemini_answer::model_entry(&id)).into_response();
    }
    let why = format!("the witness serves one model, {}", shared.config.model);
    answer::error(Wire::Gemini, StatusCode::NOT_FOUND, &why)
}

/// The OpenAI list, which also holds Gemini's `models` (its v1 lists at this path).
async fn models(State(shared): State<S>) -> Response {
    let mut list = answer::models(&shared.config.model);
    list["models"] = gemini_answer::models(&shared.config.model)["models"].clone();
    axum::Json(list).into_response()
}

/// One model, described for both the OpenAI and the Gemini (v1) clients.
async fn model(State(shared): State<S>, Path(id): Path<String>) -> Response {
    if id == shared.config.model {
        let mut entry = gemini_answer::model_entry(&id);
        if let (Some(both), serde_json::Value::Object(openai)) =
            (entry.as_object_mut(), answer::model_entry(&id))
        {
            both.extend(openai);
        }
        return axum::Json(entry).into_response();
    }
    let why = format!("the witness serves one model, {}", shared.config.model);
    answer::error(Wire::OpenaiChat, StatusCode::NOT_FOUND, &why)
}

/// Any other path: a POST is recorded (a client calling `/v1/responses` should learn
/// that from the verdict), anything else is a plain 404.
async fn elsewhere(State(shared): State<S>, method: Method, uri: Uri, body: Body) -> Response {
    if method == Method::POST {
        return record(shared, Wire::Unknown, uri.path(), Route::default(), body).await;
    }
    let why = format!("no such endpoint: {} {}", method, uri.path());
    answer::error(Wire::OpenaiChat, StatusCode::NOT_FOUND, &why)
}

/// What a route knows of a call beyond its body: Gemini names the model and whether
/// to stream in the path, and the stream's framing in the query.
#[derive(Debug, Clone, Copy, Default)]
struct Route<'a> {
    model: Option<&'a str>,
    stream: bool,
    sse: bool,
}

/// Reads, decodes, records and answers one call.
async fn record(shared: S, wire: Wire, path: &str, route: Route<'_>, body: Body) -> Response {
    // Bounded memory: only so many bodies are held and decoded at once.
    let Ok(_permit) = shared.permits.acquire().await else {
        let why = "the witness is shutting down";
        return answer::error(wire, StatusCode::SERVICE_UNAVAILABLE, why);
    };
    let received_at = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    let (mut decoded, body_bytes) = read_and_decode(&shared, wire, path, body).await;
    if let Some(model) = route.model {
        decoded.model = Some(super::part::cut(model, super::part::MAX_NAME));
    }
    decoded.stream |= route.stream && decoded.refusal.is_none();
    let seq = shared.log.next_seq();
    let refusal = decoded.refusal.clone();
    let stream_usage = decoded.stream_usage;
    let call = decoded.into_call(seq, wire, path, received_at, body_bytes);
    let response = answer::respond(
        &call,
        Reply {
            refusal: refusal.as_deref(),
            stream_usage,
            default_model: &shared.config.model,
            sse: route.sse,
        },
    );
    // Recorded before the host has its answer, so whoever waits for this call sees
    // it no later than the host does.
    shared.log.push(call);
    response
}

async fn read_and_decode(shared: &S, wire: Wire, path: &str, body: Body) -> (Decoded, u64) {
    let limits = &shared.config.limits;
    let read = tokio::time::timeout(
        limits.body_timeout,
        read_capped(body, limits.max_body_bytes),
    );
    let Ok(read) = read.await else {
        let why = format!(
            "the request body did not arrive within {} s",
            limits.body_timeout.as_secs_f64()
        );
        return (Decoded::refused(408, ProblemCode::BodyUnreadable, why), 0);
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(BodyError::TooLarge { cap, received }) => {
            let why = format!("the request body is over the witness's {cap}-byte cap");
            return (
                Decoded::refused(413, ProblemCode::BodyTooLarge, why),
                received,
            );
        }
        Err(BodyError::Transport { received, why }) => {
            let why = format!("the request body could not be read: {why}");
            return (
                Decoded::refused(400, ProblemCode::BodyUnreadable, why),
                received,
            );
        }
    };
    let size = bytes.len() as u64;
    if wire == Wire::Unknown {
        let why = format!(
            "the witness serves POST /v1/chat/completions, /v1/messages, /v1/responses and \
             /v1beta/models/{{model}}:generateContent (or :streamGenerateContent, \
             :countTokens), not {path}"
        );
        return (
            Decoded::refused(404, ProblemCode::UnsupportedEndpoint, why),
            size,
        );
    }
    // Decoding 64 MiB of base64 takes a while: keep it off the async workers.
    let limits = shared.config.limits.clone();
    let decoded = tokio::task::spawn_blocking(move || decode(wire, &bytes, &limits)).await;
    let decoded = decoded.unwrap_or_else(|e| {
        let why = format!("internal error in the witness while decoding: {e}");
        Decoded::refused(500, ProblemCode::BadShape, why)
    });
    (decoded, size)
}

#[cfg(test)]
#[path = "routes_tests.rs"]
mod tests;
