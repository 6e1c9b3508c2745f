//! `run_once` against small `sh` programs: exit codes, stderr, the timeout, the abort
//! SIGTERM, a process that lingers after its last line, and one that cannot start.

use super::*;
use crate::process::lines::ReadEnd;

fn sh(script: &str) -> Command {
    Command {
        argv: vec!["sh".into(), "-c".into(), script.into()],
        cwd: None,
    }
}

fn kept(line: Line) -> Line {
    line
}

fn never_ends(_: &Line) -> bool {
    false
}

fn ends_on_done(line: &Line) -> bool {
    line.text == "done"
}

async fn go(
    command: &Command,
    timeout_ms: u64,
    abort: bool,
    ends: &(dyn Fn(&Line) -> bool + Sync),
) -> Finished<Line> {
    run_once(RunOptions {
        command,
        environment: Environment::default().with("MMCONFORM_CASE", "c1"),
        input: b"hello\n".to_vec(),
        limits: LineLimits::for_body_cap(1 << 20),
        timeout: Duration::from_millis(timeout_ms),
        grace: Duration::from_millis(500),
        after_end: Duration::from_millis(500),
        stop: Stop::never(),
        sigterm_on_first_line: abort,
        keep: &mut kept,
        ends_output: ends,
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn stdin_env_stdout_stderr_and_the_exit_code_are_all_seen() {
    let cmd = sh("read line; echo \"$line $MMCONFORM_CASE\"; echo oops >&2; pwd; exit 3");
    let f = go(&cmd, 10_000, false, &never_ends).await;
    assert_eq!(f.lines[0].text, "hello c1");
    assert!(
        f.lines[1].text.contains("tmp"),
        "a fresh temporary directory: {}",
        f.lines[1].text
    );
    assert_eq!(f.stderr.text, "oops\n");
    assert_eq!(f.ending, Ending::Exited(3));
    assert_eq!((f.read_end, f.ended_by), (ReadEnd::Eof, None));
}

#[tokio::test]
async fn the_timeout_ends_a_process_that_never_exits() {
    let started = std::time::Instant::now();
    let f = go(&sh("exec sleep 60"), 300, false, &never_ends).await;
    assert_eq!(f.ended_by, Some(EndedBy::Timeout));
    assert_eq!(f.ending, Ending::Signalled(15));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn sigterm_ignored_is_followed_by_sigkill_after_the_grace() {
    let f = go(
        &sh("trap '' TERM; echo started; while true; do sleep 0.1; done"),
        10_000,
        true,
        &never_ends,
    )
    .await;
    let abort = f.abort.expect("SIGTERM was sent after the first line");
    assert_eq!(abort.after_lines, 1);
    assert!(!abort.exited_within_grace);
    assert_eq!(f.ending, Ending::Signalled(9));
}

#[tokio::test]
async fn an_abort_answered_in_time_is_recorded_as_such() {
    let f = go(
        &sh("trap 'echo aborted; exit 0' TERM; echo started; while true; do sleep 0.05; done"),
        10_000,
        true,
        &never_ends,
    )
    .await;
    assert!(f.abort.unwrap().exited_within_grace);
    assert_eq!(f.lines.last().unwrap().text, "aborted");
    assert_eq!(f.ending, Ending::Exited(0));
}

#[tokio::test]
async fn a_process_lingering_after_its_last_line_is_ended() {
    let f = go(
        &sh("echo done; exec sleep 60"),
        10_000,
        false,
        &ends_on_done,
    )
    .await;
    assert_eq!(f.ended_by, Some(EndedBy::Lingered));
}

#[tokio::test]
async fn a_program_that_does_not_exist_cannot_start() {
    let cmd = Command {
        argv: vec!["/nonexistent/bridge".into()],
        cwd: None,
    };
    let err = run_once(RunOptions {
        command: &cmd,
        environment: Environment::default(),
        input: Vec::new(),
        limits: LineLimits::for_body_cap(1024),
        timeout: Duration::from_secs(1),
        grace: Duration::from_millis(100),
        after_end: Duration::from_millis(100),
        stop: Stop::never(),
        sigterm_on_first_line: false,
        keep: &mut kept,
        ends_output: &never_ends,
    })
    .await
    .unwrap_err();
    assert!(err.contains("cannot start `/nonexistent/bridge`"), "{err}");
}

/// Whether `pid` is a running process (a zombie waiting for its reaper is not).
pub(crate) fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
        !matches!(state, Some(Some('Z' | 'X')))
    })
}

/// The pid a program wrote to `path`.
pub(crate) fn pid_in(path: &std::path::Path) -> i32 {
    std::fs::read_to_string(path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn what_a_program_started_and_left_behind_ends_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    // The helper ignores SIGTERM and holds no stream of ours: only SIGKILL to the group ends it.
    let script = format!(
        "(trap '' TERM; exec sleep 1000) </dev/null >/dev/null 2>&1 & echo $! > {}; echo done",
        pidfile.display()
    );
    let f = go(&sh(&script), 10_000, false, &ends_on_done).await;
    assert_eq!(f.ending, Ending::Exited(0));
    let pid = pid_in(&pidfile);
    assert!(!running(pid), "the helper {pid} outlived its program");
}

#[tokio::test]
async fn a_timeout_ends_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let script = format!("sleep 1000 & echo $! > {}; wait", pidfile.display());
    let f = go(&sh(&script), 300, false, &never_ends).await;
    assert_eq!(f.ended_by, Some(EndedBy::Timeout));
    assert!(!running(pid_in(&pidfile)));
}
