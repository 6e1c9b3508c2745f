//! `expect.error_shape`: `flat`, the error body is the flat envelope
//! `{error, message, details?}` and nothing else; `openai`, it is the OpenAI error
//! envelope `{error: {message, type, param?, code?}}` (docs/wire.md, "OpenAI-compatible");
//! `anthropic`, Anthropic's `{type: "error", error: {type, message}}` (API reference,
//! Errors).

use super::error_body::ErrorShape;
use crate::outcome::AssertionResult;
use serde_json::Value;

/// The OpenAI envelope, as the assertion states it.
pub const OPENAI_ENVELOPE: &str =
    "the OpenAI error envelope {error: {message, type, param?, code?}}";

/// What keeps `body` from being the OpenAI error envelope, if anything. Extra members
/// are allowed (servers add some); the four named ones have their types.
pub fn openai_envelope_problem(body: Option<&Value>) -> Option<String> {
    let Some(body) = body else {
        return Some("the body is not JSON".into());
    };
    let Some(error) = body.get("error") else {
        return Some("no `error` member".into());
    };
    let Some(error) = error.as_object() else {
        return Some(format!("`error` is {}, not an object", kind(error)));
    };
    for (field, required) in [
        ("message", true),
        ("type", true),
        ("param", false),
        ("code", false),
    ] {
        match error.get(field) {
            None if required => return Some(format!("`error.{field}` is missing")),
            None | Some(Value::String(_)) => {}
            Some(Value::Null) if !required => {}
            // OpenAI sends `code` as a string; some servers send the HTTP status number.
            Some(Value::Number(_)) if field == "code" => {}
            Some(other) => {
                return Some(format!("`error.{field}` is {}, not a string", kind(other)));
            }
        }
    }
    None
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `error_shape: openai`.
pub fn check_openai(body: Option<&Value>) -> AssertionResult {
    let problem = openai_envelope_problem(body);
    AssertionResult::new(
        "error_shape",
        OPENAI_ENVELOPE.into(),
        problem
            .clone()
            .unwrap_or_else(|| "the OpenAI error envelope".into()),
        problem.is_none(),
    )
}

/// Anthropic's envelope, as the assertion states it.
pub const ANTHROPIC_ENVELOPE: &str =
    "the Anthropic error envelope {type: \"error\", error: {type, message}}";

/// What keeps `body` from being Anthropic's error envelope, if anything. Extra members
/// are allowed (`request_id` is documented).
pub fn anthropic_envelope_problem(body: Option<&Value>) -> Option<String> {
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
        return Some(format!("`error` is {}, not an object", kind(error)));
    };
    for field in ["type", "message"] {
        match error.get(field) {
            Some(Value::String(_)) => {}
            None => return Some(format!("`error.{field}` is missing")),
            Some(other) => {
                return Some(format!("`error.{field}` is {}, not a string", kind(other)));
            }
        }
    }
    None
}

/// `error_shape: anthropic`.
pub fn check_anthropic(body: Option<&Value>) -> AssertionResult {
    let problem = anthropic_envelope_problem(body);
    AssertionResult::new(
        "error_shape",
        ANTHROPIC_ENVELOPE.into(),
        problem
            .clone()
            .unwrap_or_else(|| "the Anthropic error envelope".into()),
        problem.is_none(),
    )
}

pub fn check(shape: ErrorShape) -> AssertionResult {
    AssertionResult::new(
        "error_shape",
        ErrorShape::Flat.to_string(),
        shape.to_string(),
        shape == ErrorShape::Flat,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_anthropic_envelope_is_typed_error_with_type_and_message() {
        let good = serde_json::json!({"type": "error", "error": {"type": "invalid_request_error", "message": "m"}, "request_id": "r"});
        assert!(check_anthropic(Some(&good)).passed);
        let openai =
            serde_json::json!({"error": {"type": "invalid_request_error", "message": "m"}});
        assert_eq!(
            anthropic_envelope_problem(Some(&openai)).unwrap(),
            "no `type` member"
        );
        let flat = serde_json::json!({"type": "error", "error": "m"});
        assert!(
            anthropic_envelope_problem(Some(&flat))
                .unwrap()
                .contains("not an object")
        );
        let untyped = serde_json::json!({"type": "error", "error": {"message": "m"}});
        assert_eq!(
            anthropic_envelope_problem(Some(&untyped)).unwrap(),
            "`error.type` is missing"
        );
        assert!(anthropic_envelope_problem(None).is_some());
    }

    #[test]
    fn the_openai_envelope_and_what_breaks_it() {
        use serde_json::json;
        let ok = json!({"error": {"message": "no images", "type": "invalid_request_error", "param": null, "code": null}});
        assert!(check_openai(Some(&ok)).passed);
        let llama =
            json!({"error": {"code": 400, "message": "x", "type": "invalid_request_error"}});
        assert!(check_openai(Some(&llama)).passed);
        for (body, problem) in [
            (
                json!({"error": "bad", "message": "x"}),
                "`error` is a string, not an object",
            ),
            (
                json!({"error": {"message": "x"}}),
                "`error.type` is missing",
            ),
            (
                json!({"error": {"message": 1, "type": "t"}}),
                "`error.message` is a number, not a string",
            ),
            (json!({"detail": "x"}), "no `error` member"),
        ] {
            let a = check_openai(Some(&body));
            assert!(!a.passed);
            assert_eq!(a.actual, problem);
        }
        assert_eq!(check_openai(None).actual, "the body is not JSON");
    }

    #[test]
    fn only_flat_passes() {
        assert!(check(ErrorShape::Flat).passed);
        assert!(!check(ErrorShape::Nested).passed);
    }
}
