//! Cases that exist only behind `--allow-external-probe-urls`: a case whose `applies`
//! holds `{path: run.externalProbeUrls, equals: true}` may name a probe URL outside
//! loopback (lint lets it through), and is excluded from any run without the flag, as
//! `--filter` would exclude it (a choice of the user, so `--require` does not count it).
//! RFC 0196's "a public NAT64 address is not refused" is one: it needs a public URL.

use crate::scenario::model::{CaseSpec, Predicate};
use serde_json::Value;

/// The run fact the gate reads (`run.externalProbeUrls`).
pub const FACT: &str = "run.externalProbeUrls";

/// Why a run without the flag leaves a gated case out.
pub const EXCLUDED: &str =
    "sends a URL outside loopback: runs only with --allow-external-probe-urls";

/// Whether `spec` is gated on the flag.
pub fn gated(spec: &CaseSpec) -> bool {
    spec.applies.iter().any(|p| {
        matches!(p, Predicate::Atom(check)
            if check.path == FACT && check.equals == Some(Value::Bool(true)))
    })
}

/// [`gated`] for a case as written (lint reads raw JSON).
pub fn gated_raw(case: &Value) -> bool {
    case["applies"].as_array().is_some_and(|applies| {
        applies
            .iter()
            .any(|p| p["path"] == FACT && p["equals"] == Value::Bool(true))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_top_level_equality_to_true_gates() {
        let spec = |applies: Value| -> CaseSpec {
            serde_json::from_value(json!({
                "id": "x.y", "title": "t",
                "requirement": {"source": "s", "level": "SHOULD", "text": "t"},
                "applies": applies,
                "expect": {"status": 200}
            }))
            .unwrap()
        };
        let gate = json!([{"path": FACT, "equals": true}]);
        assert!(gated(&spec(gate.clone())));
        assert!(gated_raw(&json!({"applies": gate})));
        let other = json!([{"path": FACT, "equals": false}]);
        assert!(!gated(&spec(other.clone())));
        assert!(!gated_raw(&json!({"applies": other})));
        assert!(!gated(&spec(json!([]))));
    }
}
