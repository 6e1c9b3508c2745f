//! Canonical JSON: object keys sorted, no whitespace. Two documents that differ only in
//! key order or layout hash alike, so a report can name a discovery document (and
//! itself) by a SHA-256 anyone can recompute.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::{BufWriter, Write};

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
    canonical_sha256_without(value, None)
}

/// [`canonical_sha256`] of `value` as if its top-level `key` were absent: a report's
/// digest of itself, recomputed without copying the report to remove the digest.
pub fn canonical_sha256_without_key(value: &Value, key: &str) -> String {
    canonical_sha256_without(value, Some(key))
}

fn canonical_sha256_without(value: &Value, skipped: Option<&str>) -> String {
    // The canonical text comes in pieces of a few bytes (a comma, a key, a number);
    // gathered into blocks, the hasher is called once per block, not once per piece.
    let mut hasher = BufWriter::with_capacity(BLOCK, HashWriter(Sha256::new()));
    // Writing into a hasher cannot fail, and a `Value` always serializes.
    match (value, skipped) {
        (Value::Object(map), Some(skipped)) => {
            write_object(map.iter().filter(|(key, _)| *key != skipped), &mut hasher)
        }
        _ => write_canonical(value, &mut hasher),
    }
    .expect("hashing cannot fail");
    let hasher = hasher
        .into_inner()
        .map_err(|e| e.into_error())
        .expect("hashing cannot fail");
    hex(&hasher.0.finalize())
}

/// How much canonical text is gathered before it is hashed.
const BLOCK: usize = 16 * 1024;

/// `canonical(value)` in serde_json's compact form: its own writer for strings and
/// scalars (the same escaping), keys in sorted order.
fn write_canonical(value: &Value, out: &mut impl Write) -> std::io::Result<()> {
    match value {
        Value::Object(map) => write_object(map.iter(), out),
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

/// An object's entries with their keys in sorted order.
fn write_object<'v>(
    entries: impl Iterator<Item = (&'v String, &'v Value)>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut entries: Vec<(&String, &Value)> = entries.collect();
    entries.sort_unstable_by_key(|(key, _)| *key);
    out.write_all(b"{")?;
    for (i, (key, value)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, key)?;
        out.write_all(b":")?;
        write_canonical(value, out)?;
    }
    out.write_all(b"}")
}

/// Lower-case hex, as every digest mmconform writes.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
            hex(&Sha256::digest(text.as_bytes()))
        );
        assert_ne!(canonical_sha256(&value), canonical_sha256(&json!({})));
    }

    /// Text longer than the hasher's block, in pieces both smaller and larger than it.
    #[test]
    fn a_document_larger_than_a_block_hashes_as_its_canonical_text() {
        let long = "x\"y".repeat(BLOCK);
        let value = json!({"b": [long, 1, {"z": "short", "a": "é".repeat(BLOCK / 3)}], "a": long});
        let text = canonical(&value).to_string();
        assert!(text.len() > 3 * BLOCK);
        assert_eq!(
            canonical_sha256(&value),
            hex(&Sha256::digest(text.as_bytes()))
        );
    }

    #[test]
    fn a_key_left_out_hashes_as_the_document_without_it() {
        let with = json!({"b": 1, "integrity": {"x": 2}, "a": [{"integrity": 3}]});
        let without = json!({"b": 1, "a": [{"integrity": 3}]});
        assert_eq!(
            canonical_sha256_without_key(&with, "integrity"),
            canonical_sha256(&without)
        );
        assert_ne!(canonical_sha256(&with), canonical_sha256(&without));
        // Only an object has keys: anything else hashes whole.
        assert_eq!(
            canonical_sha256_without_key(&json!([1]), "integrity"),
            canonical_sha256(&json!([1]))
        );
    }
}
