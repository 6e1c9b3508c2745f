//! `expect.acp` on what the agent answered. A turn that never ended (no response within
//! `--timeout`, the agent exited, a bound on its output) fails the case that waited on
//! it: a hang or a crash is the agent's, observed; only the run's stop is `blocked`
//! (decided before judging, in `case.rs`).

use super::connection::Exchange;
use super::expect::AcpExpectation;
use crate::outcome::AssertionResult;
use agent_client_protocol_schema::v1::PromptResponse;
use serde_json::Value;

/// The prompt's exchange judged; `alive` says whether the agent answered a request
/// after it (asked only of `rejected` cases).
pub fn judge(
    expect: &AcpExpectation,
    prompt: &Exchange,
    alive: Option<bool>,
) -> Vec<AssertionResult> {
    let mut out = Vec::new();
    if let Some(want) = &expect.stop_reason {
        out.push(stop_reason(want, prompt));
    }
    if expect.rejected {
        out.push(rejected(prompt));
        if let Some(alive) = alive {
            out.push(AssertionResult::new(
                "acp.alive",
                "the agent answers the next request after the refusal".into(),
                if alive {
                    "it answered session/new".into()
                } else {
                    "it no longer answers (crashed or hung)".into()
                },
                alive,
            ));
        }
    }
    out
}

/// How the prompt was answered, in one phrase.
pub fn answered(prompt: &Exchange) -> String {
    if let Some(why) = &prompt.unanswered {
        return why.describe();
    }
    if let Some(error) = prompt.error() {
        return format!("a JSON-RPC error {}", clip_value(error));
    }
    match prompt.result() {
        Some(result) => match result.get("stopReason") {
            Some(reason) => format!("stopReason {reason}"),
            None if prompt.method != "session/prompt" => "a result".into(),
            None => format!("a result without stopReason: {}", clip_value(result)),
        },
        None => "a response with neither result nor error".into(),
    }
}

fn stop_reason(want: &str, prompt: &Exchange) -> AssertionResult {
    let typed = prompt
        .result()
        .map(|r| serde_json::from_value::<PromptResponse>(r.clone()));
    let got = prompt
        .result()
        .and_then(|r| r.get("stopReason"))
        .and_then(Value::as_str);
    let passed = got == Some(want) && matches!(typed, Some(Ok(_)));
    let mut actual = answered(prompt);
    if let Some(Err(e)) = typed {
        actual = format!("{actual} (not a PromptResponse: {e})");
    }
    AssertionResult::new(
        "acp.stopReason",
        format!("session/prompt answered with stopReason \"{want}\""),
        actual,
        passed,
    )
}

fn rejected(prompt: &Exchange) -> AssertionResult {
    let error = prompt.error();
    let well_formed = error.is_some_and(|e| e.get("code").is_some_and(Value::is_i64));
    AssertionResult::new(
        "acp.rejected",
        "session/prompt answered with a JSON-RPC error (e.g. -32602 invalid params)".into(),
        answered(prompt),
        well_formed,
    )
}

fn clip_value(value: &Value) -> String {
    super::connection::clip(&value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::acp::connection::Unanswered;
    use serde_json::json;
    use std::time::Duration;

    fn answered_with(response: Value) -> Exchange {
        Exchange {
            response: Some(response),
            ..Exchange::default()
        }
    }

    #[test]
    fn a_stop_reason_an_error_and_a_hang_are_told_apart() {
        let end =
            answered_with(json!({"jsonrpc": "2.0", "id": 1, "result": {"stopReason": "end_turn"}}));
        let refused = answered_with(
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "no audio"}}),
        );
        let hung = Exchange {
            unanswered: Some(Unanswered::Timeout(Duration::from_secs(2))),
            ..Exchange::default()
        };
        let want_end = AcpExpectation {
            stop_reason: Some("end_turn".into()),
            ..Default::default()
        };
        assert!(judge(&want_end, &end, None)[0].passed);
        assert!(!judge(&want_end, &refused, None)[0].passed);
        assert!(!judge(&want_end, &hung, None)[0].passed);
        let want_error = AcpExpectation {
            rejected: true,
            ..Default::default()
        };
        assert!(
            judge(&want_error, &refused, Some(true))
                .iter()
                .all(|a| a.passed)
        );
        assert!(!judge(&want_error, &end, Some(true))[0].passed);
        assert!(!judge(&want_error, &refused, Some(false))[1].passed);
        let bad_reason =
            answered_with(json!({"jsonrpc": "2.0", "id": 1, "result": {"stopReason": "finished"}}));
        assert!(!judge(&want_end, &bad_reason, None)[0].passed);
    }
}
