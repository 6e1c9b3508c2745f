//! Anthropic's error envelope `{type: "error", error: {type, message}}` (API reference,
//! Errors): the body the witness refuses a Messages call with, the `error` event of a
//! stream, and what `error_shape: anthropic` checks a host's refusal against.

use crate::wire::chat::error::json_kind;
use serde_json::{Value, json};

/// The envelope, as an assertion states it.
pub const ENVELOPE: &str = "the Anthropic error envelope {type: \"error\", error: {type, message}}";

/// The `error.type` Anthropic answers with a status.
pub fn error_type(status: u16) -> &'static str {
    match status {
        404 => "not_found_error",
        413 => "request_too_large",
        500.. => "api_error",
        _ => "invalid_request_error",
    }
}

/// The envelope for an answer of `status`.
pub fn body(status: u16, message: &str) -> Value {
    json!({"type": "error", "error": {"type": error_type(status), "message": message}})
}

/// What keeps `body` from being the envelope, if anything. Extra members are allowed
/// (`request_id` is documented).
pub fn problem(body: Option<&Value>) -> Option<String> {
    let Some(body) = body else {
        return Some("the body is not JSON".into());
    };
    match body.get("type") {
        Some(Value::String(t)) if t == "error" => {}
        Some(other) => return Some(format!("`type` is {other}, not \"error\"")),
        None => return Some("no `type` member".into()),
    }
    let Some(error) = body.get("error") else {
        return Some("no `error` member".into());
    };
    let Some(error) = error.as_object() else {
        return Some(format!("`error` is {}, not an object", json_kind(error)));
    };
    for field in ["type", "message"] {
        match error.get(field) {
            Some(Value::String(_)) => {}
            None => return Some(format!("`error.{field}` is missing")),
            Some(other) => {
                return Some(format!(
                    "`error.{field}` is {}, not a string",
                    json_kind(other)
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_built_is_the_envelope_checked() {
        for status in [400, 404, 413, 500] {
            assert_eq!(problem(Some(&body(status, "no"))), None, "{status}");
        }
        assert_eq!(body(413, "x")["error"]["type"], "request_too_large");
        assert_eq!(body(529, "x")["error"]["type"], "api_error");
        assert!(problem(Some(&crate::wire::chat::error::body(400, "x"))).is_some());
    }
}
