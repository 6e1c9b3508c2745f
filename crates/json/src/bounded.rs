//! Parsing JSON a host sent, within a memory bound.
//!
//! A response body is already capped in bytes (`--max-response-bytes`), but bytes are
//! not memory: `[0,0,0,...]` costs two bytes a value on the wire and about eighty as a
//! `serde_json::Value`, so a 4 MiB body can become hundreds of MiB. Before building a
//! value we count its values with a pass that allocates nothing (serde's `IgnoredAny`
//! style), and refuse documents with more than [`MAX_VALUES`]. Nesting is bounded by
//! serde_json's own recursion limit (128), so a deeply nested document is an error,
//! never a stack overflow.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::cell::Cell;
use std::fmt;

/// Most values (scalars, arrays and objects alike) a host document may have. Real
/// discovery documents and error bodies have hundreds; this is about 8 MiB as values.
pub const MAX_VALUES: usize = 100_000;

/// Why a body was not turned into a JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JsonProblem {
    /// Not JSON (including empty, truncated, or nested deeper than 128 levels).
    Invalid(String),
    /// Valid as far as read, but more values than the bound allows.
    TooManyValues,
}

impl fmt::Display for JsonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonProblem::Invalid(e) => write!(f, "not JSON: {e}"),
            JsonProblem::TooManyValues => write!(
                f,
                "JSON with more than {MAX_VALUES} values, not parsed (memory bound)"
            ),
        }
    }
}

/// Parses `bytes` as one JSON document of at most [`MAX_VALUES`] values.
pub fn parse(bytes: &[u8]) -> Result<Value, JsonProblem> {
    parse_with_limit(bytes, MAX_VALUES)
}

pub fn parse_with_limit(bytes: &[u8], limit: usize) -> Result<Value, JsonProblem> {
    check_with_limit(bytes, limit)?;
    serde_json::from_slice(bytes).map_err(|e| JsonProblem::Invalid(e.to_string()))
}

/// Whether `bytes` is one JSON document of at most [`MAX_VALUES`] values, without
/// building it (for a reader that only needs to know).
pub fn check(bytes: &[u8]) -> Result<(), JsonProblem> {
    check_with_limit(bytes, MAX_VALUES)
}

fn check_with_limit(bytes: &[u8], limit: usize) -> Result<(), JsonProblem> {
    let count = Cell::new(0usize);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let counted = Counter {
        count: &count,
        limit,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    match counted {
        Err(_) if count.get() > limit => Err(JsonProblem::TooManyValues),
        Err(e) => Err(JsonProblem::Invalid(e.to_string())),
        Ok(()) => Ok(()),
    }
}

/// Counts values without keeping them; fails once the count passes `limit`.
#[derive(Clone, Copy)]
struct Counter<'a> {
    count: &'a Cell<usize>,
    limit: usize,
}

impl Counter<'_> {
    fn bump<E: serde::de::Error>(self) -> Result<(), E> {
        self.count.set(self.count.get() + 1);
        if self.count.get() > self.limit {
            Err(E::custom("too many values"))
        } else {
            Ok(())
        }
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.bump()
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.bump()
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.bump()
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.bump()
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        self.bump()
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.bump()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.bump()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.bump()?;
        while map.next_key::<serde::de::IgnoredAny>()?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ordinary_documents_keeping_key_order() {
        let v = parse(br#"{"b": [1, 2.5, "x", null, true], "a": {}}"#).unwrap();
        assert_eq!(v.to_string(), r#"{"b":[1,2.5,"x",null,true],"a":{}}"#);
    }

    #[test]
    fn counts_every_value_and_refuses_past_the_limit() {
        // 1 object + 1 array + 3 numbers = 5 values.
        assert!(parse_with_limit(br#"{"a": [1, 2, 3]}"#, 5).is_ok());
        assert_eq!(
            parse_with_limit(br#"{"a": [1, 2, 3]}"#, 4),
            Err(JsonProblem::TooManyValues)
        );
        let wide = format!("[{}0]", "0,".repeat(MAX_VALUES));
        assert_eq!(parse(wide.as_bytes()), Err(JsonProblem::TooManyValues));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(matches!(
            parse(deep.as_bytes()),
            Err(JsonProblem::Invalid(_))
        ));
        let deep = format!("{}1{}", r#"{"a":"#.repeat(100_000), "}".repeat(100_000));
        assert!(matches!(
            parse(deep.as_bytes()),
            Err(JsonProblem::Invalid(_))
        ));
    }

    #[test]
    fn empty_truncated_trailing_and_invalid_utf8_are_invalid() {
        for bad in [
            &b""[..],
            b"{\"a\": [1, 2",
            b"{} x",
            b"\"\xff\xfe\"",
            b"<html>",
        ] {
            assert!(
                matches!(parse(bad), Err(JsonProblem::Invalid(_))),
                "{bad:?}"
            );
        }
    }
}
