//! Judging an AG-UI answer: the case's generic expectations (`status`, ...), then its
//! stream and echo expectations, each present field one assertion.

use crate::outcome::AssertionResult;
use crate::protocol::agui::echo::{self, EchoPart};
use crate::protocol::agui::{Declaration, StreamClass, StreamEvidence};
use crate::scenario::model::{EchoExpectation, StreamExpectation};

/// Assertions and notes from the stream and echo expectations.
#[derive(Debug, Default)]
pub struct StreamJudgement {
    pub assertions: Vec<AssertionResult>,
    pub notes: Vec<String>,
}

fn names(classes: &[StreamClass]) -> String {
    classes
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `expect.stream`.
pub fn judge_stream(
    expect: &StreamExpectation,
    evidence: &StreamEvidence,
    out: &mut StreamJudgement,
) {
    let class = evidence.classification;
    if let Some(allowed) = &expect.classification {
        let allowed = allowed.to_vec();
        out.assertions.push(AssertionResult::new(
            "stream.classification",
            format!("one of {}", names(&allowed)),
            evidence.summary(),
            allowed.contains(&class),
        ));
    }
    if !expect.not.is_empty() {
        out.assertions.push(AssertionResult::new(
            "stream.not",
            format!("none of {}", names(&expect.not)),
            evidence.summary(),
            !expect.not.contains(&class),
        ));
    }
    // The ordering rules apply to a stream that was read to a verdict: not to a 4xx or
    // 5xx (no stream), nor to one cut short by our own limits (nothing to judge yet).
    if expect.ordering && evidence.event_stream && class != StreamClass::Unfinished {
        let actual = if evidence.problems.is_empty() {
            format!("{}, nothing after it", evidence.events.join(" → "))
        } else {
            evidence.problems.join("; ")
        };
        out.assertions.push(AssertionResult::new(
            "stream.ordering",
            "RUN_STARTED first, one terminal event, nothing after it".into(),
            actual,
            class != StreamClass::Broken,
        ));
    }
}

/// `expect.echo`, judged on a completed run only: a run that did not complete was
/// not answered "about" its input, which is what the echo is there to check.
pub fn judge_echo(
    expect: &EchoExpectation,
    evidence: &StreamEvidence,
    sent: &[EchoPart],
    declaration: &Declaration,
    out: &mut StreamJudgement,
) {
    if evidence.classification != StreamClass::Completed {
        return;
    }
    let required = expect.required.unwrap_or(declaration.echo);
    let Some(value) = &evidence.echo else {
        if required {
            out.assertions.push(AssertionResult::new(
                "echo",
                "an mmconform.echo event (the declaration claims the echo)".into(),
                "no mmconform.echo event".into(),
                false,
            ));
        } else {
            out.notes.push(
                "the agent sent no mmconform.echo event, so a part dropped inside this completed run cannot be seen"
                    .into(),
            );
        }
        return;
    };
    let echoed = match echo::parse(value) {
        Ok(parts) => parts,
        Err(problem) => {
            out.assertions.push(AssertionResult::new(
                "echo",
                "an echo {\"parts\": [...]} (README, \"The echo event\")".into(),
                problem,
                false,
            ));
            return;
        }
    };
    for aspect in &expect.compare {
        if let Some((expected, actual, passed)) = echo::compare(*aspect, sent, &echoed) {
            out.assertions.push(AssertionResult::new(
                aspect.check_name(),
                expected,
                actual,
                passed,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::agui::classify::{Classifier, ReadEnd};
    use serde_json::{Value, json};

    fn evidence(events: &[Value]) -> StreamEvidence {
        let mut c = Classifier::default();
        for e in events {
            c.on_data(&e.to_string());
        }
        c.finish(200, Some("text/event-stream".into()), true, ReadEnd::Eof, 1)
    }

    fn stream(v: Value) -> StreamExpectation {
        serde_json::from_value(v).unwrap()
    }

    fn declaration(echo: bool) -> Declaration {
        Declaration::new(&["image/".into()], &["data".into()], echo, "test").unwrap()
    }

    #[test]
    fn classification_not_and_ordering_are_one_assertion_each() {
        let completed = evidence(&[
            json!({"type": "RUN_STARTED"}),
            json!({"type": "RUN_FINISHED"}),
        ]);
        let mut out = StreamJudgement::default();
        let expect = stream(
            json!({"classification": ["rejected", "run-error"], "not": ["crashed"], "ordering": true}),
        );
        judge_stream(&expect, &completed, &mut out);
        let verdicts: Vec<(&str, bool)> = out
            .assertions
            .iter()
            .map(|a| (a.check.as_str(), a.passed))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("stream.classification", false),
                ("stream.not", true),
                ("stream.ordering", true)
            ]
        );
        assert_eq!(
            out.assertions[0].actual,
            "completed: RUN_FINISHED after 2 events"
        );
        let rejected = Classifier::default().finish(422, None, false, ReadEnd::Eof, 0);
        let mut out = StreamJudgement::default();
        judge_stream(&expect, &rejected, &mut out);
        assert_eq!(
            out.assertions.len(),
            2,
            "no ordering assertion without a stream"
        );
        assert!(out.assertions.iter().all(|a| a.passed));
    }

    #[test]
    fn a_missing_echo_fails_only_when_required() {
        let completed = evidence(&[
            json!({"type": "RUN_STARTED"}),
            json!({"type": "RUN_FINISHED"}),
        ]);
        let expect: EchoExpectation = serde_json::from_value(json!({})).unwrap();
        let mut out = StreamJudgement::default();
        judge_echo(&expect, &completed, &[], &declaration(false), &mut out);
        assert!(out.assertions.is_empty() && out.notes.len() == 1);
        let mut out = StreamJudgement::default();
        judge_echo(&expect, &completed, &[], &declaration(true), &mut out);
        assert!(!out.assertions[0].passed);
    }

    #[test]
    fn the_echo_is_compared_aspect_by_aspect() {
        let completed = evidence(&[
            json!({"type": "RUN_STARTED"}),
            json!({"type": "CUSTOM", "name": "mmconform.echo", "value": {"parts": [{"type": "text"}]}}),
            json!({"type": "RUN_FINISHED"}),
        ]);
        let sent = echo::sent_parts(
            &json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}, {"type": "image", "source": {"type": "url", "value": "http://127.0.0.1/i.png"}}]}]}),
            "n",
        );
        let expect: EchoExpectation =
            serde_json::from_value(json!({"compare": ["kinds", "sources", "bytes"]})).unwrap();
        let mut out = StreamJudgement::default();
        judge_echo(&expect, &completed, &sent, &declaration(true), &mut out);
        let checks: Vec<&str> = out.assertions.iter().map(|a| a.check.as_str()).collect();
        assert_eq!(
            checks,
            ["echo.kinds", "echo.sources"],
            "bytes applies to inline parts only"
        );
        assert!(out.assertions.iter().all(|a| !a.passed));
        let run_error = evidence(&[
            json!({"type": "RUN_STARTED"}),
            json!({"type": "RUN_ERROR", "message": ""}),
        ]);
        let mut out = StreamJudgement::default();
        judge_echo(&expect, &run_error, &sent, &declaration(true), &mut out);
        assert!(out.assertions.is_empty());
    }
}
