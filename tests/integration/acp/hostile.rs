//! Hostile ACP agents: each ends in a verdict or `blocked`, never a tool error, a panic
//! or a hang, and within the bounds (`--timeout`, the grace, stdout's caps). The agents
//! are small `sh` programs given as `--target-cmd` (no shell runs them: `sh` is the
//! program).

use crate::common::{self, run_timed};
use std::time::Duration;

fn hostile(script: &str, extra: &[&str]) -> (common::RunResult, Duration) {
    let command = format!("sh -c '{script}'");
    let mut args = vec![
        "--profile",
        "acp",
        "--target-cmd",
        &command,
        "--timeout",
        "2",
    ];
    args.extend_from_slice(extra);
    run_timed(&args, &[], Duration::from_secs(60))
}

fn judged(r: &common::RunResult) {
    assert!(r.ids_with("error").is_empty(), "{}", r.context());
    assert!(!r.stderr.contains("panicked"), "{}", r.context());
}

#[test]
fn an_agent_that_never_answers_initialize_fails_it_and_blocks_the_prompts() {
    // It ignores SIGTERM too: the run still ends, after the grace.
    let (r, wall) = hostile("trap \"\" TERM; cat >/dev/null", &[]);
    judged(&r);
    assert_eq!(r.outcome("acp.initialize"), "fail", "{}", r.context());
    assert_eq!(r.outcome("acp.text"), "blocked", "{}", r.context());
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(wall < Duration::from_secs(30), "{wall:?}");
}

#[test]
fn garbage_frames_fail_initialize() {
    let (r, _) = hostile(
        "while read l; do echo \"hello there\"; done",
        &["--filter", "acp.initialize"],
    );
    judged(&r);
    assert_eq!(r.outcome("acp.initialize"), "fail", "{}", r.context());
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "acp.initialize")
        .unwrap();
    let garbage = &case["stream"]["exchanges"][0]["garbage"];
    assert!(garbage.to_string().contains("hello there"), "{case}");
}

#[test]
fn endless_output_is_cut_at_the_bound() {
    let (r, wall) = hostile("yes", &["--filter", "acp.initialize"]);
    judged(&r);
    assert_eq!(r.outcome("acp.initialize"), "fail", "{}", r.context());
    assert!(wall < Duration::from_secs(30), "{wall:?}");
}

#[test]
fn an_agent_that_answers_requests_of_its_own_gets_a_capability_less_clients_answers() {
    // It asks for a file and a permission before answering initialize.
    let script = concat!(
        "read l; ",
        "echo \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":7,\\\"method\\\":\\\"fs/read_text_file\\\",\\\"params\\\":{}}\"; read a; ",
        "echo \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":8,\\\"method\\\":\\\"session/request_permission\\\",\\\"params\\\":{}}\"; read b; ",
        "echo \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"result\\\":{\\\"protocolVersion\\\":1}}\"; cat >/dev/null"
    );
    let (r, _) = hostile(script, &["--filter", "acp.initialize"]);
    judged(&r);
    assert_eq!(r.outcome("acp.initialize"), "pass", "{}", r.context());
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "acp.initialize")
        .unwrap();
    let asked = case["stream"]["exchanges"][0]["agentRequests"].to_string();
    assert!(
        asked.contains("-32601") && asked.contains("cancelled"),
        "{asked}"
    );
}
