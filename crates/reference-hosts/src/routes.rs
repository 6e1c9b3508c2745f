//! HTTP wiring: discovery, the two ai/call seam paths, the two envelope accept seam
//! paths, and flat-envelope 404/405s.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::Value;

use super::ai_call::validate_call;
use super::auth::check_auth;
use super::body_limit::{BodyError, DEFAULT_CAP, drain, read_capped};
use super::envelope::{EnvelopeState, accept_envelope};
use super::error_body::{ErrorCode, Rejection};
use super::forward;
use super::negotiation::discovery_response;
use super::self_hosted;
use super::upstream::Upstream;
use super::v2_errors;
use super::{Fault, ReferenceConfig};

/// The v1 conformance seam for callAI.
pub const AI_CALL_V1: &str = "/v1/host/sample/ai/call";
/// The v2 spelling of the same seam (normally sent with `OpenWOP-Version: 2.0`; the
/// reference host answers it the same way with or without the header).
pub const AI_CALL_V2: &str = "/conformance/seams/sample/ai/call";
pub const DISCOVERY: &str = "/.well-known/openwop";
/// The v1 conformance seam for accepting an AI envelope (RFC 0021).
pub const ENVELOPE_ACCEPT_V1: &str = "/v1/host/sample/envelope/accept";
/// The v2 spelling of the envelope accept seam.
pub const ENVELOPE_ACCEPT_V2: &str = "/conformance/seams/sample/envelope/accept";

/// What every handler shares: the fixed configuration, and the envelope seam's memory
/// of decided envelopes (correlation dedup).
struct Host {
    config: ReferenceConfig,
    envelopes: EnvelopeState,
    /// The model `provider: compat` calls are forwarded to, when configured.
    upstream: Option<Upstream>,
}

type Shared = Arc<Host>;

/// The reference host as an axum router (no listener; see `spawn`).
pub fn router(config: ReferenceConfig) -> Router {
    let mut app = Router::new().route(DISCOVERY, get(discovery).fallback(method_not_allowed));
    // `seam-missing` leaves the routes out, so the fallback's 404 answers exactly as
    // it would for any path the host never had.
    if !config.faulted(Fault::SeamMissing) {
        app = app
            .route(AI_CALL_V1, post(ai_call_v1).fallback(method_not_allowed))
            .route(AI_CALL_V2, post(ai_call_v2).fallback(method_not_allowed));
    }
    if !config.faulted(Fault::EnvelopeSeamMissing) {
        app = app
            .route(
                ENVELOPE_ACCEPT_V1,
                post(envelope_accept_v1).fallback(method_not_allowed),
            )
            .route(
                ENVELOPE_ACCEPT_V2,
                post(envelope_accept_v2).fallback(method_not_allowed),
            );
    }
    app.fallback(not_found)
        // The seam reads its body under its own cap (body_limit.rs); axum's default
        // 2 MiB limit would otherwise refuse bodies a larger configured max allows.
        .layer(DefaultBodyLimit::disable())
        .with_state(Arc::new(Host {
            upstream: config.upstream.as_ref().map(Upstream::new),
            config,
            envelopes: EnvelopeState::default(),
        }))
}

/// The major a seam speaks: its v2 spelling answers with v2 registry codes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Major {
    V1,
    V2,
}

async fn discovery(State(host): State<Shared>, headers: HeaderMap) -> Response {
    discovery_response(&host.config, &headers)
}

async fn ai_call_v1(state: State<Shared>, headers: HeaderMap, body: Body) -> Response {
    ai_call(state, headers, body, Major::V1).await
}

async fn ai_call_v2(state: State<Shared>, headers: HeaderMap, body: Body) -> Response {
    ai_call(state, headers, body, Major::V2).await
}

async fn envelope_accept_v1(state: State<Shared>, headers: HeaderMap, body: Body) -> Response {
    envelope_accept(state, headers, body, Major::V1).await
}

async fn envelope_accept_v2(state: State<Shared>, headers: HeaderMap, body: Body) -> Response {
    envelope_accept(state, headers, body, Major::V2).await
}

