//! What reached the model (`run --witness`): after a case, the model calls carrying
//! the case's nonce, as the witness recorded them, attached to the case's record as
//! evidence, and the case's `expect.witness` judged on them (`judge::witness`) into a
//! [`WitnessFinding`] the verdict (`runner::verdict`) weighs.
//!
//! Only a case whose request a host may pass on waits, and only when it expects its
//! input to reach the model (`witness: reached`) and the host answered with success:
//! up to `--witness-wait` for the first call carrying its nonce, not at all once one
//! arrived. Every other case takes what arrived, without waiting. The case's calls are
//! then released from the bounded log, so a long run never fills it.

use super::verdict::WitnessFinding;
use crate::judge::witness::{self as witness_judge, Answered};
use crate::outcome::{CaseResult, EvidenceView, Outcome, ProtocolEvidence};
use crate::request::sent::{SentPart, sent_parts};
use crate::scenario::model::{CaseSpec, WitnessExpectation};
use crate::witness::{ModelCall, RunningWitness};
use serde_json::Value;
use std::time::Duration;

/// One case as the witness step sees it.
pub struct Witnessed<'a> {
    pub witness: &'a RunningWitness,
    pub wait: Duration,
    pub nonce: &'a str,
    pub spec: &'a CaseSpec,
    pub resolve: &'a (dyn Fn(&str) -> Option<Value> + Sync),
}

/// Attaches to `record` the calls carrying the case's nonce and judges its
/// `expect.witness` on them. `observed` is the outcome the protocol's observation
/// gives: only a case judged on an answer (pass, fail or warn) has its forwarding
/// judged. A case that sent nothing gets no field and no judgement.
pub async fn record(
    w: &Witnessed<'_>,
    record: &mut CaseResult,
    observed: Outcome,
) -> WitnessFinding {
    // A process run (agentruntime) has no HTTP exchange: its evidence says it ran.
    if record.exchanges.is_empty() && record.stream.is_none() {
        return WitnessFinding::Nothing;
    }
    let expect = w.spec.expect.witness;
    let answered = answered(record);
    let calls = if expect.is_some_and(WitnessExpectation::expects_a_call)
        && answered == Answered::Success
        && judged_on_its_answer(observed)
    {
        w.witness.wait_for(w.nonce, w.wait).await
    } else {
        w.witness.calls_carrying(w.nonce)
    };
    // Judged: the log no longer needs them (and has room for the next case's).
    w.witness.forget_carrying(w.nonce);
    record.model_calls = Some(calls.iter().map(evidence).collect());
    let Some(expect) = expect else {
        return WitnessFinding::Nothing;
    };
    // Any drop in the run may have been this case's call: the log keeps the oldest.
    let full = w.witness.dropped() > 0;
    let finding = judge(w, expect, answered, &calls, full, observed);
    if matches!(finding, WitnessFinding::Judged(_)) {
        let notes = metadata_notes(w, expect, &calls, record);
        record.notes.extend(notes);
    }
    finding
}

/// What the host invented or could not carry of the parts' metadata
/// (`judge::witness_metadata`), said beside the judgement; the case's own requests
/// are where a filename is looked for.
fn metadata_notes(
    w: &Witnessed<'_>,
    expect: WitnessExpectation,
    calls: &[ModelCall],
    record: &CaseResult,
) -> Vec<String> {
    let Some(Ok(sent)) = w
        .spec
        .request
        .as_ref()
        .and_then(|r| r.body.as_ref())
        .map(|body| sent_parts(body, w.resolve, w.nonce))
    else {
        return Vec::new();
    };
    let requests: Vec<&str> = record
        .exchanges
        .iter()
        .filter(|e| !e.cached)
        .filter_map(|e| e.request.body.as_deref())
        .collect();
    crate::judge::witness_metadata::notes(expect, &sent, calls, w.nonce, &requests)
}

/// The note a case with `expect.witness` carries in a run without `--witness`.
/// The note on a case that expects its parts to reach the model, run without a witness.
pub const REACH_UNSEEN: &str =
    "expect.witness not evaluated: without --witness, a part dropped inside a 2xx cannot be seen";

pub fn not_evaluated(expect: WitnessExpectation) -> String {
    match expect {
        WitnessExpectation::Reached => REACH_UNSEEN.into(),
        WitnessExpectation::Withheld | WitnessExpectation::WithheldOrRepaired => "expect.witness not evaluated: without --witness, whether the model saw this input cannot be seen".into(),
        WitnessExpectation::Delivered | WitnessExpectation::Prompt => "expect.witness not evaluated: without --witness, what reached the model cannot be seen".into(),
    }
}

/// The host's answer said success: its last exchange was 2xx and, for a stream, the
/// run completed (a run that ended in RUN_ERROR refused).
fn answered(result: &CaseResult) -> Answered {
    let status = result
        .exchanges
        .last()
        .and_then(|e| e.response.as_ref())
        .map(|r| r.status);
    let completed = result
        .stream
        .as_ref()
        .and_then(|s| s.record.get("classification"))
        .is_none_or(|c| c == "completed");
    // A process run has no status: its classification alone says how it answered.
    let ok_status = status.is_some_and(|s| (200..300).contains(&s))
        || (result.exchanges.is_empty() && result.stream.is_some());
    if ok_status && completed {
        Answered::Success
    } else {
        Answered::Refused
    }
}

/// The protocol judged the case on an answer (pass, fail or warn): blocked and errored
/// cases never got one, so nothing about forwarding can be said of them.
fn judged_on_its_answer(observed: Outcome) -> bool {
    matches!(observed, Outcome::Pass | Outcome::Fail | Outcome::Warn)
}

