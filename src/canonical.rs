//! Canonical JSON: object keys sorted, no whitespace. Two documents that differ only in
//! key order or layout hash alike, so a report can name a discovery document (and
//! itself) by a SHA-256 anyone can recompute.

use crate::digest::sha256_hex;
use serde_json::{Map, Value};

/// The document with every object's keys sorted, so equal documents hash equally.
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), canonical(&map[k]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

pub fn canonical_sha256(value: &Value) -> String {
    sha256_hex(canonical(value).to_string().as_bytes())
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
}
