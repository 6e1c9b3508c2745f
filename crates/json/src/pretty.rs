//! The pretty form of a document, and parsing one back.

use serde_json::Value;

/// `value` as serde_json's pretty printer writes it (two-space indents), without a
/// final newline.
pub fn pretty(value: &Value) -> Vec<u8> {
    // A `Value` always serializes: its keys are strings and its numbers finite.
    serde_json::to_vec_pretty(value).expect("a JSON value serializes")
}

/// `bytes` parsed as one JSON document.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    serde_json::from_slice(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pretty_is_serde_jsons_pretty_form_and_parses_back() {
        let value = json!({"b": [1, {"c": "é\n"}], "a": null, "e": {}});
        let text = pretty(&value);
        assert_eq!(text, serde_json::to_vec_pretty(&value).unwrap());
        assert!(
            String::from_utf8(text.clone())
                .unwrap()
                .contains("\n  \"b\": [\n    1,")
        );
        assert_eq!(from_slice(&text).unwrap(), value);
        assert!(from_slice(b"{\"a\": }").is_err());
    }
}
