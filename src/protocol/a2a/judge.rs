//! Judging an A2A answer beyond the shared judges: `expect.stream` on its bucket (as
//! every stream-reading protocol names it), each present field one assertion.

use super::classify::Reading;
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

/// `expect.stream`: the bucket the answer may (not) fall in, and the order of a
/// stream's events (§3.1.2).
pub fn judge_stream(expect: &StreamExpectation, reading: &Reading, out: &mut Vec<AssertionResult>) {
    let class = reading.classification;
    if let Some(allowed) = &expect.classification {
        let allowed = allowed.to_vec();
        out.push(AssertionResult::new(
            "stream.classification",
            format!("one of {}", names(&allowed)),
            reading.line(),
            allowed.contains(&class),
        ));
    }
    if !expect.not.is_empty() {
        out.push(AssertionResult::new(
            "stream.not",
            format!("none of {}", names(&expect.not)),
            reading.line(),
            !expect.not.contains(&class),
        ));
    }
    if expect.ordering && reading.event_stream && class != StreamClass::Unfinished {
        let actual = if reading.problems.is_empty() {
            reading.objects.join(" → ")
        } else {
            reading.problems.join("; ")
        };
        out.push(AssertionResult::new(
            "stream.ordering",
            "a task then its updates until it ends, or one message (§3.1.2)".into(),
            actual,
            reading.problems.is_empty() && class != StreamClass::Broken,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_is_one_assertion() {
        let expect: StreamExpectation =
            serde_json::from_value(serde_json::json!({"classification": "completed", "not": ["crashed"], "ordering": true})).unwrap();
        let mut reading = Reading::new(StreamClass::Crashed, 500, "HTTP 500".into());
        let mut out = Vec::new();
        judge_stream(&expect, &reading, &mut out);
        assert_eq!(out.len(), 2, "no ordering without a stream");
        assert!(out.iter().all(|a| !a.passed));
        reading.classification = StreamClass::Completed;
        reading.event_stream = true;
        out.clear();
        judge_stream(&expect, &reading, &mut out);
        assert_eq!(out.len(), 3);
        assert!(out.iter().all(|a| a.passed), "{out:?}");
    }
}