/// Validation decides; a call for the upstream (`forward.rs`) then goes on to it.
async fn ai_call(
    State(host): State<Shared>,
    headers: HeaderMap,
    body: Body,
    major: Major,
) -> Response {
    let config = &host.config;
    let json = match read_json(config, &headers, body).await {
        Ok(json) => json,
        Err(rejection) => return reject(config, rejection, major),
    };
    let self_hosted = self_hosted::named(config, &json);
    if let Some(rejection) = self_hosted::refusal(config, self_hosted) {
        return reject(config, rejection, major);
    }
    let verdict = validate_call(&self_hosted::validation_config(config, self_hosted), &json);
    let answer = match &host.upstream {
        Some(upstream) if forward::selected(config, &json) => {
            forward::forward(config, upstream, &json, verdict).await
        }
        _ => verdict.map(|summary| summary.to_json()),
    };
    match answer {
        Ok(answer) if self_hosted => Json(self_hosted::answer(config, answer)).into_response(),
        Ok(answer) => Json(answer).into_response(),
        Err(rejection) if self_hosted => {
            reject(config, self_hosted::refused(config, rejection), major)
        }
        Err(rejection) if config.faulted(Fault::CrashOnMalformed) && is_shape_error(&rejection) => {
            let crash = Rejection::new(ErrorCode::InternalError, "internal error");
            reject(config, crash, major)
        }
        Err(rejection) => reject(config, rejection, major),
    }
}

/// A refusal of the request's shape (not of a capability, a size or a destination).
fn is_shape_error(rejection: &Rejection) -> bool {
    let ssrf = rejection
        .details
        .as_ref()
        .and_then(|d| d.get("reason"))
        .and_then(Value::as_str)
        == Some(crate::source::SSRF_BLOCKED);
    matches!(
        rejection.code,
        ErrorCode::InvalidRequest | ErrorCode::ValidationError
    ) && !ssrf
}

/// The same auth, cap and JSON rules as ai/call; then the accept pipeline decides.
async fn envelope_accept(
    State(host): State<Shared>,
    headers: HeaderMap,
    body: Body,
    major: Major,
) -> Response {
    match read_json(&host.config, &headers, body).await {
        Ok(json) => {
            let (status, mut answer) = accept_envelope(&host.config, &json, &host.envelopes);
            // The one refusal this seam writes itself: at v2 a registered code.
            if major == Major::V2
                && answer["error"] == "invalid_request"
                && !host.config.faulted(Fault::V2LegacyErrorCodes)
            {
                answer["error"] = ErrorCode::ValidationError.as_str().into();
            }
            (status, Json(answer)).into_response()
        }
        Err(rejection) => reject(&host.config, rejection, major),
    }
}

/// Auth, then the body cap, then JSON: first problem wins. The seam's own rules run
/// on the parsed body afterwards.
async fn read_json(
    config: &ReferenceConfig,
    headers: &HeaderMap,
    body: Body,
) -> Result<Value, Rejection> {
    let cap = config.max_request_body_bytes.unwrap_or(DEFAULT_CAP);
    if let Err(rejection) = check_auth(config, headers) {
        // Drain what the client sends before answering, so it reads the 401 instead
        // of a connection reset mid-upload.
        drain(body, cap).await;
        return Err(rejection);
    }
    let bytes = read_capped(body, cap).await.map_err(|err| match err {
        BodyError::TooLarge { cap } => Rejection::new(
            ErrorCode::PayloadTooLarge,
            format!("request body exceeds {cap} bytes"),
        )
        .with_detail("limitBytes", cap),
        BodyError::Transport(why) => Rejection::new(
            ErrorCode::InvalidRequest,
            format!("could not read the request body: {why}"),
        ),
    })?;
    // Content-Type is not required: the body is JSON or it is not, and refusing a
    // missing header would fail hosts' clients for something RFC 0091 does not cover.
    serde_json::from_slice(&bytes).map_err(|err| {
        Rejection::new(
            ErrorCode::InvalidRequest,
            format!("request body is not valid JSON: {err}"),
        )
    })
}

async fn not_found(State(host): State<Shared>) -> Response {
    reject(
        &host.config,
        Rejection::new(ErrorCode::NotFound, "no such endpoint on this host"),
        Major::V1,
    )
}

async fn method_not_allowed(State(host): State<Shared>) -> Response {
    reject(
        &host.config,
        Rejection::new(
            ErrorCode::MethodNotAllowed,
            "method not allowed on this endpoint",
        ),
        Major::V1,
    )
}

fn reject(config: &ReferenceConfig, rejection: Rejection, major: Major) -> Response {
    match major {
        Major::V1 => rejection.into_response(config.faulted(Fault::NestedErrorBody)),
        Major::V2 => v2_errors::respond(config, rejection),
    }
}
