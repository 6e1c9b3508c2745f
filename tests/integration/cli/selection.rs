//! Selecting and rerunning: `--filter` expressions (several flags: every one), an
//! exact id selecting only itself, the closest ids for a filter that selects nothing,
//! parse errors at their column, and the rerun command each run ends with selecting
//! exactly its failed and blocked cases, as `--rerun-failed` does from a saved report.

use crate::common::{RunResult, bin, run};
use std::collections::BTreeSet;

/// The ids the run did not exclude.
fn selected(r: &RunResult) -> BTreeSet<String> {
    (r.cases().iter())
        .filter(|c| c["outcome"] != "excluded")
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

fn attention(r: &RunResult) -> BTreeSet<String> {
    (r.cases().iter())
        .filter(|c| matches!(c["outcome"].as_str(), Some("fail" | "error" | "blocked")))
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn several_filters_select_what_every_one_selects_as_run_help_shows() {
    let glob = selected(&run(&[
        "--target",
        "reference",
        "--filter",
        "openwop.rfc0091.*",
    ]));
    let must = selected(&run(&["--target", "reference", "--filter", "level:MUST"]));
    let both = selected(&run(&[
        "--target",
        "reference",
        "--filter",
        "openwop.rfc0091.*",
        "--filter",
        "level:MUST",
    ]));
    let expected: BTreeSet<String> = glob.intersection(&must).cloned().collect();
    assert!(!expected.is_empty() && expected.len() < glob.len().min(must.len()));
    assert_eq!(both, expected);
    let one = selected(&run(&[
        "--target",
        "reference",
        "--filter",
        "openwop.rfc0091.* and level(MUST)",
    ]));
    assert_eq!(one, expected);
    let either = selected(&run(&[
        "--target",
        "reference",
        "--filter",
        "id(#openwop.rfc0091.*) or level(MUST)",
    ]));
    assert_eq!(either, glob.union(&must).cloned().collect());
}

#[test]
fn an_exact_id_selects_only_that_case() {
    let id = "openwop.rfc0021.accept.payload-invalid";
    let r = run(&["--target", "reference", "--filter", id]);
    assert_eq!(
        selected(&r),
        BTreeSet::from([id.to_string()]),
        "{}",
        r.context()
    );
    let family = run(&["--target", "reference", "--filter", &format!("id(~{id})")]);
    assert!(selected(&family).len() > 20, "{}", family.context());
}

#[test]
fn a_filter_that_selects_nothing_names_the_closest_ids() {
    let r = run(&[
        "--target",
        "reference",
        "--filter",
        "openwop.rfc0021.accept.payload-invalidd",
    ]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(
        r.stderr.contains("note: --filter selects no openwop case; the closest ids: openwop.rfc0021.accept.payload-invalid"),
        "{}",
        r.context()
    );
    assert!(
        r.stdout.contains("none matches --filter"),
        "{}",
        r.context()
    );
}

#[test]
fn a_filter_that_does_not_parse_points_at_its_column() {
    let out = bin()
        .args([
            "run",
            "--target",
            "reference",
            "--filter",
            "level(MUST) and (id(x)",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("this `(` is never closed (column 17)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\n    level(MUST) and (id(x)\n                    ^"),
        "{stderr}"
    );
    let out = bin()
        .args(["run", "--target", "reference", "--filter", "outcome(fail)"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--from-report"));
}

/// The run's closing rerun command, as argv (without the program).
fn rerun_argv(r: &RunResult) -> Vec<String> {
    let line = (r.stdout.lines())
        .find_map(|l| {
            l.split_once(": mmconform ")
                .filter(|_| l.starts_with("rerun the "))
        })
        .unwrap_or_else(|| panic!("no rerun command: {}", r.context()))
        .1;
    shlex::split(line).unwrap()
}

#[test]
fn the_rerun_command_and_rerun_failed_select_exactly_the_failed_and_blocked_cases() {
    // A fault that fails some cases.
    let args = [
        "--target",
        "reference",
        "--reference-fault",
        "accepts-unadvertised",
        "-q",
    ];
    let first = run(&args);
    assert_eq!(first.code, 1, "{}", first.context());
    let wanted = attention(&first);
    assert!(wanted.len() >= 4, "{}", first.context());
    // The command printed names the report the run wrote.
    let argv = rerun_argv(&first);
    assert_eq!(argv[argv.len() - 2], "--rerun-failed", "{argv:?}");
    let again = run(&argv[1..].iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(selected(&again), wanted, "{}", again.context());
    // Without a report, the command lists the ids.
    let out = bin().arg("run").args(args).output().unwrap();
    let printed = RunResult {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        report: None,
        junit: None,
        dir: tempfile::tempdir().unwrap(),
    };
    let argv = rerun_argv(&printed);
    assert_eq!(argv[argv.len() - 2], "--filter", "{argv:?}");
    let again = run(&argv[1..].iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(selected(&again), wanted, "{}", again.context());
}
