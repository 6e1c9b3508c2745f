//! Hostile bridges: each ends in a verdict or `blocked`, never a tool error, a panic or
//! a hang, and within the bounds (`--timeout`, the 2 s grace, stdout's caps). The
//! bridges are small `sh` programs given as `--target-cmd` (no shell runs them: `sh`
//! is the program).

use crate::common::{self, hostile_target, run_timed};
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

/// A bridge that prints every secret it can find, on stdout (as event text, as a line
/// that is no event, inside describe's declaration, cut in two where a report clips a
/// line), on stderr (and where stderr is cut) and in its error event: those of its
/// environment, and those of mmconform's own, read from `/proc/$PPID/environ`
/// (mmconform is its parent). `${GH_TOKEN:-absent}` says whether it inherited them.
const LEAKING_BRIDGE: &str = r#"
read line
found=$(tr '\0' ' ' < /proc/$PPID/environ)
mine="$OPENAI_API_KEY $GH_TOKEN $MY_APP_SECRET"
key=$(tr '\0' '\n' < /proc/$PPID/environ | sed -n 's/^OPENAI_API_KEY=//p')
# The key placed where a report clips a line (400 characters) and stderr (64 KiB).
printf '%388s%s\n' '' "$key" | tr ' ' x
cut_stderr() { head -c 65530 /dev/zero | tr '\0' y >&2; echo "$key" >&2; }
case "$line" in
*describe*)
    echo "{\"name\":\"$found\",\"mediaCapabilities\":{\"acceptsInbound\":[\"$GH_TOKEN\",\"x $MY_APP_SECRET\"],\"emitsOutbound\":false}}"
    echo "stderr: $found $mine" >&2
    cut_stderr
    exit 0;;
esac
echo "{\"type\":\"text\",\"text\":\"inherited ${GH_TOKEN:-absent} $mine\"}"
echo "{\"type\":\"error\",\"message\":\"$found\"}"
echo "not an event: $mine $found"
echo "stderr: $found $mine" >&2
cut_stderr
echo "{\"type\":\"done\",\"result\":{\"text\":\"$mine\",\"sessionId\":\"$GH_TOKEN\",\"durationMs\":1,\"aborted\":false}}"
"#;

fn leaking_run(extra: &[&str]) -> (common::RunResult, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let command = hostile_target::script(dir.path(), "bridge.sh", LEAKING_BRIDGE);
    let outputs = hostile_target::all_outputs_args(dir.path());
    let mut args = vec![
        "--profile",
        "agentruntime",
        "--target-cmd",
        &command,
        "--filter",
        "agentruntime.contract or agentruntime.describe",
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
        assert_eq!(
            r.outcome("agentruntime.contract"),
            "fail",
            "{}",
            r.context()
        );
        let report = r.report.as_ref().unwrap().to_string();
        // The bridge did print them (the masks show where), so a leak would be seen.
        assert!(
            report.matches("[REDACTED]").count() >= 6,
            "{extra:?}: {report}"
        );
        hostile_target::assert_no_secret(&hostile_target::every_output(&r, &[dir.path()]));
    }
}

#[test]
fn a_bridge_inherits_only_the_allow_list_unless_asked() {
    let (r, _dir) = leaking_run(&[]);
    let report = r.report.as_ref().unwrap().to_string();
    assert!(report.contains("inherited absent"), "{report}");
    let (r, _dir) = leaking_run(&["--target-env", "GH_TOKEN"]);
    let report = r.report.as_ref().unwrap().to_string();
    assert!(report.contains("inherited [REDACTED]"), "{report}");
}

/// A bridge that leaves helpers behind on every run (one that ignores SIGTERM, one that
/// left the process group with `setsid`), and on `execute` never exits either: the
/// helpers end with the run, not after it.
const SPAWNING_BRIDGE: &str = r#"
read line
(trap '' TERM; exec sleep 1000) </dev/null >/dev/null 2>&1 &
echo $! >> "$PIDS"
setsid sleep 1000 </dev/null >/dev/null 2>&1 &
echo $! >> "$PIDS"
case "$line" in
*describe*) echo '{"mediaCapabilities":{"acceptsInbound":[],"emitsOutbound":false}}'; exit 0;;
esac
sleep 1000 &
echo $! >> "$PIDS"
echo '{"type":"text","text":"working"}'
wait
"#;

