//! Ctrl-C: nothing more is sent, the reports are written marked incomplete, exit 130.

use crate::common::read_json;
use crate::host::{HostileHost, Reply};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use reference_hosts::ReferenceConfig;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn sigint_stops_sending_writes_incomplete_reports_and_exits_130() {
    // Discovery is answered; the seam hangs, so the run is mid-request when interrupted.
    let host = HostileHost::start(ReferenceConfig::default(), |r, _| {
        if r.is_discovery() {
            Reply::Forward
        } else {
            Reply::Silent
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let junit = dir.path().join("junit.xml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmconform"))
        .args(["run", "--target", &host.url(), "--timeout", "60"])
        .arg("--report")
        .arg(&report)
        .arg("--junit")
        .arg(&junit)
        .env("NO_COLOR", "1")
        .env_remove("OPENWOP_API_KEY")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The cases are sent while the seams are probed: wait until every request in
    // flight has arrived (each hangs, so nothing more comes until the signal).
    let started = Instant::now();
    let mut seen = 0;
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no seam request"
        );
        std::thread::sleep(Duration::from_millis(300));
        let requests = host.requests();
        let posts = requests.iter().filter(|r| r.method == "POST").count();
        if posts > 0 && requests.len() == seen {
            break;
        }
        seen = requests.len();
    }
    let signalled = Instant::now();
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("still running 10 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("incomplete: the run stopped"), "{stdout}");
    let report = read_json(&report).expect("the report is written on Ctrl-C");
    assert_eq!(report["summary"]["incomplete"], true);
    assert_eq!(report["summary"]["verdict"], "interrupted");
    assert_eq!(report["summary"]["exit_code"], 130);
    // Every planned case is in the report: the ones Ctrl-C left undecided are blocked.
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(
        Some(cases.len() as u64),
        report["planned"].as_u64(),
        "{report}"
    );
    let never_ran = cases
        .iter()
        .filter(|c| {
            c["outcome"] == "blocked"
                && c["reason"]
                    .as_str()
                    .is_some_and(|r| r.ends_with("before it ran"))
        })
        .count();
    assert!(never_ran > 0, "no case blocked as interrupted: {report}");
    crate::common::assert_junit_valid(&junit);
    let junit = std::fs::read_to_string(&junit).expect("JUnit is written on Ctrl-C");
    assert!(
        junit.contains("name=\"incomplete\" value=\"true\""),
        "{junit}"
    );
    let listed = junit.matches("<testcase ").count();
    let excluded = cases.iter().filter(|c| c["outcome"] == "excluded").count();
    assert_eq!(listed, cases.len() - excluded, "{junit}");
    assert!(junit.contains("before it ran"), "{junit}");
    // Nothing was sent after the signal.
    let late: Vec<_> = host
        .requests()
        .into_iter()
        .filter(|r| r.at > signalled)
        .map(|r| r.path)
        .collect();
    assert!(late.is_empty(), "sent after SIGINT: {late:?}");
}

/// A bridge whose every run leaves helpers (one deaf to SIGTERM, one out of its
/// process group) and then hangs: the run is mid-case when interrupted.
const SPAWNING_BRIDGE: &str = r#"
read line
(trap '' TERM; exec sleep 1000) </dev/null >/dev/null 2>&1 &
echo $! >> "$PIDS"
setsid sleep 1000 </dev/null >/dev/null 2>&1 &
echo $! >> "$PIDS"
case "$line" in
*describe*) echo '{"mediaCapabilities":{"acceptsInbound":[],"emitsOutbound":false}}'; exit 0;;
esac
echo '{"type":"text","text":"working"}'
trap '' TERM
while :; do sleep 1; done
"#;

/// Interrupts a run of [`SPAWNING_BRIDGE`] with `signals` SIGINTs, once its execute
/// runs are under way; every process the bridges started is gone when it has exited.
fn interrupted_leaves_nothing_running(signals: usize) {
    let dir = tempfile::tempdir().unwrap();
    let command = crate::common::hostile_target::script(dir.path(), "bridge.sh", SPAWNING_BRIDGE);
    let pids = dir.path().join("pids");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmconform"))
        .args(["run", "--profile", "agentruntime", "--target-cmd", &command])
        .args(["--timeout", "60", "--filter", "agentruntime.contract"])
        .arg("--target-env")
        .arg(format!("PIDS={}", pids.display()))
        .arg("--report")
        .arg(dir.path().join("report.json"))
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let guard = KillOnDrop(child.id());
    // describe's two helpers, then the contract run's two.
    let started = Instant::now();
    while crate::common::hostile_target::pids(&pids).len() < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the execute runs never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..signals {
        kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
        std::thread::sleep(Duration::from_millis(100));
    }
    let signalled = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if signalled.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("still running 20 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    // Reaped: its pid is no longer ours to signal.
    std::mem::forget(guard);
    assert_eq!(status.code(), Some(130));
    let left: Vec<i32> = crate::common::hostile_target::pids(&pids)
        .into_iter()
        .filter(|p| crate::common::hostile_target::running(*p))
        .collect();
    assert!(
        left.is_empty(),
        "still running after mmconform exited: {left:?}"
    );
}

/// Kills a run this test started if the test fails before it ends.
struct KillOnDrop(u32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = kill(Pid::from_raw(self.0 as i32), Signal::SIGKILL);
    }
}

#[test]
fn ctrl_c_ends_what_the_bridges_started() {
    interrupted_leaves_nothing_running(1);
}

#[test]
fn a_second_ctrl_c_still_ends_what_the_bridges_started() {
    interrupted_leaves_nothing_running(2);
}
