//! `expect.stream` on an OpenAI answer: the bucket it may (not) fall in, and the
//! completion rules (a valid `chat.completion`, or chunks ending in `data: [DONE]` with
//! a `finish_reason`), each present field one assertion, named as AG-UI's are.

use super::CompletionEvidence;
use crate::outcome::AssertionResult;
use crate::scenario::model::StreamExpectation;
use crate::scenario::stream::StreamClass;

fn names(classes: &[StreamClass]) -> String {
    classes
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn judge_stream(
    expect: &StreamExpectation,
    evidence: &CompletionEvidence,
    out: &mut Vec<AssertionResult>,
) {
    let class = evidence.classification;
    if let Some(allowed) = &expect.classification {
        let allowed = allowed.to_vec();
        out.push(AssertionResult::new(
            "stream.classification",
            format!("one of {}", names(&allowed)),
            evidence.summary(),
            allowed.contains(&class),
        ));
    }
    if !expect.not.is_empty() {
        out.push(AssertionResult::new(
            "stream.not",
            format!("none of {}", names(&expect.not)),
            evidence.summary(),
            !expect.not.contains(&class),
        ));
    }
    // The completion rules apply to a 2xx read to a verdict: not to a 4xx or 5xx, nor
    // to an answer cut short by our own limits.
    let answered = (200..300).contains(&evidence.status);
    if expect.ordering && answered && class != StreamClass::Unfinished {
        let expected = if evidence.responses && evidence.stream_requested {
            "response.* events in sequence, ending with response.completed and nothing after"
        } else if evidence.responses {
            "a response object with status completed and an output list"
        } else if evidence.stream_requested {
            "chat.completion.chunk events, a finish_reason, then data: [DONE] and nothing after"
        } else {
            "a chat.completion with choices and a finish_reason"
        };
        let actual = if evidence.problems.is_empty() {
            evidence.summary()
        } else {
            evidence.problems.join("; ")
        };
        out.push(AssertionResult::new(
            "stream.ordering",
            expected.into(),
            actual,
            class != StreamClass::Broken,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::openai::classify::classify_body;
    use crate::protocol::sse_read::ReadEnd;
    use serde_json::json;

    fn expect(v: serde_json::Value) -> StreamExpectation {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn each_field_is_one_assertion_and_rules_apply_to_2xx_only() {
        let broken = classify_body(200, None, false, b"{}", ReadEnd::Eof);
        let mut out = Vec::new();
        judge_stream(
            &expect(json!({"classification": "completed", "not": ["crashed"], "ordering": true})),
            &broken,
            &mut out,
        );
        let verdicts: Vec<(&str, bool)> =
            out.iter().map(|a| (a.check.as_str(), a.passed)).collect();
        assert_eq!(
            verdicts,
            [
                ("stream.classification", false),
                ("stream.not", true),
                ("stream.ordering", false)
            ]
        );
        let rejected = classify_body(400, None, false, b"{}", ReadEnd::Eof);
        let mut out = Vec::new();
        judge_stream(
            &expect(json!({"classification": "rejected", "ordering": true})),
            &rejected,
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert!(out[0].passed);
    }
}
