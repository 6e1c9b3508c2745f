//! With `--witness`, what a turn did with a block the agent does not advertise
//! (`acp.unadvertised`): the witness's `withheld` judgement says whether the model saw
//! it, the turn's answer whether the agent said so. A turn that ended normally while its
//! model call carried the block is named "not advertised, used anyway"; one whose model
//! never saw it, "accepted and ignored silently". Both fail the refusal the case asks
//! for; the names say which of the two the agent did.

use crate::outcome::CaseResult;
use serde_json::Value;

/// Names the failure of `result`, when it sent unadvertised blocks and the witness judged it.
pub fn name(result: &mut CaseResult) {
    let Some(record) = result.stream.as_ref().map(|s| &s.record) else {
        return;
    };
    let caps: Vec<&str> = record
        .get("unadvertised")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let ended = matches!(
        record.get("classification").and_then(Value::as_str),
        Some("completed" | "stopped")
    );
    if caps.is_empty() || !ended {
        return;
    }
    let caps = caps.join(", ");
    let Some(withheld) = result
        .assertions
        .iter_mut()
        .find(|a| a.check == "witness.withheld")
    else {
        return;
    };
    if withheld.passed {
        result.notes.push(format!(
            "not advertised ({caps}), accepted and ignored silently: the turn ended normally and the model never saw it"
        ));
    } else {
        withheld.actual = format!("not advertised ({caps}), used anyway: {}", withheld.actual);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::{AssertionResult, EvidenceView, Level, Outcome, ProtocolEvidence};
    use serde_json::json;

    fn turn(classification: &str, withheld: bool) -> CaseResult {
        let requirement = fixtures::requirement("ACP", Level::Should, "refuse it");
        let mut result = fixtures::case(
            "acp.unadvertised",
            "acp.unadvertised",
            requirement,
            Outcome::Fail,
        );
        result.stream = Some(ProtocolEvidence {
            record: json!({"classification": classification, "unadvertised": ["audio"]}),
            view: EvidenceView::default(),
        });
        result.assertions.push(AssertionResult::new(
            "witness.withheld",
            "no model call carries the case's input".into(),
            "the model received: audio".into(),
            withheld,
        ));
        result
    }

    #[test]
    fn a_turn_that_used_the_block_and_one_that_ignored_it_are_named_apart() {
        let mut used = turn("completed", false);
        name(&mut used);
        assert!(
            used.assertions[0]
                .actual
                .starts_with("not advertised (audio), used anyway"),
            "{:?}",
            used.assertions
        );
        let mut ignored = turn("completed", true);
        name(&mut ignored);
        assert!(ignored.notes.iter().any(|n| n.contains("ignored silently")));
        let mut refused = turn("rejected", true);
        name(&mut refused);
        assert!(refused.notes.is_empty());
        assert_eq!(refused.assertions[0].actual, "the model received: audio");
    }
}