#[test]
fn what_a_bridge_starts_does_not_outlive_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let command = hostile_target::script(dir.path(), "bridge.sh", SPAWNING_BRIDGE);
    let pids = dir.path().join("pids");
    let pass = format!("PIDS={}", pids.display());
    let (r, wall) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            &command,
            "--target-env",
            &pass,
            "--timeout",
            "2",
            "--filter",
            "agentruntime.contract",
        ],
        &[],
        Duration::from_secs(60),
    );
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.contract"),
        "blocked",
        "{}",
        r.context()
    );
    let started = hostile_target::pids(&pids);
    assert!(started.len() >= 5, "{started:?}");
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

/// A bridge that declares outbound media and names files outside its working folder
/// (existing or not, directly or through `..`), and links to them inside it.
const SNOOPING_BRIDGE: &str = r#"
read line
case "$line" in
*describe*) echo '{"mediaCapabilities":{"acceptsInbound":[],"emitsOutbound":true}}'; exit 0;;
esac
ln -s /etc/shadow shadow-link.png
ln -s /etc/passwd passwd-link.png
for p in /etc/shadow /etc/no-such-file-here ../../../../etc/passwd ../../../../etc/no-such-file-here shadow-link.png passwd-link.png; do
    echo "{\"type\":\"media\",\"media\":{\"mimeType\":\"image/png\",\"filePath\":\"$p\"}}"
done
echo '{"type":"done","result":{"text":"","sessionId":"s","durationMs":1,"aborted":false}}'
"#;

#[test]
fn outbound_files_outside_the_working_folder_are_refused_unread_and_alike() {
    let dir = tempfile::tempdir().unwrap();
    let command = hostile_target::script(dir.path(), "bridge.sh", SNOOPING_BRIDGE);
    let (r, _) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            &command,
            "--filter",
            "agentruntime.outbound",
        ],
        &[],
        Duration::from_secs(60),
    );
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.outbound"),
        "fail",
        "{}",
        r.context()
    );
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "agentruntime.outbound")
        .unwrap();
    let actual = case["assertions"][0]["actual"]
        .as_str()
        .unwrap()
        .to_string();
    for path in [
        "/etc/shadow",
        "/etc/no-such-file-here",
        "../../../../etc/passwd",
        "../../../../etc/no-such-file-here",
    ] {
        let said =
            format!("image/png: filePath {path}: a path outside its working folder (not read)");
        assert!(actual.contains(&said), "{path}: {actual}");
    }
    for link in ["shadow-link.png", "passwd-link.png"] {
        let said =
            format!("image/png: filePath {link}: the file is a link (links are not followed)");
        assert!(actual.contains(&said), "{link}: {actual}");
    }
    for (name, text) in hostile_target::every_output(&r, &[]) {
        assert!(
            !text.contains("root:"),
            "{name} holds a line of /etc/passwd"
        );
    }
}

/// A bridge that leaves a helper (out of its process group) swapping `out.png` between
/// a PNG and a FIFO, and names `out.png` nine thousand times: an open that waits for a
/// FIFO's writer would hang the run.
const FIFO_SWAPPING_BRIDGE: &str = r#"
read line
case "$line" in
*describe*) echo '{"mediaCapabilities":{"acceptsInbound":[],"emitsOutbound":true}}'; exit 0;;
esac
printf '\211PNG\r\n\032\n' > real.png
mkfifo fifo
setsid sh -c 'echo $$ > "$SWAPPER"; while :; do ln -f fifo out.png; ln -f real.png out.png; done' </dev/null >/dev/null 2>&1 &
sleep 0.3
yes '{"type":"media","media":{"mimeType":"image/png","filePath":"out.png"}}' | head -n 9000
echo '{"type":"done","result":{"text":"","sessionId":"s","durationMs":1,"aborted":false}}'
"#;

/// Kills the process groups whose leaders' pids are in a file, when dropped.
struct EndsGroupsOnDrop(std::path::PathBuf);

