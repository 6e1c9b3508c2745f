//! The HTTP+JSON binding (§11; 0.3 §3.2.3): `POST {interface}/message:send`,
//! `POST {interface}/message:stream` (SSE), `GET {interface}/tasks/{id}`, 0.3 with `/v1`
//! before each. The request body is the send's params; errors are HTTP statuses with a
//! `google.rpc.Status` body (`error.rs`).

use super::agent::{self, Shared};
use super::error::A2aError;
use super::routes::{sse, version_of};
use super::version::Operation;
use super::{A2aFault, Binding, Version, answer};
use axum::Json;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

fn refused(agent: &Shared, error: &A2aError) -> Response {
    let (status, body) = error.rest(agent.config.faulted(A2aFault::Http415WithoutErrorInfo));
    (status, Json(body)).into_response()
}

/// The version a request to a path of `path_version` is served in, or the error.
fn version(
    agent: &Shared,
    headers: &HeaderMap,
    query: Option<&str>,
    path_version: Version,
) -> Result<Version, A2aError> {
    let version = version_of(&agent.config, Binding::HttpJson, headers, query)?;
    if version != path_version {
        // The path is the other version's: for this version it does not exist.
        return Err(A2aError::new(
            super::error::ErrorKind::MethodNotFound,
            format!("no such operation at A2A {}", version.number()),
        ));
    }
    Ok(version)
}

/// `POST .../message:send` and `.../message:stream`.
pub async fn send(
    agent: Shared,
    operation: Operation,
    path_version: Version,
    headers: HeaderMap,
    query: Option<String>,
    bytes: &[u8],
) -> Response {
    let version = match version(&agent, &headers, query.as_deref(), path_version) {
        Ok(v) => v,
        Err(e) => return refused(&agent, &e),
    };
    let Ok(params) = serde_json::from_slice::<Value>(bytes) else {
        return refused(&agent, &A2aError::invalid("the body is not JSON"));
    };
    match operation {
        Operation::Stream => match agent::stream(&agent, version, &params).await {
            Ok(events) => sse(events),
            Err(e) => refused(&agent, &e),
        },
        _ => match agent::send(&agent, version, &params).await {
            Ok(sent) => Json(sent.answer(&agent.config, version)).into_response(),
            Err(e) => refused(&agent, &e),
        },
    }
}

/// `GET .../tasks/{id}`.
pub fn get_task(
    agent: Shared,
    id: &str,
    path_version: Version,
    headers: HeaderMap,
    query: Option<String>,
) -> Response {
    let version = match version(&agent, &headers, query.as_deref(), path_version) {
        Ok(v) => v,
        Err(e) => return refused(&agent, &e),
    };
    match agent::get_task(&agent, Some(id)) {
        Ok(task) => Json(answer::task(version, &task)).into_response(),
        Err(e) => refused(&agent, &e),
    }
}
