//! The errors the agent answers with, spelled per binding: a JSON-RPC error object with
//! its code and a `google.rpc.ErrorInfo` in `data` (§9.5), or, on HTTP+JSON, the HTTP
//! status of §5.4 and a `google.rpc.Status` body whose `details` carry the ErrorInfo
//! A2A-specific errors MUST have (§11.6).

use axum::http::StatusCode;
use serde_json::{Value, json};

/// The ErrorInfo domain of A2A errors (§11.6).
pub const DOMAIN: &str = "a2a-protocol.org";
const ERROR_INFO: &str = "type.googleapis.com/google.rpc.ErrorInfo";

/// One error, with its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct A2aError {
    pub kind: ErrorKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Parse,
    InvalidRequest,
    MethodNotFound,
    InvalidParams,
    Internal,
    TaskNotFound,
    UnsupportedOperation,
    ContentTypeNotSupported,
    VersionNotSupported,
}

impl ErrorKind {
    /// The JSON-RPC code (§5.4, §9.5).
    pub fn code(self) -> i64 {
        match self {
            ErrorKind::Parse => -32700,
            ErrorKind::InvalidRequest => -32600,
            ErrorKind::MethodNotFound => -32601,
            ErrorKind::InvalidParams => -32602,
            ErrorKind::Internal => -32603,
            ErrorKind::TaskNotFound => -32001,
            ErrorKind::UnsupportedOperation => -32004,
            ErrorKind::ContentTypeNotSupported => -32005,
            ErrorKind::VersionNotSupported => -32009,
        }
    }

    /// The ErrorInfo reason of an A2A-specific error (§11.6): the error's name in
    /// UPPER_SNAKE_CASE without `Error`; none for the JSON-RPC standard errors.
    fn reason(self) -> Option<&'static str> {
        Some(match self {
            ErrorKind::TaskNotFound => "TASK_NOT_FOUND",
            ErrorKind::UnsupportedOperation => "UNSUPPORTED_OPERATION",
            ErrorKind::ContentTypeNotSupported => "CONTENT_TYPE_NOT_SUPPORTED",
            ErrorKind::VersionNotSupported => "VERSION_NOT_SUPPORTED",
            _ => return None,
        })
    }

    /// The HTTP status and gRPC status name on HTTP+JSON (§5.4).
    fn http(self) -> (StatusCode, &'static str) {
        match self {
            ErrorKind::TaskNotFound | ErrorKind::MethodNotFound => {
                (StatusCode::NOT_FOUND, "NOT_FOUND")
            }
            ErrorKind::Internal => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL"),
            ErrorKind::UnsupportedOperation | ErrorKind::VersionNotSupported => {
                (StatusCode::BAD_REQUEST, "FAILED_PRECONDITION")
            }
            _ => (StatusCode::BAD_REQUEST, "INVALID_ARGUMENT"),
        }
    }
}

impl A2aError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> A2aError {
        A2aError {
            kind,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> A2aError {
        A2aError::new(ErrorKind::InvalidParams, message)
    }

    fn details(&self) -> Vec<Value> {
        self.kind
            .reason()
            .map(|reason| json!({"@type": ERROR_INFO, "reason": reason, "domain": DOMAIN}))
            .into_iter()
            .collect()
    }

    /// The JSON-RPC error object.
    pub fn jsonrpc(&self) -> Value {
        let mut error = json!({"code": self.kind.code(), "message": self.message});
        let details = self.details();
        if !details.is_empty() {
            error["data"] = Value::Array(details);
        }
        error
    }

    /// The HTTP+JSON status and `google.rpc.Status` body; `bare` (the fault
    /// `http-415-without-error-info`): no ErrorInfo, and a content type refused with
    /// 415 as the 1.0.0 text had it.
    pub fn rest(&self, bare: bool) -> (StatusCode, Value) {
        let (mut status, name) = self.kind.http();
        if bare {
            if self.kind == ErrorKind::ContentTypeNotSupported {
                status = StatusCode::UNSUPPORTED_MEDIA_TYPE;
            }
            return (
                status,
                json!({"error": {"code": status.as_u16(), "message": self.message}}),
            );
        }
        let body = json!({"error": {
            "code": status.as_u16(),
            "status": name,
            "message": self.message,
            "details": self.details(),
        }});
        (status, body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_spelled_per_binding() {
        let refused = A2aError::new(ErrorKind::ContentTypeNotSupported, "no audio");
        let rpc = refused.jsonrpc();
        assert_eq!(rpc["code"], -32005);
        assert_eq!(rpc["data"][0]["reason"], "CONTENT_TYPE_NOT_SUPPORTED");
        let (status, body) = refused.rest(false);
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["error"]["details"][0]["domain"], DOMAIN);
        let invalid = A2aError::invalid("bad").jsonrpc();
        assert_eq!(invalid["code"], -32602);
        assert!(invalid.get("data").is_none());
        let (status, body) = refused.rest(true);
        assert_eq!(status.as_u16(), 415);
        assert!(body["error"].get("details").is_none());
        let (status, _) = A2aError::new(ErrorKind::VersionNotSupported, "no").rest(true);
        assert_eq!(status.as_u16(), 400);
    }
}