impl Drop for EndsGroupsOnDrop {
    fn drop(&mut self) {
        for pid in hostile_target::pids(&self.0) {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

#[test]
fn a_fifo_swapped_in_never_hangs_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let command = hostile_target::script(dir.path(), "bridge.sh", FIFO_SWAPPING_BRIDGE);
    let swapper = dir.path().join("swapper");
    // The helper leaves its group on purpose: it is this test's to end, whatever happens.
    let _swapper = EndsGroupsOnDrop(swapper.clone());
    let pass = format!("SWAPPER={}", swapper.display());
    let (r, wall) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            &command,
            "--target-env",
            &pass,
            "--timeout",
            "5",
            "--deadline",
            "20",
            "--filter",
            "agentruntime.outbound",
        ],
        &[],
        Duration::from_secs(60),
    );
    judged(&r);
    assert!(wall < Duration::from_secs(30), "{wall:?}: {}", r.context());
    assert!(r.report.is_some() && r.junit.is_some(), "{}", r.context());
    let outcome = r.outcome("agentruntime.outbound");
    assert!(outcome == "fail" || outcome == "blocked", "{}", r.context());
}

#[test]
fn a_describe_with_ninety_thousand_bad_entries_gets_a_proportionate_report() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"read line
printf '{"mediaCapabilities":{"emitsOutbound":false,"acceptsInbound":['
yes '"not a type",' | head -n 89999 | tr -d '\n'; echo '"x"]}}'
"#;
    let command = hostile_target::script(dir.path(), "bridge.sh", body);
    let (r, _) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            &command,
            "--filter",
            "agentruntime.describe",
            "-v",
        ],
        &[],
        Duration::from_secs(60),
    );
    judged(&r);
    assert_eq!(
        r.outcome("agentruntime.describe"),
        "fail",
        "{}",
        r.context()
    );
    let report = std::fs::read_to_string(r.dir.path().join("report.json")).unwrap();
    // (100,000 would pass the JSON bound: describe would be blocked, unread.)
    assert!(report.contains("… and 89,990 more"), "{report}");
    for (name, size) in [
        ("terminal", r.stdout.len()),
        ("report", report.len()),
        ("JUnit", r.junit.as_ref().unwrap().len()),
    ] {
        assert!(size < 64 * 1024, "{name}: {size} bytes");
    }
}

#[test]
fn more_values_are_masked_when_named_on_the_command_line_or_in_the_project_file() {
    let dir = tempfile::tempdir().unwrap();
    let body = r#"read line
tr '\0' '\n' < /proc/$PPID/environ | grep -E '^(DEPLOY_HOOK|BUILD_NOTE)='
"#;
    let command = hostile_target::script(dir.path(), "bridge.sh", body);
    let config = dir.path().join("mmconform.toml");
    std::fs::write(&config, "mask_env = [\"BUILD_NOTE\"]\n").unwrap();
    let (r, _) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            &command,
            "--filter",
            "agentruntime.describe",
            "--mask-env",
            "DEPLOY_HOOK",
            "--mask-env",
            "NOT_SET_ANYWHERE",
            "--config",
            config.to_str().unwrap(),
        ],
        &[
            ("DEPLOY_HOOK", "https://hooks.example/deploy-7f3a9"),
            ("BUILD_NOTE", "internal-build-note-55"),
        ],
        Duration::from_secs(60),
    );
    judged(&r);
    let report = r.report.as_ref().unwrap().to_string();
    assert!(report.contains("DEPLOY_HOOK=[REDACTED]"), "{report}");
    assert!(report.contains("BUILD_NOTE=[REDACTED]"), "{report}");
    for (name, text) in hostile_target::every_output(&r, &[]) {
        assert!(!text.contains("deploy-7f3a9"), "{name}");
        assert!(!text.contains("internal-build-note"), "{name}");
    }
    assert!(
        r.stdout
            .contains("--mask-env NOT_SET_ANYWHERE: no such variable in this environment"),
        "{}",
        r.stdout
    );
}

#[test]
fn what_shapes_a_started_program_is_checked_before_anything_runs() {
    let (r, _) = run_timed(
        &[
            "--profile",
            "agentruntime",
            "--target-cmd",
            "true",
            "--target-env",
            "NOT_SET_ANYWHERE_42",
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr
            .contains("--target-env NOT_SET_ANYWHERE_42: no such variable in this environment"),
        "{}",
        r.stderr
    );
    let (r, _) = run_timed(
        &["--target", "reference", "--target-inherit-env"],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("--target-inherit-env"), "{}", r.stderr);
}
