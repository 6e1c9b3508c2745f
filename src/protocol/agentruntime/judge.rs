//! `expect.run`: the bridge run judged against bridge protocol v1 and the #385 contract.
//! Each assertion names the rule it checks (`run.lines`, `run.done`, ...).

use super::classify::Observed;
use super::declaration::Capabilities;
use super::event::NotEvent;
use super::expect::RunExpectation;
use super::outbound::Files;
use crate::outcome::{AssertionResult, Level};
use crate::process::EndedBy;
use serde_json::Value;

pub fn judge(
    expect: &RunExpectation,
    run: &Observed,
    caps: &Capabilities,
    files: &Files,
) -> Vec<AssertionResult> {
    let mut out = Vec::new();
    if expect.contract {
        out.extend(contract(run));
    }
    if expect.no_error {
        out.push(no_error(run));
    }
    if expect.outbound {
        out.extend(super::outbound::judge(run, caps, files));
    }
    if expect.aborted {
        out.extend(aborted(run));
    }
    out
}

fn contract(run: &Observed) -> Vec<AssertionResult> {
    let count = run.lines().len();
    let bad = run
        .lines()
        .iter()
        .enumerate()
        .find_map(|(i, l)| match &l.read {
            Err(NotEvent::Invalid(why)) => Some((i, why, l.shown.as_deref().unwrap_or(""))),
            _ => None,
        });
    let lines = AssertionResult::new(
        "run.lines",
        "every stdout line is an AgentEvent".into(),
        match bad {
            None => format!("{count} line(s), each an AgentEvent"),
            Some((i, why, text)) => format!("line {} is {why}: {}", i + 1, clip(text)),
        },
        bad.is_none(),
    );
    let dones = run.dones();
    let last = count.checked_sub(1);
    let done_ok = dones.len() == 1 && Some(dones[0]) == last;
    let done = AssertionResult::new(
        "run.done",
        "exactly one done, the last line".into(),
        match dones.as_slice() {
            [] => format!("no done in {count} line(s)"),
            [one] if Some(*one) == last => "one done, last".into(),
            [one] => format!(
                "done at line {} of {count}: something came after it",
                one + 1
            ),
            many => format!("{} done events", many.len()),
        },
        done_ok,
    );
    vec![
        lines,
        done,
        result_fields(run),
        error_messages(run),
        exit(run),
    ]
}

/// A JSON type test, such as `Value::is_string`.
type TypeCheck = fn(&Value) -> bool;

fn result_fields(run: &Observed) -> AssertionResult {
    let expected = "done.result has text, sessionId, durationMs, aborted".to_string();
    let Some(result) = run.result() else {
        return AssertionResult::new(
            "run.result",
            expected,
            "no done, so no result".into(),
            false,
        );
    };
    let checks: [(&str, TypeCheck); 4] = [
        ("text", Value::is_string),
        ("sessionId", Value::is_string),
        ("durationMs", Value::is_number),
        ("aborted", Value::is_boolean),
    ];
    let wrong: Vec<String> = checks
        .iter()
        .filter(|(k, ok)| !result.get(*k).is_some_and(ok))
        .map(|(k, _)| k.to_string())
        .collect();
    let actual = if wrong.is_empty() {
        "all four present".into()
    } else {
        format!("missing or mistyped: {}", wrong.join(", "))
    };
    AssertionResult::new("run.result", expected, actual, wrong.is_empty())
}

fn error_messages(run: &Observed) -> AssertionResult {
    let errors = run.errors();
    let bare = errors
        .iter()
        .filter(|(has_message, _)| !has_message)
        .count();
    AssertionResult::new(
        "run.error-message",
        "every error event has a message".into(),
        format!("{} error event(s), {bare} without a message", errors.len()),
        bare == 0,
    )
}

fn exit(run: &Observed) -> AssertionResult {
    let lingered = run.finished.ended_by == Some(EndedBy::Lingered)
        || (run.finished.ended_by == Some(EndedBy::Timeout) && !run.dones().is_empty());
    let actual = if lingered {
        "still running at --timeout after its done; ended by us".to_string()
    } else {
        run.ending()
    };
    AssertionResult::new(
        "run.exit",
        "the bridge exits 0 after done".into(),
        actual,
        run.exited_zero() && !lingered,
    )
}

fn no_error(run: &Observed) -> AssertionResult {
    let errors = run.errors();
    let first = errors
        .first()
        .and_then(|(_, shown)| *shown)
        .map(|shown| format!(": {}", clip(shown)))
        .unwrap_or_default();
    AssertionResult::new(
        "run.no-error",
        "the run ends without an error event".into(),
        format!("{} error event(s){first}", errors.len()),
        errors.is_empty(),
    )
}

fn aborted(run: &Observed) -> Vec<AssertionResult> {
    let Some(abort) = run.finished.abort else {
        return vec![AssertionResult::new(
            "run.abort-sent",
            "SIGTERM sent once the run was under way".into(),
            "never sent: no event line arrived before the run ended".into(),
            false,
        )];
    };
    let ended = AssertionResult::new(
        "run.abort-ended",
        format!(
            "the process ends within {} s of SIGTERM",
            super::bridge::GRACE.as_secs()
        ),
        if abort.exited_within_grace {
            run.ending()
        } else {
            "still running after the grace: killed".into()
        },
        abort.exited_within_grace,
    );
    let flag = run.result().and_then(|r| r.get("aborted")).cloned();
    let said = AssertionResult::new(
        "run.aborted",
        "done says aborted: true".into(),
        match &flag {
            Some(v) => format!("aborted: {v}"),
            None => "no done result".into(),
        },
        flag == Some(Value::Bool(true)),
    )
    .at_level(Level::Should);
    vec![ended, said]
}

/// A line as an assertion quotes it.
fn clip(text: &str) -> String {
    // A line kept clipped already ends in `…`: do not add a second one.
    let text = text.strip_suffix('…').unwrap_or(text);
    super::event::clip(text, 120)
}

#[cfg(test)]
#[path = "judge_tests.rs"]
mod tests;
