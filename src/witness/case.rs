//! A recorded call as a case of the standalone witness (`mmconform witness`): one case
//! per call, id `witness.call[<seq>]`, whose assertions are the wire rules that apply
//! to it ([`super::rules`]) and whose evidence is the call record itself, so the
//! terminal, JUnit and JSON reporters show it like any other case.

use super::answer::describe;
use super::record::{ModelCall, Part, Wire};
use super::rules;
use crate::observation::Observation;
use crate::outcome::{CaseResult, EvidenceView, Level, ProtocolEvidence, Requirement};
use crate::wire::{gemini, responses};

/// The case id before the call number.
pub const CASE_ID: &str = "witness.call";
/// Where the rules come from, as JUnit suites and reports name it (Chat Completions,
/// Messages and unknown calls; [`source`] names the other wires').
pub const SOURCE: &str = "llm-provider 0015";

/// The source a call's rules come from, by its wire.
pub fn source(wire: Wire) -> &'static str {
    match wire {
        Wire::OpenaiResponses => responses::SOURCE,
        Wire::Gemini | Wire::GeminiCountTokens => gemini::SOURCE,
        Wire::OpenaiChat | Wire::AnthropicMessages | Wire::Unknown => SOURCE,
    }
}
/// What "scenario file" a witness case comes from: the rules are compiled in.
pub const SCENARIO_FILE: &str = "builtin:witness";

const REQUIREMENT: &str = "A model call carries well-formed content parts: inline media as \
     data:<mime>;base64,<b64> data URLs; image detail absent unless set, and then low, high or \
     auto; no empty content list and no empty text block; media on user messages only; parts in \
     the order sent; declared types and input_audio.format matching the bytes; file parts with \
     file_data and filename.";

const RESPONSES_REQUIREMENT: &str = "A Responses call carries well-formed input items: \
     input_image with image_url a data:<mime>;base64,<b64> or http(s) URL (or a file_id) and \
     detail, when present, low, high, auto or original; input_file with file_data a data URL \
     and a filename (or file_id, file_url); input_audio format matching the bytes; no empty \
     input, content list or text; declared types matching the bytes; parts in the order sent.";

const GEMINI_REQUIREMENT: &str = "A Gemini call carries well-formed contents: inlineData with \
     a mimeType and bare base64 data whose bytes match it; fileData with a fileUri; no empty \
     contents or parts list; parts in the order sent.";

fn requirement(wire: Wire) -> &'static str {
    match wire {
        Wire::OpenaiResponses => RESPONSES_REQUIREMENT,
        Wire::Gemini | Wire::GeminiCountTokens => GEMINI_REQUIREMENT,
        Wire::OpenaiChat | Wire::AnthropicMessages | Wire::Unknown => REQUIREMENT,
    }
}

/// The call, judged by the wire rules: what was observed (the verdict is the caller's,
/// `runner::verdict`).
pub fn observe(call: &ModelCall) -> Observation {
    Observation::judged(CaseResult {
        id: format!("{CASE_ID}[{}]", call.seq),
        case_id: CASE_ID.to_string(),
        title: format!("{} call {} to {}", call.wire.as_str(), call.seq, call.path),
        requirement: Requirement {
            source: source(call.wire).to_string(),
            level: Level::Must,
            text: requirement(call.wire).to_string(),
        },
        scenario_file: SCENARIO_FILE.to_string(),
        bindings: vec![
            ("wire".into(), call.wire.as_str().into()),
            ("seq".into(), call.seq.to_string()),
        ],
        outcome: crate::outcome::Outcome::Blocked,
        reason: None,
        notes: notes(call),
        assertions: rules::judge(call),
        decided_on: Vec::new(),
        duration_ms: 0,
        exchanges: Vec::new(),
        expected_failure: None,
        stream: Some(evidence(call)),
        model_calls: None,
        self_check: false,
        cause: None,
    })
}

/// What a reader should know that no rule judges.
fn notes(call: &ModelCall) -> Vec<String> {
    let mut notes = Vec::new();
    if call.status != 200 {
        notes.push(format!("the witness answered {}", call.status));
    }
    let unkept = call.parts_total - call.parts.len();
    if unkept > 0 {
        notes.push(format!(
            "{unkept} part(s) past the per-call cap were judged but not kept"
        ));
    }
    if call.problems_dropped > 0 {
        notes.push(format!(
            "{} more problem(s) were not kept",
            call.problems_dropped
        ));
    }
    notes
}

