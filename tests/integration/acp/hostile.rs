//! Hostile ACP agents: each ends in a verdict or `blocked`, never a tool error, a panic
//! or a hang, and within the bounds (`--timeout`, the grace, stdout's caps). The agents
//! are small `sh` programs given as `--target-cmd` (no shell runs them: `sh` is the
//! program).

use crate::common::{self, hostile_target, run_timed};
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

/// An agent that prints every secret it can find: in its `initialize` answer, in a
/// `session/update`, in error answers, in lines that are no frame (one cut in two where
/// a report clips it) and on stderr;
/// those of its environment and those of mmconform's own (`/proc/$PPID/environ`).
const LEAKING_AGENT: &str = r#"
found=$(tr '\0' ' ' < /proc/$PPID/environ | tr -d '"\\')
mine="$OPENAI_API_KEY $GH_TOKEN $MY_APP_SECRET"
key=$(tr '\0' '\n' < /proc/$PPID/environ | sed -n 's/^OPENAI_API_KEY=//p')
echo "stderr: $found $mine" >&2
while read -r line; do
    id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
    case "$line" in
    *'"initialize"'*)
        echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"protocolVersion\":1,\"agentCapabilities\":{\"promptCapabilities\":{}},\"agentInfo\":{\"name\":\"$found\",\"version\":\"$mine\"},\"authMethods\":[{\"id\":\"$GH_TOKEN\",\"name\":\"$MY_APP_SECRET\"}]}}";;
    *'"session/new"'*)
        echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{\"sessionId\":\"s-$GH_TOKEN\"}}";;
    *'"session/prompt"'*)
        echo "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"inherited ${GH_TOKEN:-absent} $found\"}}}}"
        echo "garbage $mine"
        printf '%388s%s\n' '' "$key" | tr ' ' x
        echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32000,\"message\":\"$found\"}}";;
    *)
        [ -n "$id" ] && echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{\"code\":-32601,\"message\":\"$mine\"}}";;
    esac
done
"#;

fn leaking_run(extra: &[&str]) -> (common::RunResult, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let command = hostile_target::script(dir.path(), "agent.sh", LEAKING_AGENT);
    let outputs = hostile_target::all_outputs_args(dir.path());
    let mut args = vec![
        "--profile",
        "acp",
        "--target-cmd",
        &command,
        "--timeout",
        "5",
        "--filter",
        "acp.initialize or acp.text",
    ];
    args.extend(outputs.iter().map(String::as_str));
    args.extend_from_slice(extra);
    let (r, _) = run_timed(&args, &hostile_target::SECRETS, Duration::from_secs(60));
    (r, dir)
}

#[test]
fn secrets_of_mmconforms_environment_are_masked_in_every_output() {
    for extra in [&[][..], &["--target-inherit-env"]] {
        let (r, dir) = leaking_run(extra);
        judged(&r);
        assert_eq!(r.outcome("acp.text"), "fail", "{}", r.context());
        let report = r.report.as_ref().unwrap().to_string();
        assert!(
            report.matches("[REDACTED]").count() >= 6,
            "{extra:?}: {report}"
        );
        hostile_target::assert_no_secret(&hostile_target::every_output(&r, &[dir.path()]));
    }
    let (r, _dir) = leaking_run(&[]);
    let report = r.report.as_ref().unwrap().to_string();
    assert!(report.contains("inherited absent"), "{report}");
}

/// An agent that leaves helpers behind (one deaf to SIGTERM, one out of its process
/// group), answers `initialize` and then never answers again.
const SPAWNING_AGENT: &str = r#"
(trap '' TERM; exec sleep 1000) </dev/null >/dev/null 2>&1 &
echo $! >> "$PIDS"
setsid sleep 1000 </dev/null >/dev/null 2>&1 &
echo $! >> "$PIDS"
sleep 1000 &
echo $! >> "$PIDS"
read -r line
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"promptCapabilities":{}}}}'
cat >/dev/null
"#;

#[test]
fn what_an_agent_starts_does_not_outlive_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let command = hostile_target::script(dir.path(), "agent.sh", SPAWNING_AGENT);
    let pids = dir.path().join("pids");
    let pass = format!("PIDS={}", pids.display());
    let (r, wall) = run_timed(
        &[
            "--profile",
            "acp",
            "--target-cmd",
            &command,
            "--timeout",
            "2",
            "--target-env",
            &pass,
            "--filter",
            "acp.text",
        ],
        &[],
        Duration::from_secs(60),
    );
    judged(&r);
    // session/new is never answered: nothing to judge the prompt on.
    assert_eq!(r.outcome("acp.text"), "blocked", "{}", r.context());
    let started = hostile_target::pids(&pids);
    assert_eq!(started.len(), 3, "{started:?}");
    let left: Vec<i32> = started
        .into_iter()
        .filter(|p| hostile_target::running(*p))
        .collect();
    assert!(
        left.is_empty(),
        "still running after mmconform exited: {left:?}"
    );
    assert!(wall < Duration::from_secs(30), "{wall:?}");
}

#[test]
fn thirty_thousand_auth_methods_get_a_proportionate_report() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"read -r line
printf '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":['
yes '{"id":"method-with-a-long-name","name":"m"},' | head -n 29999 | tr -d '\n'
echo '{"id":"last","name":"m"}]}}'
cat >/dev/null
"#;
    let command = hostile_target::script(dir.path(), "agent.sh", body);
    let (r, _) = run_timed(
        &[
            "--profile",
            "acp",
            "--target-cmd",
            &command,
            "--timeout",
            "5",
            "--filter",
            "acp.initialize",
            "-v",
        ],
        &[],
        Duration::from_secs(60),
    );
    judged(&r);
    assert_eq!(r.outcome("acp.initialize"), "pass", "{}", r.context());
    let report = std::fs::read_to_string(r.dir.path().join("report.json")).unwrap();
    assert!(report.contains("… and 29,990 more"), "{report}");
    for (name, size) in [
        ("terminal", r.stdout.len()),
        ("report", report.len()),
        ("JUnit", r.junit.as_ref().unwrap().len()),
    ] {
        assert!(size < 64 * 1024, "{name}: {size} bytes");
    }
}
