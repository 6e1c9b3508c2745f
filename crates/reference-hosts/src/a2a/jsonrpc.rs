//! The JSON-RPC 2.0 binding (§9; 0.3 §3.2.1, §7): one POST endpoint, the method in the
//! body, the version in the `A2A-Version` header. Errors are JSON-RPC error objects
//! (HTTP 200); a streamed send answers `text/event-stream`, each event a JSON-RPC
//! response carrying a stream response.

use super::agent::{self, Shared};
use super::error::{A2aError, ErrorKind};
use super::routes::{sse, version_of};
use super::version::Operation;
use super::{Binding, answer};
use axum::Json;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

fn error(id: &Value, error: &A2aError) -> Response {
    Json(json!({"jsonrpc": "2.0", "id": id, "error": error.jsonrpc()})).into_response()
}

fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// `POST /a2a/jsonrpc`.
pub async fn endpoint(
    agent: Shared,
    headers: HeaderMap,
    query: Option<String>,
    bytes: &[u8],
) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(bytes) else {
        return error(
            &Value::Null,
            &A2aError::new(ErrorKind::Parse, "Invalid JSON payload"),
        );
    };
    let id = request.get("id").cloned().unwrap_or(Value::Null);
    let method = request.get("method").and_then(Value::as_str);
    let (true, Some(method)) = (request.get("jsonrpc") == Some(&json!("2.0")), method) else {
        return error(
            &id,
            &A2aError::new(
                ErrorKind::InvalidRequest,
                "Request payload validation error",
            ),
        );
    };
    let version = match version_of(&agent.config, Binding::JsonRpc, &headers, query.as_deref()) {
        Ok(v) => v,
        Err(refused) => return error(&id, &refused),
    };
    let Some(operation) = version.operation(method) else {
        return error(
            &id,
            &A2aError::new(
                ErrorKind::MethodNotFound,
                format!("Method not found: {method}"),
            ),
        );
    };
    let params = request.get("params").cloned().unwrap_or(Value::Null);
    match operation {
        Operation::Send => match agent::send(&agent, version, &params).await {
            Ok(sent) => Json(result(&id, sent.answer(&agent.config, version))).into_response(),
            Err(e) => error(&id, &e),
        },
        Operation::Stream => match agent::stream(&agent, version, &params).await {
            Ok(events) => sse(events.into_iter().map(|e| result(&id, e)).collect()),
            Err(e) => error(&id, &e),
        },
        Operation::GetTask => {
            let task_id = params.get("id").and_then(Value::as_str);
            match agent::get_task(&agent, task_id) {
                Ok(task) => Json(result(&id, answer::task(version, &task))).into_response(),
                Err(e) => error(&id, &e),
            }
        }
    }
}
