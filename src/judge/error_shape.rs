//! `expect.error_shape`: `flat`, the error body is the flat envelope
//! `{error, message, details?}` and nothing else; `openai`, it is the OpenAI error
//! envelope `{error: {message, type, param?, code?}}` (docs/wire.md, "OpenAI-compatible");
//! `anthropic`, Anthropic's `{type: "error", error: {type, message}}` (API reference,
//! Errors).

use super::error_body::ErrorShape;
use crate::outcome::AssertionResult;
use crate::wire::{anthropic, chat};
use serde_json::Value;

/// The OpenAI envelope, as the assertion states it.
pub const OPENAI_ENVELOPE: &str = chat::error::ENVELOPE;

/// `error_shape: openai`.
pub fn check_openai(body: Option<&Value>) -> AssertionResult {
    let problem = chat::error::problem(body);
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
pub const ANTHROPIC_ENVELOPE: &str = anthropic::error::ENVELOPE;

/// `error_shape: anthropic`.
pub fn check_anthropic(body: Option<&Value>) -> AssertionResult {
    let problem = anthropic::error::problem(body);
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
            anthropic::error::problem(Some(&openai)).unwrap(),
            "no `type` member"
        );
        let flat = serde_json::json!({"type": "error", "error": "m"});
        assert!(
            anthropic::error::problem(Some(&flat))
                .unwrap()
                .contains("not an object")
        );
        let untyped = serde_json::json!({"type": "error", "error": {"message": "m"}});
        assert_eq!(
            anthropic::error::problem(Some(&untyped)).unwrap(),
            "`error.type` is missing"
        );
        assert!(anthropic::error::problem(None).is_some());
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
