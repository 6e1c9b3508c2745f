//! `expect.json_body: true`: the answer's body is a JSON object.

use crate::outcome::AssertionResult;
use mmconform_json::bounded::JsonProblem;
use serde_json::Value;

/// The JSON type of a value, in words.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

pub fn check(
    body: Option<&Value>,
    problem: Option<&JsonProblem>,
    content_type: Option<&str>,
) -> AssertionResult {
    let actual = match body {
        Some(Value::Object(_)) => "a JSON object".to_string(),
        Some(other) => format!("JSON {}", kind(other)),
        None => match problem {
            Some(JsonProblem::TooManyValues) => JsonProblem::TooManyValues.to_string(),
            _ => format!(
                "not JSON (content-type {})",
                content_type.unwrap_or("absent")
            ),
        },
    };
    AssertionResult::new(
        "json_body",
        "a JSON object".into(),
        actual,
        body.is_some_and(Value::is_object),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_passes_anything_else_says_what_it_was() {
        assert!(check(Some(&json!({})), None, None).passed);
        let a = check(Some(&json!([1])), None, None);
        assert_eq!((a.passed, a.actual.as_str()), (false, "JSON array"));
        let a = check(None, None, Some("text/html"));
        assert_eq!(a.actual, "not JSON (content-type text/html)");
    }
}