/// The call record, and how reporters show it.
pub fn evidence(call: &ModelCall) -> ProtocolEvidence {
    let stream = if call.stream { " stream" } else { "" };
    let parts: Vec<String> = call.parts.iter().take(8).map(describe).collect();
    let more = call.parts_total.saturating_sub(parts.len());
    let mut summary = format!("{}{stream}: {}", call.wire.as_str(), parts.join("; "));
    if parts.is_empty() {
        summary.push_str("no parts");
    }
    if more > 0 {
        summary.push_str(&format!("; +{more} part(s)"));
    }
    let mut lines = vec![format!(
        "call {}: {} {} -> {}, {} B, model {}",
        call.seq,
        call.wire.as_str(),
        call.path,
        call.status,
        call.body_bytes,
        call.model.as_deref().unwrap_or("(none)")
    )];
    lines.extend(call.parts.iter().map(part_line));
    lines.extend(
        call.problems
            .iter()
            .map(|p| format!("problem: {}", p.message)),
    );
    ProtocolEvidence {
        // Plain data with string keys: serialising it cannot fail.
        record: serde_json::to_value(call).unwrap_or_default(),
        view: EvidenceView {
            summary,
            properties: vec![
                ("witness.wire".into(), call.wire.as_str().into()),
                ("witness.status".into(), call.status.to_string()),
                ("witness.parts".into(), call.parts_total.to_string()),
                ("witness.nonces".into(), call.stamps().join(",")),
            ],
            lines,
        },
    }
}

/// Whether a call's [`evidence`] record holds a part that is not text (what the witness
/// decoded as image, audio, document or file), outside the system prompt: whether a
/// medium reached the model in that call.
pub fn evidence_carries_media(record: &serde_json::Value) -> bool {
    use serde_json::Value;
    record
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|part| {
            part.get("role").and_then(Value::as_str) != Some("system")
                && part.get("kind").and_then(Value::as_str) != Some("text")
        })
}

/// `part /messages/0/content/1 (user): image_url image/png 1234 B nonce n-p0, sha256 ab12…`
fn part_line(part: &Part) -> String {
    let mut line = format!("part {} ({}): {}", part.at, part.role, describe(part));
    if let Some(sniffed) = &part.sniffed {
        line.push_str(&format!(", bytes are {sniffed}"));
    }
    if let Some(sha) = &part.sha256 {
        line.push_str(&format!(", sha256 {}", &sha[..sha.len().min(16)]));
    }
    for problem in &part.problems {
        line.push_str(&format!("\n  problem: {}", problem.message));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;
    use crate::runner::verdict::{Findings, decide};
    use crate::witness::record::{Problem, ProblemCode};

    /// The call's case with its verdict, as `mmconform witness` reports it.
    fn case_result(call: &ModelCall) -> CaseResult {
        decide(Findings::observed(observe(call)), false)
    }

    #[test]
    fn a_call_becomes_a_case_with_its_record_as_evidence() {
        let call = crate::witness::log::tests::call(7, "n-p0");
        let case = case_result(&call);
        assert_eq!(case.id, "witness.call[7]");
        assert_eq!(case.outcome, Outcome::Pass);
        assert!(case.assertions.iter().all(|a| a.passed));
        let evidence = case.stream.unwrap();
        assert_eq!(evidence.record["seq"], 7);
        assert_eq!(evidence.record["parts"][0]["stamps"][0], "n-p0");
        assert!(
            evidence
                .view
                .properties
                .contains(&("witness.nonces".into(), "n-p0".into()))
        );
    }

    #[test]
    fn a_broken_call_fails_with_its_first_broken_rule_as_the_reason() {
        let mut call = crate::witness::log::tests::call(2, "n");
        call.status = 400;
        call.parts.clear();
        call.parts_total = 0;
        call.problems
            .push(Problem::new(ProblemCode::MalformedJson, "not JSON: eof"));
        let case = case_result(&call);
        assert_eq!(case.outcome, Outcome::Fail);
        assert_eq!(
            case.reason.as_deref(),
            Some(
                "expected a JSON model request of its wire: Chat Completions or Messages with a \
                 `messages` list, Responses with `input`, Gemini with a `contents` list; got not \
                 JSON: eof"
            )
        );
        assert_eq!(case.notes, ["the witness answered 400"]);
    }

    /// A medium in a user's part reached the model; text, or a medium in the system
    /// prompt, did not.
    #[test]
    fn only_a_part_that_is_not_text_outside_the_system_prompt_carries_media() {
        let call = crate::witness::log::tests::call(3, "n-p0");
        let mut record = evidence(&call).record;
        record["parts"][0]["kind"] = "image".into();
        record["parts"][0]["role"] = "user".into();
        assert!(evidence_carries_media(&record));
        record["parts"][0]["role"] = "system".into();
        assert!(!evidence_carries_media(&record));
        record["parts"][0]["role"] = "user".into();
        record["parts"][0]["kind"] = "text".into();
        assert!(!evidence_carries_media(&record));
        assert!(!evidence_carries_media(&serde_json::json!({"parts": []})));
        assert!(!evidence_carries_media(&serde_json::Value::Null));
    }
}