fn judge(
    w: &Witnessed<'_>,
    expect: WitnessExpectation,
    answered: Answered,
    calls: &[ModelCall],
    log_was_full: bool,
    observed: Outcome,
) -> WitnessFinding {
    let what = format!("expect.witness: {}", expect.as_str());
    if !judged_on_its_answer(observed) {
        return WitnessFinding::NotJudged(format!(
            "{what} not judged: the case got no answer to judge"
        ));
    }
    let sent = match w.spec.request.as_ref().and_then(|r| r.body.as_ref()) {
        Some(body) => match sent_parts(body, w.resolve, w.nonce) {
            Ok(sent) => sent,
            Err(e) => {
                return WitnessFinding::NotJudged(format!(
                    "{what} not judged: the body does not render ({e})"
                ));
            }
        },
        None => Vec::<SentPart>::new(),
    };
    let want = w.spec.expect.delivery.unwrap_or_default();
    let assertions = witness_judge::judge(expect, want, &sent, calls, w.nonce, answered);
    if log_was_full && may_rest_on_a_dropped_call(expect, &assertions) {
        return WitnessFinding::Blocked(format!(
            "{what} cannot be judged: the witness's call log was full and dropped {} call(s), which may include this case's",
            w.witness.dropped()
        ));
    }
    WitnessFinding::Judged(assertions)
}

/// A full log may have dropped the very call that would fail `withheld` or pass
/// `reached`: neither verdict can rest on what was seen then. (A `withheld` failure and a
/// `reached` pass rest on a call that was seen.)
fn may_rest_on_a_dropped_call(
    expect: WitnessExpectation,
    assertions: &[crate::outcome::AssertionResult],
) -> bool {
    assertions.iter().any(|a| match expect {
        WitnessExpectation::Withheld | WitnessExpectation::WithheldOrRepaired => a.passed,
        WitnessExpectation::Reached
        | WitnessExpectation::Delivered
        | WitnessExpectation::Prompt => !a.passed,
    })
}

/// A call as a case's evidence: the witness's record, a one-line summary
/// (`model received: image/png 1234 B (image_url), text`) and the call's header line.
pub fn evidence(call: &ModelCall) -> ProtocolEvidence {
    let mut parts: Vec<String> = call
        .parts
        .iter()
        .map(crate::judge::witness::describe_part)
        .collect();
    let unkept = call.parts_total.saturating_sub(call.parts.len());
    if unkept > 0 {
        parts.push(format!("+{unkept} part(s)"));
    }
    let received = if parts.is_empty() {
        "no parts".to_string()
    } else {
        parts.join(", ")
    };
    let header = format!(
        "call {}: {} {} -> {}, model {}",
        call.seq,
        call.wire.as_str(),
        call.path,
        call.status,
        call.model.as_deref().unwrap_or("(none)")
    );
    ProtocolEvidence {
        // Plain data with string keys: serialising it cannot fail.
        record: serde_json::to_value(call).unwrap_or_default(),
        view: EvidenceView {
            summary: format!("model received: {received}"),
            properties: Vec::new(),
            lines: vec![header],
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::{Limits, Wire, decode_call};
    use base64::Engine as _;

    #[test]
    fn success_is_a_2xx_and_for_a_stream_a_completed_run() {
        use crate::event_fixtures::{case, exchange, requirement};
        use crate::outcome::Level;
        let mut result = case("c", "c", requirement("s", Level::Must, "t"), Outcome::Pass);
        result.exchanges = vec![exchange("ai/call", Some(200), "{}")];
        assert_eq!(answered(&result), Answered::Success);
        result.stream = Some(ProtocolEvidence {
            record: serde_json::json!({"classification": "run-error"}),
            view: EvidenceView::default(),
        });
        assert_eq!(answered(&result), Answered::Refused);
        result.stream = None;
        result.exchanges = vec![exchange("ai/call", Some(400), "{}")];
        assert_eq!(answered(&result), Answered::Refused);
        result.exchanges = vec![exchange("ai/call", None, "")];
        assert_eq!(answered(&result), Answered::Refused);
    }

    #[test]
    fn only_verdicts_that_a_dropped_call_could_change_are_withdrawn() {
        use crate::outcome::AssertionResult;
        let held = [AssertionResult::new(
            "witness.x",
            "e".into(),
            "a".into(),
            true,
        )];
        let broken = [AssertionResult::new(
            "witness.x",
            "e".into(),
            "a".into(),
            false,
        )];
        assert!(may_rest_on_a_dropped_call(
            WitnessExpectation::Withheld,
            &held
        ));
        assert!(!may_rest_on_a_dropped_call(
            WitnessExpectation::Withheld,
            &broken
        ));
        assert!(may_rest_on_a_dropped_call(
            WitnessExpectation::Reached,
            &broken
        ));
        assert!(!may_rest_on_a_dropped_call(
            WitnessExpectation::Reached,
            &held
        ));
    }

    #[test]
    fn a_call_is_summarised_part_by_part_with_its_record_kept() {
        let png = mmconform_media::generate("image/png", "n-c1");
        let data = base64::engine::general_purpose::STANDARD.encode(&png);
        let body = serde_json::json!({"model": "m", "messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{data}")}},
            {"type": "text", "text": "mmconform n-c1"}
        ]}]});
        let call = decode_call(
            Wire::OpenaiChat,
            "/v1/chat/completions",
            body.to_string().as_bytes(),
            &Limits::default(),
            4,
        );
        let evidence = evidence(&call);
        assert_eq!(
            evidence.view.summary,
            format!(
                "model received: image/png {} B (image_url), text",
                png.len()
            )
        );
        assert_eq!(evidence.record["seq"], 4);
        assert_eq!(evidence.record["parts"][0]["stamps"][0], "n-c1");
        assert!(evidence.view.lines[0].starts_with("call 4: openai.chat /v1/chat/completions"));
    }
}
