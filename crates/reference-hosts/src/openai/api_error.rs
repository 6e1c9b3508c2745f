//! The OpenAI error envelope the reference server answers with:
//! `{"error": {"message", "type", "param", "code"}}`, `param` and `code` null when
//! there is nothing to name (docs/wire.md, "OpenAI-compatible wire").
//!
//! The `error-body-not-openai` fault renders the same error as `{"error": "<message>"}`
//! here and nowhere else.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// `error.type` of every refusal of the request itself (OpenAI's spelling).
pub const INVALID_REQUEST: &str = "invalid_request_error";

/// The codes of a capability refusal (WIRE: the codes a client maps to
/// `provider_unsupported_content_block`).
pub const IMAGE_NOT_SUPPORTED: &str = "image_content_not_supported";
pub const AUDIO_NOT_SUPPORTED: &str = "audio_content_not_supported";
pub const VIDEO_NOT_SUPPORTED: &str = "video_content_not_supported";
pub const UNSUPPORTED_IMAGE_TYPE: &str = "unsupported_image_media_type";
pub const UNSUPPORTED_BLOCK: &str = "unsupported_content_block";

/// One refusal: the status, and the four envelope fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub kind: &'static str,
    pub param: Option<String>,
    pub code: Option<&'static str>,
}

impl ApiError {
    /// A 400 `invalid_request_error` about `param` (a JSON path such as
    /// `messages[0].content[1]`) with `code`.
    pub fn invalid(
        param: impl Into<String>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            kind: INVALID_REQUEST,
            param: Some(param.into()),
            code: Some(code),
        }
    }

    /// A refusal with no `param` to name.
    pub fn plain(
        status: StatusCode,
        kind: &'static str,
        code: Option<&'static str>,
        message: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            message: message.into(),
            kind,
            param: None,
            code,
        }
    }

    /// True for a capability refusal (the model cannot take a well-formed part).
    #[cfg(test)]
    pub fn is_capability(&self) -> bool {
        matches!(
            self.code,
            Some(
                IMAGE_NOT_SUPPORTED
                    | AUDIO_NOT_SUPPORTED
                    | VIDEO_NOT_SUPPORTED
                    | UNSUPPORTED_IMAGE_TYPE
                    | UNSUPPORTED_BLOCK
            )
        )
    }

    /// The body: the OpenAI envelope, or the bare string shape when `not_openai`.
    pub fn body(&self, not_openai: bool) -> Value {
        if not_openai {
            return json!({"error": self.message});
        }
        json!({"error": {
            "message": self.message,
            "type": self.kind,
            "param": self.param,
            "code": self.code,
        }})
    }

    /// The HTTP answer, with `WWW-Authenticate` on a 401 (RFC 6750).
    pub fn into_response(self, not_openai: bool) -> Response {
        let mut response = (self.status, Json(self.body(not_openai))).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
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
    fn the_envelope_has_exactly_four_fields() {
        let error = ApiError::invalid("messages[0].content[1]", IMAGE_NOT_SUPPORTED, "no images");
        assert!(error.is_capability());
        assert_eq!(
            error.body(false),
            json!({"error": {"message": "no images", "type": "invalid_request_error",
                             "param": "messages[0].content[1]", "code": "image_content_not_supported"}})
        );
        let plain = ApiError::plain(StatusCode::NOT_FOUND, INVALID_REQUEST, None, "gone");
        assert!(!plain.is_capability());
        assert_eq!(plain.body(false)["error"]["param"], Value::Null);
        assert_eq!(plain.body(false)["error"]["code"], Value::Null);
        assert_eq!(plain.body(true), json!({"error": "gone"}));
    }

    #[test]
    fn a_401_names_the_scheme() {
        let response = ApiError::plain(
            StatusCode::UNAUTHORIZED,
            INVALID_REQUEST,
            Some("invalid_api_key"),
            "no",
        )
        .into_response(false);
        assert_eq!(response.headers()[header::WWW_AUTHENTICATE], "Bearer");
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    }
}
