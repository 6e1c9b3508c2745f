//! The OpenAI error envelope `{error: {message, type, param?, code?}}`, answered by
//! Chat Completions and Responses alike: the body the witness refuses a call with, and
//! what `error_shape: openai` checks a host's refusal against.

use serde_json::{Value, json};

/// The envelope, as an assertion states it.
pub const ENVELOPE: &str = "the OpenAI error envelope {error: {message, type, param?, code?}}";

/// The `error.type` OpenAI answers with a status.
pub fn error_type(status: u16) -> &'static str {
    match status {
        404 => "not_found_error",
        500.. => "server_error",
        _ => "invalid_request_error",
    }
}

/// The envelope for an answer of `status`.
pub fn body(status: u16, message: &str) -> Value {
    json!({"error": {"message": message, "type": error_type(status), "param": null, "code": null}})
}

/// What keeps `body` from being the envelope, if anything. Extra members are allowed
/// (servers add some); the four named ones have their types.
pub fn problem(body: Option<&Value>) -> Option<String> {
    let Some(body) = body else {
        return Some("the body is not JSON".into());
    };
    let Some(error) = body.get("error") else {
        return Some("no `error` member".into());
    };
    let Some(error) = error.as_object() else {
        return Some(format!("`error` is {}, not an object", json_kind(error)));
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
                return Some(format!(
                    "`error.{field}` is {}, not a string",
                    json_kind(other)
                ));
            }
        }
    }
    None
}

/// A JSON value's kind in words, for problems.
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_built_is_the_envelope_checked() {
        for status in [400, 404, 413, 500] {
            assert_eq!(problem(Some(&body(status, "no"))), None, "{status}");
        }
        assert_eq!(body(404, "x")["error"]["type"], "not_found_error");
        assert_eq!(body(502, "x")["error"]["type"], "server_error");
        assert_eq!(
            problem(Some(&json!({"error": "flat"}))).unwrap(),
            "`error` is a string, not an object"
        );
    }
}
