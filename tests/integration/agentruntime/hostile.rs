//! Hostile bridges: each ends in a verdict or `blocked`, never a tool error, a panic or
//! a hang, and within the bounds (`--timeout`, the 2 s grace, stdout's caps). The
//! bridges are small `sh` programs given as `--target-cmd` (no shell runs them: `sh`
//! is the program).

use crate::common::{self, run_timed};
use std::time::Duration;

const DONE: &str =
    r#"{"type":"done","result":{"text":"","sessionId":"s","durationMs":1,"aborted":false}}"#;

/// Runs describe and the contract case against `script`, bounded by `--timeout SECS`.
fn hostile(script: &str, timeout: &str) -> (common::RunResult, Duration) {
    let command = format!("sh -c '{script}'");
    run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            &command,
            "--timeout",
            timeout,
            "--filter",
            "agentruntime.contract or agentruntime.describe",
        ],
        &[],
        Duration::from_secs(60),
    )
}

fn judged(r: &common::RunResult) {
    assert!(r.ids_with("error").is_empty(), "{}", r.context());
    assert!(!r.stderr.contains("panicked"), "{}", r.context());
}

#[test]
fn a_megabyte_line_that_is_not_an_event_fails_the_contract() {
    let (r, _) = hostile("head -c 1500000 /dev/zero | tr \"\\000\" x; echo", "20");
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.contract"),
        "fail",
        "{}",
        r.context()
    );
    assert_eq!(r.code, 1);
}

#[test]
fn endless_output_is_cut_at_the_bound_and_blocked() {
    let (r, wall) = hostile(
        "yes \"{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"x\\\"}\"",
        "20",
    );
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.contract"),
        "blocked",
        "{}",
        r.context()
    );
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "agentruntime.contract")
        .unwrap();
    assert!(
        case["reason"].as_str().unwrap().contains("on stdout"),
        "{case}"
    );
    assert!(wall < Duration::from_secs(30), "{wall:?}");
}

#[test]
fn binary_output_fails_the_contract() {
    let (r, _) = hostile("head -c 3000 /dev/urandom; echo", "20");
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.contract"),
        "fail",
        "{}",
        r.context()
    );
}

#[test]
fn a_bridge_that_never_exits_is_ended_at_the_timeout_and_blocked() {
    let (r, wall) = hostile("exec sleep 600", "2");
    judged(&r);
    // Our timeout ended describe too: nothing to judge, never a failure.
    assert_eq!(
        r.outcome("agentruntime.describe"),
        "blocked",
        "{}",
        r.context()
    );
    assert_eq!(
        r.outcome("agentruntime.contract"),
        "blocked",
        "{}",
        r.context()
    );
    // describe and the case, each at most the timeout plus the grace.
    assert!(wall < Duration::from_secs(15), "{wall:?}: {}", r.context());
}

#[test]
fn lines_after_done_and_a_bridge_that_lingers_fail_the_contract() {
    let script = format!(
        "echo \"{}\"; echo {{}}; exec sleep 600",
        DONE.replace('"', "\\\"")
    );
    let (r, wall) = hostile(&script, "3");
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.contract"),
        "fail",
        "{}",
        r.context()
    );
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "agentruntime.contract")
        .unwrap();
    let failed: Vec<&str> = case["assertions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["passed"] == false)
        .map(|a| a["check"].as_str().unwrap())
        .collect();
    assert!(
        failed.contains(&"run.done") && failed.contains(&"run.exit"),
        "{case}"
    );
    assert!(wall < Duration::from_secs(15), "{wall:?}");
}

#[test]
fn a_secret_a_bridge_prints_is_redacted_in_every_output() {
    let (r, _) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            "sh -c 'echo sekrit-token-value-123 >&2; echo sekrit-token-value-123'",
            "--filter",
            "agentruntime.contract",
            "-v",
        ],
        &[("OPENWOP_API_KEY", "sekrit-token-value-123")],
        Duration::from_secs(60),
    );
    judged(&r);
    assert_eq!(r.outcome("agentruntime.contract"), "fail");
    let report = r.report.as_ref().unwrap().to_string();
    for (what, text) in [
        ("stdout", &r.stdout),
        ("stderr", &r.stderr),
        ("report", &report),
        ("junit", r.junit.as_ref().unwrap()),
    ] {
        assert!(
            !text.contains("sekrit-token-value-123"),
            "{what} leaks the secret"
        );
    }
    assert!(report.contains("[REDACTED]"), "{report}");
}
