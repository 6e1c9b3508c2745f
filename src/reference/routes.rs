//! HTTP wiring: discovery, the two ai/call seam paths, and flat-envelope 404/405s.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use super::ai_call::validate_call;
use super::auth::check_auth;
use super::body_limit::{BodyError, DEFAULT_CAP, drain, read_capped};
use super::discovery::discovery_document;
use super::error_body::{ErrorCode, Rejection};
use super::{Fault, ReferenceConfig};

/// The v1 conformance seam for callAI.
pub const AI_CALL_V1: &str = "/v1/host/sample/ai/call";
/// The v2 spelling of the same seam (normally sent with `OpenWOP-Version: 2.0`; the
/// reference host answers it the same way with or without the header).
pub const AI_CALL_V2: &str = "/conformance/seams/sample/ai/call";
pub const DISCOVERY: &str = "/.well-known/openwop";

type Shared = Arc<ReferenceConfig>;

/// The reference host as an axum router (no listener; see `spawn`).
pub fn router(config: ReferenceConfig) -> Router {
    let mut app = Router::new().route(DISCOVERY, get(discovery).fallback(method_not_allowed));
    // `seam-missing` leaves the routes out, so the fallback's 404 answers exactly as
    // it would for any path the host never had.
    if !config.faulted(Fault::SeamMissing) {
        app = app.route(AI_CALL_V1, seam()).route(AI_CALL_V2, seam());
    }
    app.fallback(not_found)
        // The seam reads its body under its own cap (body_limit.rs); axum's default
        // 2 MiB limit would otherwise refuse bodies a larger configured max allows.
        .layer(DefaultBodyLimit::disable())
        .with_state(Arc::new(config))
}

fn seam() -> MethodRouter<Shared> {
    post(ai_call).fallback(method_not_allowed)
}

async fn discovery(State(config): State<Shared>) -> Json<Value> {
    Json(discovery_document(&config))
}

async fn ai_call(State(config): State<Shared>, headers: HeaderMap, body: Body) -> Response {
    match handle_call(&config, &headers, body).await {
        Ok(summary) => Json(json!({
            "ok": true,
            "accepted": true,
            "advertised": summary.advertised,
            "modalities": summary.modalities,
            "parts": summary.parts,
        }))
        .into_response(),
        Err(rejection) => reject(&config, rejection),
    }
}

/// Auth, then the body cap, then JSON, then the message rules: first problem wins.
async fn handle_call(
    config: &ReferenceConfig,
    headers: &HeaderMap,
    body: Body,
) -> Result<super::AcceptedSummary, Rejection> {
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
    let json: Value = serde_json::from_slice(&bytes).map_err(|err| {
        Rejection::new(
            ErrorCode::InvalidRequest,
            format!("request body is not valid JSON: {err}"),
        )
    })?;
    validate_call(config, &json)
}

async fn not_found(State(config): State<Shared>) -> Response {
    reject(
        &config,
        Rejection::new(ErrorCode::NotFound, "no such endpoint on this host"),
    )
}

async fn method_not_allowed(State(config): State<Shared>) -> Response {
    reject(
        &config,
        Rejection::new(
            ErrorCode::MethodNotAllowed,
            "method not allowed on this endpoint",
        ),
    )
}

fn reject(config: &ReferenceConfig, rejection: Rejection) -> Response {
    rejection.into_response(config.faulted(Fault::NestedErrorBody))
}
