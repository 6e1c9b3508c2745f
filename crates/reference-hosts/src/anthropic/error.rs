//! Anthropic's error envelope: `{type: "error", error: {type, message}}`, with the
//! status each error type goes with (Errors reference).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// One refusal: its status, error type and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub kind: &'static str,
    pub message: String,
}

impl ApiError {
    /// 400 `invalid_request_error`.
    pub fn invalid(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_request_error", message)
    }

    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            kind,
            message: message.into(),
        }
    }

    /// The envelope; `flat` (a fault) renders `{"error": "<message>"}` instead.
    pub fn into_response(self, flat: bool) -> Response {
        let body = if flat {
            json!({"error": self.message})
        } else {
            json!({"type": "error", "error": {"type": self.kind, "message": self.message}})
        };
        (self.status, Json(body)).into_response()
    }
}
