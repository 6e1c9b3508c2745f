//! A refused request: the error the client gets, and why it was refused, which is what
//! the faults key on (a shape error, bad base64, an unknown part type, or a part the
//! model cannot take).

use super::api_error::ApiError;

/// Why a request is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Malformed: the request breaks the wire's shape.
    Shape,
    /// Malformed: base64 that does not decode.
    BadBase64,
    /// Malformed: a content part of a type the wire does not have.
    UnknownPartType,
    /// Well formed, but the model cannot take this kind of part (`image`, `audio`,
    /// `file`, `video`).
    Capability(&'static str),
    /// Anything else (unknown model, auth, body size): no fault bends these.
    Other,
}

impl Cause {
    /// True for the three malformed causes.
    pub fn is_malformed(self) -> bool {
        matches!(
            self,
            Cause::Shape | Cause::BadBase64 | Cause::UnknownPartType
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub error: ApiError,
    pub cause: Cause,
}

impl Refused {
    pub fn new(error: ApiError, cause: Cause) -> Refused {
        Refused { error, cause }
    }

    /// A 400 shape error about `param`.
    pub fn shape(
        param: impl Into<String>,
        code: &'static str,
        message: impl Into<String>,
    ) -> Refused {
        Refused::new(ApiError::invalid(param, code, message), Cause::Shape)
    }
}

/// `field` is required at `path`.
pub fn missing(path: &str) -> Refused {
    Refused::shape(
        path,
        "missing_required_parameter",
        format!("Missing required parameter: '{path}'."),
    )
}

/// `path` has the wrong JSON type.
pub fn wrong_type(path: &str, expected: &str, got: &serde_json::Value) -> Refused {
    Refused::shape(
        path,
        "invalid_type",
        format!(
            "Invalid type for '{path}': expected {expected}, but got {} instead.",
            json_type(got)
        ),
    )
}

/// `path` has a value the wire does not allow.
pub fn invalid_value(path: &str, message: impl Into<String>) -> Refused {
    Refused::shape(path, "invalid_value", message)
}

/// `a string`, `an object`, ... for an error message.
pub fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value::*;
    match value {
        Null => "null",
        Bool(_) => "a boolean",
        Number(_) => "a number",
        String(_) => "a string",
        Array(_) => "an array",
        Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn helpers_name_the_param_and_the_types() {
        let r = wrong_type(
            "messages[0].content[1].image_url",
            "an object",
            &json!("https://x"),
        );
        assert_eq!(r.cause, Cause::Shape);
        assert_eq!(
            r.error.param.as_deref(),
            Some("messages[0].content[1].image_url")
        );
        assert_eq!(r.error.code, Some("invalid_type"));
        assert!(
            r.error.message.contains("got a string"),
            "{}",
            r.error.message
        );
        assert_eq!(
            missing("model").error.code,
            Some("missing_required_parameter")
        );
        assert!(Cause::BadBase64.is_malformed() && !Cause::Capability("image").is_malformed());
        assert!(!Cause::Other.is_malformed());
    }
}
