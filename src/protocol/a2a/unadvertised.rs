//! With `--witness`, what an agent did with a part of a media type its card does not
//! list, when it accepted the message: the part reached its model (the card
//! under-declares what the agent takes) or only the text did (the part was dropped
//! while the answer said success: the silent drop). Both fail `witness: withheld`;
//! the name says which.

use crate::outcome::{AssertionResult, CaseResult};
use crate::witness::case::evidence_carries_media;
use serde_json::Value;

/// Names the failed `witness.withheld` assertion of a case that sent unadvertised
/// media the agent accepted.
pub fn name(result: &CaseResult, witness: &mut [AssertionResult]) {
    let Some(record) = result.stream.as_ref().map(|s| &s.record) else {
        return;
    };
    let types: Vec<&str> = record
        .get("unadvertised")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if types.is_empty() {
        return;
    }
    let Some(withheld) = witness
        .iter_mut()
        .find(|a| a.check == "witness.withheld" && !a.passed)
    else {
        return;
    };
    let types = types.join(", ");
    let used = result
        .model_calls
        .iter()
        .flatten()
        .any(|call| evidence_carries_media(&call.record));
    let named = if used {
        format!(
            "the card under-declares: {types} is not in its defaultInputModes, yet the agent accepted it and handed it to its model"
        )
    } else {
        format!(
            "silent drop: the agent accepted the {types} part, answered success, and its model received only the text"
        )
    };
    withheld.actual = format!("{named}: {}", withheld.actual);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::{EvidenceView, Level, Outcome, ProtocolEvidence};
    use serde_json::json;

    fn accepted(kinds: &[&str]) -> CaseResult {
        let requirement = fixtures::requirement("A2A", Level::Should, "refuse it");
        let mut result = fixtures::case("a2a.refuse", "a2a.refuse", requirement, Outcome::Fail);
        result.stream = Some(ProtocolEvidence {
            record: json!({"classification": "completed", "unadvertised": ["audio/mpeg"]}),
            view: EvidenceView::default(),
        });
        let parts: Vec<Value> = kinds
            .iter()
            .map(|k| json!({"role": "user", "kind": k}))
            .collect();
        result.model_calls = Some(vec![ProtocolEvidence {
            record: json!({"parts": parts}),
            view: EvidenceView::default(),
        }]);
        result
    }

    fn withheld() -> Vec<AssertionResult> {
        vec![AssertionResult::new(
            "witness.withheld",
            "no model call carries the case's input".into(),
            "forwarded".into(),
            false,
        )]
    }

    #[test]
    fn under_declared_and_dropped_are_named_apart() {
        let mut witness = withheld();
        name(&accepted(&["text", "audio"]), &mut witness);
        assert!(
            witness[0]
                .actual
                .starts_with("the card under-declares: audio/mpeg"),
            "{witness:?}"
        );
        let mut witness = withheld();
        name(&accepted(&["text"]), &mut witness);
        assert!(witness[0].actual.starts_with("silent drop"), "{witness:?}");
        let mut passed = vec![AssertionResult::new(
            "witness.withheld",
            "x".into(),
            "y".into(),
            true,
        )];
        name(&accepted(&["text"]), &mut passed);
        assert_eq!(passed[0].actual, "y");
    }
}
