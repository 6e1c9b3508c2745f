//! Canonical JSON: object keys sorted, no whitespace. Two documents that differ only in
//! key order or layout hash alike, so a report can name a discovery document (and
//! itself) by a SHA-256 anyone can recompute.

use crate::digest::hex;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::Write;

#[cfg(test)]
/// The document with every object's keys sorted, so equal documents hash equally.
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = serde_json::Map::new();
            for k in keys {
                out.insert(k.clone(), canonical(&map[k]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// The SHA-256 of `canonical(value).to_string()`, written straight into the hasher: a
/// report's whole document is neither copied nor held as text to be hashed.
pub fn canonical_sha256(value: &Value) -> String {
    let mut hasher = HashWriter(Sha256::new());
    // Writing into a hasher cannot fail, and a `Value` always serializes.
    write_canonical(value, &mut hasher).expect("hashing cannot fail");
    hex(&hasher.0.finalize())
}

/// `canonical(value)` in serde_json's compact form: its own writer for strings and
/// scalars (the same escaping), keys in sorted order.
fn write_canonical(value: &Value, out: &mut impl Write) -> std::io::Result<()> {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.write_all(b"{")?;
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *out, key)?;
                out.write_all(b":")?;
                write_canonical(&map[key], out)?;
            }
            out.write_all(b"}")
        }
        Value::Array(items) => {
            out.write_all(b"[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                write_canonical(item, out)?;
            }
            out.write_all(b"]")
        }
        scalar => Ok(serde_json::to_writer(out, scalar)?),
    }
}

struct HashWriter(Sha256);

impl Write for HashWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_hash_ignores_key_order() {
        let a = json!({"b": 1, "a": {"y": [1, {"d": 0, "c": 1}], "x": null}});
        let b = json!({"a": {"x": null, "y": [1, {"c": 1, "d": 0}]}, "b": 1});
        assert_eq!(canonical_sha256(&a), canonical_sha256(&b));
        assert_ne!(canonical_sha256(&a), canonical_sha256(&json!({"b": 2})));
        assert_eq!(
            canonical(&a).to_string(),
            r#"{"a":{"x":null,"y":[1,{"c":1,"d":0}]},"b":1}"#
        );
    }

    /// The streamed hash is the hash of the canonical document's text, escapes,
    /// numbers and empty containers included.
    #[test]
    fn the_streamed_hash_is_the_hash_of_the_canonical_text() {
        let value = json!({
            "z": "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é 😀",
            "a": [1.5, -0.0, 1e300, 18446744073709551615u64, -9223372036854775808i64],
            "m": {}, "l": [], "t": true, "f": false, "n": null,
            "nested": {"b": [{"y": 1, "x": [[]]}], "a": ""}
        });
        let text = canonical(&value).to_string();
        assert_eq!(
            canonical_sha256(&value),
            crate::digest::sha256_hex(text.as_bytes())
        );
        assert_ne!(canonical_sha256(&value), canonical_sha256(&json!({})));
    }
}
