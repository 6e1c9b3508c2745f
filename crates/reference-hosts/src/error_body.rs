//! Error codes and the error body the reference host answers with.
//!
//! The canonical v1 envelope is FLAT: `{error: <code>, message, details?}` and no other
//! keys (docs/wire.md, "Error bodies"). The legacy nested `{error: {code, message}}` shape exists here
//! only so the `nested-error-body` fault can prove the tester notices it.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

/// The error codes this host can answer with, each tied to one HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidRequest,
    ValidationError,
    UnsupportedModality,
    UnsupportedMediaType,
    PayloadTooLarge,
    Unauthenticated,
    NotFound,
    MethodNotAllowed,
    InternalError,
    /// The upstream model of a forwarding host could not be reached or failed (502).
    UpstreamUnavailable,
    /// v2: a capability the host does not advertise (an unadvertised modality), 422.
    CapabilityNotProvided,
    /// v2: a destination the egress (SSRF) guard refused, 403.
    EgressDenied,
    /// v2: an `OpenWOP-Version` major the host does not serve, 406.
    ProtocolVersionUnsupported,
    /// Registered nowhere: only the `v2-part-too-large` fault answers it (413), the
    /// spelling of a host that invents its own code for an over-cap part.
    PartTooLarge,
    /// v1: a named provider with no configured endpoint (only the
    /// `self-hosted-not-configured` fault answers it; RFC 0108 §A.2's tell), 422.
    ProviderNotConfigured,
}

impl ErrorCode {
    /// The wire spelling, as it appears in `body.error`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidRequest => "invalid_request",
            ErrorCode::ValidationError => "validation_error",
            ErrorCode::UnsupportedModality => "unsupported_modality",
            ErrorCode::UnsupportedMediaType => "unsupported_media_type",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::PartTooLarge => "part_too_large",
            ErrorCode::Unauthenticated => "unauthenticated",
            ErrorCode::NotFound => "not_found",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::InternalError => "internal_error",
            ErrorCode::UpstreamUnavailable => "upstream_unavailable",
            ErrorCode::CapabilityNotProvided => "capability_not_provided",
            ErrorCode::EgressDenied => "egress_denied",
            ErrorCode::ProtocolVersionUnsupported => "protocol_version_unsupported",
            ErrorCode::ProviderNotConfigured => "provider_not_configured",
        }
    }

    pub fn status(self) -> StatusCode {
        match self {
            ErrorCode::InvalidRequest
            | ErrorCode::ValidationError
            | ErrorCode::UnsupportedModality => StatusCode::BAD_REQUEST,
            ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::PayloadTooLarge | ErrorCode::PartTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::Unauthenticated => StatusCode::UNAUTHORIZED,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ErrorCode::InternalError => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::UpstreamUnavailable => StatusCode::BAD_GATEWAY,
            ErrorCode::CapabilityNotProvided | ErrorCode::ProviderNotConfigured => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ErrorCode::EgressDenied => StatusCode::FORBIDDEN,
            ErrorCode::ProtocolVersionUnsupported => StatusCode::NOT_ACCEPTABLE,
        }
    }
}

/// Why a request was refused: the code, a human message, and optional details
/// (the JSON path of the offending element, so a failing case is easy to read).
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    pub code: ErrorCode,
    pub message: String,
    pub details: Option<Map<String, Value>>,
}

impl Rejection {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Rejection {
            code,
            message: message.into(),
            details: None,
        }
    }

    /// Adds one key to `details`.
    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.details
            .get_or_insert_with(Map::new)
            .insert(key.to_owned(), value.into());
        self
    }

    /// Records where in the request body the problem is (`messages[0].content[1]`).
    pub fn at(self, path: &str) -> Self {
        self.with_detail("path", path)
    }

    pub fn status(&self) -> StatusCode {
        self.code.status()
    }

    /// The body in the flat canonical shape, or the legacy nested one when `nested`.
    pub fn body(&self, nested: bool) -> Value {
        let mut inner = Map::new();
        if nested {
            inner.insert("code".into(), json!(self.code.as_str()));
        } else {
            inner.insert("error".into(), json!(self.code.as_str()));
        }
        inner.insert("message".into(), json!(self.message));
        if let Some(details) = &self.details {
            inner.insert("details".into(), Value::Object(details.clone()));
        }
        if nested {
            json!({ "error": Value::Object(inner) })
        } else {
            Value::Object(inner)
        }
    }

    /// A complete HTTP response (status, JSON body, and `WWW-Authenticate` on 401
    /// because RFC 6750 asks for it and clients use it to pick the scheme).
    pub fn into_response(self, nested: bool) -> Response {
        let mut response = (self.status(), Json(self.body(nested))).into_response();
        if self.code == ErrorCode::Unauthenticated {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_body_has_only_canonical_keys() {
        let body = Rejection::new(ErrorCode::UnsupportedModality, "no audio").body(false);
        assert_eq!(
            body,
            json!({"error": "unsupported_modality", "message": "no audio"})
        );
        let body = Rejection::new(ErrorCode::InvalidRequest, "bad")
            .at("messages[0]")
            .body(false);
        let keys: Vec<_> = body.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["error", "message", "details"]);
        assert_eq!(body["details"]["path"], "messages[0]");
    }

    #[test]
    fn nested_body_is_the_legacy_shape() {
        let body = Rejection::new(ErrorCode::NotFound, "gone").body(true);
        assert_eq!(
            body,
            json!({"error": {"code": "not_found", "message": "gone"}})
        );
    }

    #[test]
    fn statuses_match_the_wire_table() {
        let expected = [
            (ErrorCode::InvalidRequest, 400),
            (ErrorCode::ValidationError, 400),
            (ErrorCode::UnsupportedModality, 400),
            (ErrorCode::UnsupportedMediaType, 415),
            (ErrorCode::PayloadTooLarge, 413),
            (ErrorCode::Unauthenticated, 401),
            (ErrorCode::NotFound, 404),
            (ErrorCode::MethodNotAllowed, 405),
            (ErrorCode::InternalError, 500),
            (ErrorCode::UpstreamUnavailable, 502),
        ];
        for (code, status) in expected {
            assert_eq!(code.status().as_u16(), status, "{}", code.as_str());
        }
    }

    #[test]
    fn unauthenticated_response_names_the_scheme() {
        let response = Rejection::new(ErrorCode::Unauthenticated, "no").into_response(false);
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(response.headers()[header::WWW_AUTHENTICATE], "Bearer");
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    }
}
