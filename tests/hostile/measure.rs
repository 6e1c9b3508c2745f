//! Running the built binary under watch: exit code, wall time and peak memory.
//!
//! Peak memory is the largest resident set of any child this test process has waited
//! for (`getrusage(RUSAGE_CHILDREN)`); nextest runs each test in its own process, so it
//! is the binary this test ran. Under plain `cargo test` it is the largest child of the
//! whole test binary, which is still a correct upper bound for the assertion.
//!
//! With `MMCONFORM_MEASURE_FILE=path` set, each run appends `name<TAB>exit<TAB>ms<TAB>KiB`
//! to that file (`make hostile-numbers` prints them as a table).

use crate::common::{RunResult, run_timed};
use std::io::Write;
use std::time::Duration;

/// Every hostile run must stay under this much memory.
pub const MEMORY_BOUND_KIB: i64 = 100 * 1024;

pub struct Measured {
    pub run: RunResult,
    pub wall: Duration,
    pub peak_kib: i64,
}

impl std::ops::Deref for Measured {
    type Target = RunResult;
    fn deref(&self) -> &RunResult {
        &self.run
    }
}

/// `mmconform run ARGS --report .. --junit ..` with `env`, measured.
pub fn run_measured(name: &str, args: &[&str], env: &[(&str, &str)]) -> Measured {
    // A hang is a failure of its own: never wait for a run longer than this.
    let (run, wall) = run_timed(args, env, Duration::from_secs(90));
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    let peak_kib = usage.max_rss();
    if let Ok(path) = std::env::var("MMCONFORM_MEASURE_FILE")
        && let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(
            file,
            "{name}\t{}\t{}\t{peak_kib}",
            run.code,
            wall.as_millis()
        );
    }
    Measured {
        run,
        wall,
        peak_kib,
    }
}

impl Measured {
    /// What every hostile run must show whatever the host did: it ended by itself in
    /// time, within the memory bound, without a panic, and wrote both reports.
    pub fn assert_survived(&self, within: Duration) {
        self.assert_survived_within(within, MEMORY_BOUND_KIB);
    }

    /// [`Measured::assert_survived`] with a memory bound of its own (in KiB).
    pub fn assert_survived_within(&self, within: Duration, memory_kib: i64) {
        let context = self.run.context();
        assert_ne!(
            self.run.code, -1,
            "killed by a signal or the 90 s guard\n{context}"
        );
        assert_ne!(self.run.code, 101, "panicked\n{context}");
        assert!(
            !self.run.stderr.contains("panicked"),
            "a panic message on stderr\n{context}"
        );
        assert!(
            self.wall <= within,
            "took {:?}, bound {within:?}\n{context}",
            self.wall
        );
        assert!(
            self.peak_kib <= memory_kib,
            "peak memory {} KiB over the {memory_kib} KiB bound\n{context}",
            self.peak_kib
        );
        let report = self
            .run
            .report
            .as_ref()
            .expect("the JSON report is written");
        assert_eq!(report["summary"]["exit_code"], self.run.code, "{context}");
        assert!(self.run.junit.is_some(), "the JUnit report is written");
    }

    pub fn summary(&self) -> &serde_json::Value {
        &self.run.report.as_ref().unwrap()["summary"]
    }

    pub fn discovery_problem(&self) -> String {
        self.run.report.as_ref().unwrap()["discovery"]["problem"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// (id, outcome) of every case that needed the target and was not skipped or
    /// excluded; the offline schema cases pass whatever the host does.
    pub fn online(&self) -> Vec<(String, String)> {
        self.run
            .cases()
            .iter()
            .filter(|c| {
                !c["scenario_file"]
                    .as_str()
                    .unwrap_or("")
                    .ends_with("rfc0021-offline.yaml")
            })
            .map(|c| {
                (
                    c["id"].as_str().unwrap_or("").to_string(),
                    c["outcome"].as_str().unwrap_or("").to_string(),
                )
            })
            .filter(|(_, o)| o != "skip" && o != "excluded")
            .collect()
    }

    /// Asserts every case that needed the target ended `blocked` (and some did).
    pub fn assert_all_online_blocked(&self) {
        let online = self.online();
        assert!(!online.is_empty(), "{}", self.run.context());
        let unblocked: Vec<_> = online.iter().filter(|(_, o)| o != "blocked").collect();
        assert!(unblocked.is_empty(), "not blocked: {unblocked:?}");
    }

    /// Asserts no case that needed the target passed: a host answering garbage may earn
    /// `fail` (a verdict on what it said) or `blocked`, never `pass`.
    pub fn assert_nothing_online_passed(&self) {
        let online = self.online();
        assert!(!online.is_empty(), "{}", self.run.context());
        let passed: Vec<_> = online.iter().filter(|(_, o)| o == "pass").collect();
        assert!(passed.is_empty(), "passed: {passed:?}");
    }

    pub fn count(&self, outcome: &str) -> usize {
        self.online().iter().filter(|(_, o)| o == outcome).count()
    }
}
