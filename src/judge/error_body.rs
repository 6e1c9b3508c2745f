//! Reading an error body (docs/wire.md, "Error bodies"): the code is taken from `code`, then
//! `error` (string), then `error.code`; the shape is recorded because only the flat
//! envelope `{error, message, details?}` conforms.

use serde_json::Value;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorShape {
    /// `{error: string, message: string, details?: object}` and nothing else.
    Flat,
    /// Legacy `{error: {code, message, details}}`, non-conformant since 2026-11-10.
    Nested,
    /// JSON, but neither of the above.
    Other,
    NotJson,
    Empty,
}

impl fmt::Display for ErrorShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorShape::Flat => "flat envelope {error, message, details?}",
            ErrorShape::Nested => {
                "legacy nested {error: {code, message}} (non-conformant since 2026-11-10)"
            }
            ErrorShape::Other => "JSON that is not the error envelope",
            ErrorShape::NotJson => "not JSON",
            ErrorShape::Empty => "empty body",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorReading {
    pub code: Option<String>,
    pub shape: ErrorShape,
}

pub fn read(body: &[u8]) -> ErrorReading {
    if body.iter().all(u8::is_ascii_whitespace) {
        return ErrorReading {
            code: None,
            shape: ErrorShape::Empty,
        };
    }
    let Ok(value) = mmconform_json::bounded::parse(body) else {
        return ErrorReading {
            code: None,
            shape: ErrorShape::NotJson,
        };
    };
    let code = value
        .get("code")
        .and_then(Value::as_str)
        .or_else(|| value.get("error").and_then(Value::as_str))
        .or_else(|| value.pointer("/error/code").and_then(Value::as_str))
        .map(str::to_string);
    ErrorReading {
        code,
        shape: shape_of(&value),
    }
}

fn shape_of(value: &Value) -> ErrorShape {
    let Some(map) = value.as_object() else {
        return ErrorShape::Other;
    };
    let flat = map
        .get("error")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
        && map.get("message").is_some_and(Value::is_string)
        && map.get("details").is_none_or(Value::is_object)
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "error" | "message" | "details"));
    if flat {
        ErrorShape::Flat
    } else if map
        .get("error")
        .and_then(|e| e.get("code"))
        .is_some_and(Value::is_string)
    {
        ErrorShape::Nested
    } else {
        ErrorShape::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_code_in_the_documented_order() {
        let r = read(br#"{"error":"unsupported_modality","message":"m"}"#);
        assert_eq!(
            (r.code.as_deref(), r.shape),
            (Some("unsupported_modality"), ErrorShape::Flat)
        );
        let r = read(br#"{"error":{"code":"unsupported_modality","message":"m"}}"#);
        assert_eq!(
            (r.code.as_deref(), r.shape),
            (Some("unsupported_modality"), ErrorShape::Nested)
        );
        let r = read(br#"{"code":"a","error":"b"}"#);
        assert_eq!((r.code.as_deref(), r.shape), (Some("a"), ErrorShape::Other));
        assert_eq!(read(b"<html>").shape, ErrorShape::NotJson);
        assert_eq!(read(b"").shape, ErrorShape::Empty);
        assert_eq!(read(br#"{"ok":true}"#).code, None);
        assert_eq!(
            read(br#"{"error":"x","message":"m","extra":1}"#).shape,
            ErrorShape::Other
        );
    }
}
