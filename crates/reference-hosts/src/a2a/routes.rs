//! HTTP wiring of the reference agent: the card (public), the JSON-RPC endpoint and the
//! HTTP+JSON operations (behind the bearer token when one is configured), the version
//! every operation is served in, SSE bodies, and JSON 404s.

use super::agent::{Agent, Shared};
use super::error::{A2aError, ErrorKind};
use super::tasks::Tasks;
use super::version::Operation;
use super::{A2aFault, AgentConfig, Binding, CARD_PATH, JSONRPC_PATH, REST_PATH, Version};
use super::{card, jsonrpc, rest};
use crate::auth::presented_bearer;
use crate::body_limit::{BodyError, DEFAULT_CAP, read_capped};
use crate::upstream::Upstream;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::sync::Arc;

/// Where the pre-0.3 drafts put the card (served only by `card-at-old-path`).
const OLD_CARD_PATH: &str = "/.well-known/agent.json";

/// The reference agent as an axum router (no listener; see `spawn`).
pub fn router(config: AgentConfig) -> Router {
    let upstream = config
        .upstream
        .as_ref()
        .map(|url| Upstream::over(url, config.upstream_wire));
    let agent = Arc::new(Agent {
        config,
        upstream,
        tasks: Tasks::default(),
    });
    let mut app = Router::new().route(JSONRPC_PATH, post(jsonrpc_endpoint));
    for version in [Version::V1, Version::V03] {
        let prefix = format!("{REST_PATH}{}", version.rest_prefix());
        app = app
            .route(
                &format!("{prefix}/message:send"),
                post(move |s, h, q, b| rest_send(s, h, q, b, Operation::Send, version)),
            )
            .route(
                &format!("{prefix}/message:stream"),
                post(move |s, h, q, b| rest_send(s, h, q, b, Operation::Stream, version)),
            )
            .route(
                &format!("{prefix}/tasks/{{id}}"),
                get(move |s, p, h, q| rest_task(s, p, h, q, version)),
            );
    }
    app.route(CARD_PATH, get(card_endpoint))
        .route(OLD_CARD_PATH, get(old_card_endpoint))
        .fallback(not_found)
        .layer(DefaultBodyLimit::disable())
        .with_state(agent)
}

/// The version an operation on `binding` is served in: the one requested when the
/// agent offers it there, else VersionNotSupportedError (§3.6.2), unless the
/// `ignores-version-header` fault serves it as 1.0.
pub fn version_of(
    config: &AgentConfig,
    binding: Binding,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<Version, A2aError> {
    let offered = config.versions_on(binding);
    let requested = Version::requested(headers, query);
    match requested {
        Ok(v) if offered.contains(&v) => Ok(v),
        _ if config.faulted(A2aFault::IgnoresVersionHeader) && offered.contains(&Version::V1) => {
            Ok(Version::V1)
        }
        Ok(v) => Err(unsupported(v.number(), &offered)),
        Err(raw) => Err(unsupported(&raw, &offered)),
    }
}

fn unsupported(asked: &str, offered: &[Version]) -> A2aError {
    let offered: Vec<&str> = offered.iter().map(|v| v.number()).collect();
    A2aError::new(
        ErrorKind::VersionNotSupported,
        format!(
            "A2A version {asked} is not supported here (supported: {})",
            offered.join(", ")
        ),
    )
}

/// An SSE body of `events`, one `data:` frame each.
pub fn sse(events: Vec<Value>) -> Response {
    let mut body = Vec::new();
    for event in events {
        let frame = sse_stream::Sse::default()
            .data(event.to_string())
            .encode()
            .expect("a frame with data only always encodes");
        body.extend_from_slice(&frame);
    }
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The bearer check: nothing when no token is configured or the right one is
/// presented; otherwise 401 with `WWW-Authenticate: Bearer`. The token is never echoed.
fn unauthorized(config: &AgentConfig, headers: &HeaderMap) -> Option<Response> {
    let expected = config.token.as_deref()?;
    if config.faulted(A2aFault::IgnoresAuth) || presented_bearer(headers) == Some(expected) {
        return None;
    }
    let mut refused = (
        StatusCode::UNAUTHORIZED,
        Json(json!({"error": {"code": 401, "status": "UNAUTHENTICATED", "message": "a bearer token is required"}})),
    )
        .into_response();
    refused
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    Some(refused)
}

/// The body, or the answer that ends the request (401, 413, a broken upload).
async fn admitted(agent: &Agent, headers: &HeaderMap, body: Body) -> Result<Vec<u8>, Response> {
    if let Some(refused) = unauthorized(&agent.config, headers) {
        return Err(refused);
    }
    match read_capped(body, DEFAULT_CAP).await {
        Ok(bytes) => Ok(bytes),
        Err(BodyError::TooLarge { cap }) => Err((
            StatusCode::PAYLOAD_TOO_LARGE,
            Json(json!({"error": {"code": 413, "message": format!("body over {cap} bytes")}})),
        )
            .into_response()),
        Err(BodyError::Transport(why)) => Err((StatusCode::BAD_REQUEST, why).into_response()),
    }
}

async fn jsonrpc_endpoint(
    State(agent): State<Shared>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Body,
) -> Response {
    match admitted(&agent, &headers, body).await {
        Ok(bytes) => jsonrpc::endpoint(agent, headers, query, &bytes).await,
        Err(refused) => refused,
    }
}

async fn rest_send(
    State(agent): State<Shared>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Body,
    operation: Operation,
    version: Version,
) -> Response {
    match admitted(&agent, &headers, body).await {
        Ok(bytes) => rest::send(agent, operation, version, headers, query, &bytes).await,
        Err(refused) => refused,
    }
}

async fn rest_task(
    State(agent): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    version: Version,
) -> Response {
    if let Some(refused) = unauthorized(&agent.config, &headers) {
        return refused;
    }
    rest::get_task(agent, &id, version, headers, query)
}

/// The origin the card was asked for (`http://<Host>`), for its interface URLs.
fn origin(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1");
    format!("http://{host}")
}

async fn card_endpoint(State(agent): State<Shared>, headers: HeaderMap) -> Response {
    if agent.config.faulted(A2aFault::CardAtOldPath) {
        return not_found().await;
    }
    if agent.config.faulted(A2aFault::CardNotJson) {
        let page = "<html><body>mmconform reference A2A agent</body></html>";
        return ([(header::CONTENT_TYPE, "text/html")], page).into_response();
    }
    Json(card::card(&agent.config, &origin(&headers))).into_response()
}

async fn old_card_endpoint(State(agent): State<Shared>, headers: HeaderMap) -> Response {
    if !agent.config.faulted(A2aFault::CardAtOldPath) {
        return not_found().await;
    }
    Json(card::card(&agent.config, &origin(&headers))).into_response()
}

async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({"error": {"code": 404, "status": "NOT_FOUND", "message": "Not Found"}})),
    )
        .into_response()
}
