//! `--baseline`: known failures become xfail and do not fail the run; a stale entry,
//! one that matches nothing and an expired one each exit 5 naming the entry.

use crate::common::{RunResult, bin, run};
use std::path::{Path, PathBuf};

/// Runs against the reference host with `fault` (if any) and `baseline`.
fn run_with_baseline(fault: Option<&str>, baseline: &Path) -> RunResult {
    let mut args = vec![
        "--target",
        "reference",
        "--baseline",
        baseline.to_str().unwrap(),
    ];
    if let Some(fault) = fault {
        args.extend(["--reference-fault", fault]);
    }
    run(&args)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A baseline written by `mmconform baseline --from` for a host that accepts
/// unadvertised parts (five failing cases at openwop 1, and their five `@v2` twins: the
/// default `--openwop-major auto` judges the reference host at both majors).
fn recorded_baseline(dir: &Path) -> PathBuf {
    let first = run(&[
        "--target",
        "reference",
        "--reference-fault",
        "accepts-unadvertised",
    ]);
    assert_eq!(first.code, 1, "{}", first.context());
    let report = first.dir.path().join("report.json");
    let out = dir.join("baseline.yaml");
    let status = bin()
        .args(["baseline", "--from"])
        .arg(&report)
        .arg("--output")
        .arg(&out)
        .args(["--reason", "HOST-42: unadvertised parts slip through"])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(0), "{status:?}");
    out
}

#[test]
fn a_recorded_baseline_turns_known_failures_into_xfail_and_the_run_passes() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = recorded_baseline(dir.path());
    let text = std::fs::read_to_string(&baseline).unwrap();
    assert!(
        text.contains("openwop.rfc0091.unadvertised-rejected[audio]")
            && text.contains("openwop.rfc0091.unadvertised-rejected@v2[audio]"),
        "{text}"
    );
    assert!(text.contains("HOST-42"), "{text}");

    let r = run_with_baseline(Some("accepts-unadvertised"), &baseline);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "xfail"
    );
    assert!(r.ids_with("fail").is_empty(), "{}", r.context());
    assert!(
        r.stdout
            .contains("XFAIL   openwop.rfc0091.unadvertised-rejected[audio]")
    );
    let report = r.report.as_ref().unwrap();
    let case = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "openwop.rfc0091.unadvertised-rejected[audio]")
        .unwrap();
    assert_eq!(
        case["expected_failure"]["reason"],
        "HOST-42: unadvertised parts slip through"
    );
    // The failure itself is still on record.
    assert!(
        case["assertions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["passed"] == false)
    );
    // Each major's failure is an entry of its own, and each turns its own case into xfail.
    assert_eq!(report["run"]["baseline"]["entries"], 10);
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected@v2[audio]"),
        "xfail"
    );
    let junit = r.junit.as_ref().unwrap();
    assert!(junit.contains("expected-failure: HOST-42"), "{junit}");
}

#[test]
fn an_entry_whose_case_now_passes_is_drift() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = recorded_baseline(dir.path());
    let r = run_with_baseline(None, &baseline);
    assert_eq!(r.code, 5, "{}", r.context());
    assert!(
        r.stdout.contains("verdict: baseline-drift (exit 5)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("baseline entry `openwop.rfc0091.unadvertised-rejected[audio]` (",)
            && r.stdout.contains("now passes"),
        "{}",
        r.stdout
    );
    let drift = r.report.as_ref().unwrap()["summary"]["baseline_drift"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(drift, 10);
    // Each entry is printed once, under the verdict (the explanation only counts them).
    let entry = "baseline entry `openwop.rfc0091.unadvertised-rejected[audio]` (";
    assert_eq!(r.stdout.matches(entry).count(), 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("the baseline no longer describes the host (10 entries)"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_entry_that_matches_nothing_is_drift() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = write(
        dir.path(),
        "b.yaml",
        "mmconform_baseline: 1\nentries:\n  - case: openwop.rfc0091.unadvertised-rejected[imgae]\n    reason: typo\n",
    );
    let r = run_with_baseline(None, &baseline);
    assert_eq!(r.code, 5, "{}", r.context());
    assert!(
        r.stdout
            .contains("baseline entry `openwop.rfc0091.unadvertised-rejected[imgae]` (")
            && r.stdout.contains("b.yaml:3) matched no case"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_expired_entry_is_drift_even_while_its_case_still_fails() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = write(
        dir.path(),
        "b.json",
        r#"{"mmconform_baseline": 1, "entries": [
            {"case": "openwop.rfc0091.unadvertised-rejected", "reason": "HOST-42", "expires": "2001-01-31"},
            {"case": "openwop.rfc0091.mixed-message-rejected", "reason": "HOST-42"},
            {"case": "openwop.rfc0091.unadvertised-in-later-message-rejected", "reason": "HOST-42"},
            {"case": "openwop.rfc0091.unadvertised-in-assistant-message-rejected", "reason": "HOST-42"},
            {"case": "openwop.rfc0091.unadvertised-rejected@v2", "reason": "HOST-42"},
            {"case": "openwop.rfc0091.mixed-message-rejected@v2", "reason": "HOST-42"},
            {"case": "openwop.rfc0091.unadvertised-in-later-message-rejected@v2", "reason": "HOST-42"},
            {"case": "openwop.rfc0091.unadvertised-in-assistant-message-rejected@v2", "reason": "HOST-42"}
        ]}"#,
    );
    let r = run_with_baseline(Some("accepts-unadvertised"), &baseline);
    assert_eq!(r.code, 5, "{}", r.context());
    assert!(
        r.stdout
            .contains("`openwop.rfc0091.unadvertised-rejected` (")
            && r.stdout.contains("expired on 2001-01-31"),
        "{}",
        r.stdout
    );
    // A whole-case entry covers every expansion.
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "xfail"
    );
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[document]"),
        "xfail"
    );
}

#[test]
fn a_failure_the_baseline_does_not_list_still_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = recorded_baseline(dir.path());
    // Another fault on top: its failures are new, so exit 1 wins over everything.
    let r = run_with_baseline(Some("nested-error-body"), &baseline);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(r.outcome("openwop.rfc0091.error-body-flat"), "fail");
}

#[test]
fn a_malformed_baseline_exits_2_with_file_line_col_before_any_request() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = write(
        dir.path(),
        "bad.yaml",
        "mmconform_baseline: 1\nentries:\n  - case: x\n    reason: y\n    expires: soon\n",
    );
    let r = run_with_baseline(None, &baseline);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("bad.yaml:5:"), "{}", r.stderr);
    assert!(r.report.is_none(), "nothing ran, so nothing was reported");
    let missing = run_with_baseline(None, &dir.path().join("nope.yaml"));
    assert_eq!(missing.code, 2, "{}", missing.context());
}

#[test]
fn baseline_from_rejects_a_bad_expiry_and_a_file_that_is_not_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let not_report = write(dir.path(), "x.json", r#"{"hello": 1}"#);
    let out = bin()
        .args(["baseline", "--from"])
        .arg(&not_report)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let first = run(&[
        "--target",
        "reference",
        "--reference-fault",
        "nested-error-body",
    ]);
    let out = bin()
        .args(["baseline", "--from"])
        .arg(first.dir.path().join("report.json"))
        .args(["--expires", "next week"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--expires"),
        "{out:?}"
    );
}
