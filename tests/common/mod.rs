//! Helpers shared by the integration tests: run the built binary, read its JSON report.
#![allow(dead_code)]

pub mod hostile_target;
pub mod junit_xsd;
pub mod parallel;
pub mod served;
pub mod witness;

pub use junit_xsd::assert_junit_valid;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub struct RunResult {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub report: Option<Value>,
    pub junit: Option<String>,
    pub dir: tempfile::TempDir,
}

impl RunResult {
    pub fn cases(&self) -> Vec<Value> {
        self.report
            .as_ref()
            .and_then(|r| r["cases"].as_array().cloned())
            .unwrap_or_default()
    }

    pub fn outcome(&self, id: &str) -> String {
        self.outcome_of(id)
            .unwrap_or_else(|| panic!("case {id} not in report; stdout:\n{}", self.stdout))
    }

    /// The outcome of case `id`, or `None` when the report (or the case) is missing.
    pub fn outcome_of(&self, id: &str) -> Option<String> {
        self.cases()
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| c["outcome"].as_str().unwrap_or("").to_string())
    }

    pub fn ids_with(&self, outcome: &str) -> Vec<String> {
        self.cases()
            .iter()
            .filter(|c| c["outcome"] == outcome)
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    }

    /// Exit 0 with no case failed, warned, blocked or errored, and every case id
    /// starting with `id_prefix` (the profile's own pack, nothing else).
    pub fn assert_clean(&self, id_prefix: &str) {
        assert_eq!(self.code, 0, "{}", self.context());
        for outcome in ["fail", "warn", "blocked", "error"] {
            assert!(
                self.ids_with(outcome).is_empty(),
                "{outcome}: {}",
                self.context()
            );
        }
        assert!(
            self.cases()
                .iter()
                .all(|c| c["id"].as_str().unwrap().starts_with(id_prefix))
        );
    }

    /// How case `id`'s answer was classified (`stream.classification`).
    pub fn classification(&self, id: &str) -> String {
        self.cases()
            .into_iter()
            .find(|c| c["id"] == id)
            .and_then(|c| c["stream"]["classification"].as_str().map(str::to_string))
            .unwrap_or_else(|| panic!("{id} has no classification"))
    }

    pub fn context(&self) -> String {
        format!(
            "exit {}\nstdout:\n{}\nstderr:\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

pub fn bin() -> Command {
    let mut cmd = Command::cargo_bin("mmconform").unwrap();
    cmd.env_remove("OPENWOP_BASE_URL")
        .env_remove("AGUI_TARGET_URL")
        .env_remove("A2A_TARGET_URL")
        .env_remove("A2A_TOKEN")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("OPENWOP_API_KEY")
        .env_remove("OPENWOP_REQUIRE_BEHAVIOR")
        .env_remove("OPENWOP_OPTED_OUT_PROFILES")
        .env_remove("OPENWOP_TEST_COMPAT_ENDPOINT")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("MMCONFORM_CONFIG")
        .env("NO_COLOR", "1");
    // A proxy in the developer's environment would sit between the tests and their
    // loopback hosts; tests that want one set it themselves.
    for variable in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
        "NO_PROXY",
        "no_proxy",
    ] {
        cmd.env_remove(variable);
    }
    cmd
}

/// Runs `mmconform run ARGS --junit .. --report ..` and collects everything.
pub fn run(args: &[&str]) -> RunResult {
    run_with_env(args, &[])
}

/// `mmconform run --profile PROFILE --target reference EXTRA..`.
pub fn run_reference(profile: &str, extra: &[&str]) -> RunResult {
    let mut args = vec!["--profile", profile, "--target", "reference"];
    args.extend_from_slice(extra);
    run(&args)
}

pub fn run_with_env(args: &[&str], env: &[(&str, &str)]) -> RunResult {
    run_timed(args, env, std::time::Duration::from_secs(120)).0
}

/// [`run_with_env`] that never waits longer than `limit`, and says how long it took.
pub fn run_timed(
    args: &[&str],
    env: &[(&str, &str)],
    limit: std::time::Duration,
) -> (RunResult, std::time::Duration) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let junit = dir.path().join("junit.xml");
    let mut cmd = bin();
    cmd.arg("run")
        .args(args)
        .arg("--report")
        .arg(&report)
        .arg("--junit")
        .arg(&junit);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let started = std::time::Instant::now();
    let out = cmd.timeout(limit).output().unwrap();
    let wall = started.elapsed();
    if junit.exists() {
        assert_junit_valid(&junit);
    }
    let result = RunResult {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        report: read_json(&report),
        junit: std::fs::read_to_string(&junit).ok(),
        dir,
    };
    (result, wall)
}

/// The ids of the offline cases (schema checks that need no target): the only cases
/// that may pass when the target itself cannot be observed.
pub fn offline_case_ids() -> Vec<String> {
    let r = run(&["--offline"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let ids = r.ids_with("pass");
    assert!(!ids.is_empty(), "an offline run passes its schema cases");
    ids
}

/// The faults `serve-reference --profile PROFILE --list-faults` names (its first column).
/// `serve-reference --list-faults` of `profile`: (name, needs an upstream model).
fn fault_list(profile: &str) -> Vec<(String, bool)> {
    let out = bin()
        .args(["serve-reference", "--profile", profile, "--list-faults"])
        .output()
        .unwrap();
    assert!(out.status.success(), "--list-faults failed: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let name = l.split_whitespace().next()?.to_string();
            Some((name, l.ends_with("[needs --upstream]")))
        })
        .collect()
}

/// Every fault a host of `profile` has, the forwarding ones included.
pub fn all_faults(profile: &str) -> Vec<String> {
    fault_list(profile)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// The forwarding faults of `profile`: they change only what reaches an upstream model.
pub fn forwarding_faults(profile: &str) -> Vec<String> {
    fault_list(profile)
        .into_iter()
        .filter(|(_, forwarding)| *forwarding)
        .map(|(name, _)| format!("{profile}:{name}"))
        .collect()
}

pub fn read_json(path: &Path) -> Option<Value> {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// insta settings that keep every snapshot in `tests/snapshots/`, whichever module of
/// whichever test binary asserts it (files are named `<module path>__<name>.snap`).
pub fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    settings
}
