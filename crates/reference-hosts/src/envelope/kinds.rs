//! Envelope kinds: the four universals every AI host handles, the namespaces whose
//! payloads belong to their owner, and the string lists request bodies carry.

use serde_json::Value;

/// The four universal AI envelope kinds (RFC 0021 §B). They are always allowed through
/// the host kind gate, are exempt from node allowlists, and have a payload schema each.
/// Discovery advertises exactly this list as the host's own `supportedEnvelopes`.
pub const UNIVERSAL_ENVELOPES: [&str; 4] = [
    "clarification.request",
    "schema.request",
    "schema.response",
    "error",
];

/// Prefixes of kinds whose payload shape is their owner's business (host-extensions.md
/// canonical-prefix table), so the host never schema-checks them.
const OWNED_PREFIXES: [&str; 3] = ["vendor.", "private.", "x-"];

pub fn is_universal(kind: &str) -> bool {
    UNIVERSAL_ENVELOPES.contains(&kind)
}

pub fn is_namespaced(kind: &str) -> bool {
    OWNED_PREFIXES.iter().any(|prefix| kind.starts_with(prefix))
}

/// The strings of a request field that should be a string array; `None` when the field
/// is absent or not an array, so a malformed list reads as "not given" rather than as
/// "allows nothing". Non-string entries are skipped.
pub fn string_list(body: &Value, field: &str) -> Option<Vec<String>> {
    let list = body.get(field)?.as_array()?;
    Some(
        list.iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn universals_and_namespaces() {
        assert!(is_universal("error"));
        assert!(!is_universal("vendor.acme.error"));
        for kind in ["vendor.acme.prd", "private.x", "x-thing"] {
            assert!(is_namespaced(kind), "{kind}");
        }
        assert!(!is_namespaced("prd.create"));
        assert!(!is_namespaced("vendorish"));
    }

    #[test]
    fn string_lists_skip_junk() {
        let body = json!({"a": ["x", 1, "y"], "b": "x"});
        assert_eq!(string_list(&body, "a"), Some(vec!["x".into(), "y".into()]));
        assert_eq!(string_list(&body, "b"), None);
        assert_eq!(string_list(&body, "c"), None);
    }
}
