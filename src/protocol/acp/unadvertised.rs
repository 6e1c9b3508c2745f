//! With `--witness`, what a turn did with a block the agent does not advertise
//! (`acp.unadvertised`). The prompt's text carries the case's nonce, so any turn the
//! agent accepts fails `witness: withheld`; what the model calls carried says which
//! way: a media part among them is "not advertised, used anyway", the text alone is
//! "accepted and ignored silently". Both fail the refusal the case asks for; the name
//! says which of the two the agent did.

use crate::outcome::{AssertionResult, CaseResult};
use crate::witness::case::evidence_carries_media;
use serde_json::Value;

/// Names the failure among the `witness` assertions judged on `result`'s model calls,
/// when it sent unadvertised blocks.
pub fn name(result: &CaseResult, witness: &mut [AssertionResult]) {
    let Some(record) = result.stream.as_ref().map(|s| &s.record) else {
        return;
    };
    let caps: Vec<&str> = record
        .get("unadvertised")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if caps.is_empty() {
        return;
    }
    let caps = caps.join(", ");
    let used = result
        .model_calls
        .iter()
        .flatten()
        .any(|call| evidence_carries_media(&call.record));
    let Some(withheld) = witness
        .iter_mut()
        .find(|a| a.check == "witness.withheld" && !a.passed)
    else {
        return;
    };
    let named = if used {
        format!("not advertised ({caps}), used anyway")
    } else {
        format!(
            "not advertised ({caps}), accepted and ignored silently (only the text reached the model)"
        )
    };
    withheld.actual = format!("{named}: {}", withheld.actual);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::{AssertionResult, EvidenceView, Level, Outcome, ProtocolEvidence};
    use serde_json::json;

    fn evidence(record: Value) -> ProtocolEvidence {
        ProtocolEvidence {
            record,
            view: EvidenceView::default(),
        }
    }

    /// A turn the agent accepted, its model call holding the parts of `kinds`.
    fn accepted(kinds: &[&str]) -> CaseResult {
        let requirement = fixtures::requirement("ACP", Level::Should, "refuse it");
        let mut result = fixtures::case(
            "acp.unadvertised",
            "acp.unadvertised",
            requirement,
            Outcome::Fail,
        );
        result.stream = Some(evidence(
            json!({"classification": "completed", "unadvertised": ["audio"]}),
        ));
        let parts: Vec<Value> = kinds
            .iter()
            .map(|k| json!({"role": "user", "kind": k}))
            .collect();
        result.model_calls = Some(vec![evidence(json!({"parts": parts}))]);
        result.assertions.push(AssertionResult::new(
            "witness.withheld",
            "no model call carries the case's input".into(),
            "answered with success and forwarded to the model".into(),
            false,
        ));
        result
    }

    /// Names the witness assertions `result` holds.
    fn name_in(result: &mut CaseResult) {
        let mut witness = std::mem::take(&mut result.assertions);
        name(result, &mut witness);
        result.assertions = witness;
    }

    #[test]
    fn a_turn_that_used_the_block_and_one_that_ignored_it_are_named_apart() {
        let mut used = accepted(&["text", "audio"]);
        name_in(&mut used);
        assert!(
            used.assertions[0]
                .actual
                .starts_with("not advertised (audio), used anyway:"),
            "{:?}",
            used.assertions
        );
        let mut ignored = accepted(&["text"]);
        name_in(&mut ignored);
        assert!(
            ignored.assertions[0]
                .actual
                .contains("accepted and ignored silently"),
            "{:?}",
            ignored.assertions
        );
        let mut refused = accepted(&[]);
        refused.assertions[0].passed = true;
        name_in(&mut refused);
        assert_eq!(
            refused.assertions[0].actual,
            "answered with success and forwarded to the model"
        );
    }
}
