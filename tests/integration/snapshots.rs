//! Snapshots of what users read: the terminal output and the JUnit file of real runs
//! against the reference host, with ports, durations, dates and nonces redacted.

use crate::common::{self, run};

fn settings(r: &common::RunResult) -> insta::Settings {
    let mut s = common::snapshot_settings();
    let nonce = r.report.as_ref().unwrap()["run"]["nonce"]
        .as_str()
        .unwrap()
        .to_string();
    s.add_filter(&nonce, "[NONCE]");
    // Inline media embed the nonce, so their base64 differs on every run.
    s.add_filter(r"[A-Za-z0-9+/]{40,}={0,2}", "[BASE64]");
    s.add_filter(r"127\.0\.0\.1:\d+", "127.0.0.1:[PORT]");
    s.add_filter(r"\[\d+(ms|s)( \d+ms)?\]", "[DURATION]");
    s.add_filter(r"duration: .*", "duration: [DURATION]");
    // The rerun command names the run's report, in a fresh temporary directory.
    s.add_filter(r"--rerun-failed \S+report\.json", "--rerun-failed [REPORT]");
    s.add_filter(r#"time="[0-9.]+""#, r#"time="[TIME]""#);
    s.add_filter(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "[TIMESTAMP]");
    s.add_filter(r"date: .*GMT", "date: [DATE]");
    s.add_filter(r"[0-9a-f]{64}", "[SHA256]");
    s.add_filter(r"[A-Za-z0-9+/]{16}…\[\+\d+ chars\]", "[MEDIA]");
    // OpenAI completions: ids count the server's answers, `created` is the clock.
    s.add_filter(r"chatcmpl-mmconform-\d+", "chatcmpl-mmconform-[N]");
    s.add_filter(r#""created":\d+"#, r#""created":[TIME]"#);
    s
}

#[test]
fn terminal_output_of_a_passing_run() {
    let r = run(&["--target", "reference", "-j", "4"]);
    assert_eq!(r.code, 0);
    settings(&r).bind(|| insta::assert_snapshot!("terminal_pass", r.stdout));
}

#[test]
fn terminal_and_junit_of_a_failing_run() {
    let r = run(&[
        "--target",
        "reference",
        "--reference-fault",
        "nested-error-body",
        "--filter",
        "error-body-flat or unknown-type-rejected",
    ]);
    assert_eq!(r.code, 1);
    settings(&r).bind(|| {
        insta::assert_snapshot!("terminal_fail", r.stdout);
        insta::assert_snapshot!("junit_fail", r.junit.clone().unwrap());
    });
}

#[test]
fn terminal_output_of_an_agui_run() {
    let r = run(&["--profile", "agui", "--target", "reference", "-j", "4"]);
    assert_eq!(r.code, 0, "{}", r.context());
    settings(&r).bind(|| insta::assert_snapshot!("terminal_agui_pass", r.stdout));
}

#[test]
fn terminal_output_of_an_agui_run_catching_a_silent_drop() {
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        "reference",
        "--reference-fault",
        "forwards-images-only",
        "--filter",
        "agui.accept.data*",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    settings(&r).bind(|| insta::assert_snapshot!("terminal_agui_fail", r.stdout));
}

#[test]
fn terminal_output_of_an_openai_run() {
    let r = run(&["--profile", "openai", "--target", "reference", "-j", "4"]);
    assert_eq!(r.code, 0, "{}", r.context());
    settings(&r).bind(|| insta::assert_snapshot!("terminal_openai_pass", r.stdout));
}

#[test]
fn terminal_output_of_an_openai_run_catching_a_silent_drop() {
    let r = run(&[
        "--profile",
        "openai",
        "--target",
        "reference",
        "--model",
        "reference-text",
        "--reference-fault",
        "ignores-image-on-text-model",
        "--filter",
        "openai.refuse.*",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    settings(&r).bind(|| insta::assert_snapshot!("terminal_openai_fail", r.stdout));
}

#[test]
fn an_unreachable_target_is_said_in_a_few_lines_and_decides_nothing_on_facts() {
    // Port 9 (discard) refuses connections on loopback.
    let r = run(&[
        "--target",
        "http://127.0.0.1:9",
        "--filter",
        "openwop.rfc0091.*",
    ]);
    assert_eq!(r.code, 4, "{}", r.context());
    let report = r.report.as_ref().unwrap();
    let cases: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["outcome"] != "excluded")
        .collect();
    let reasons: std::collections::BTreeSet<&str> =
        cases.iter().filter_map(|c| c["reason"].as_str()).collect();
    // Every case is in the report, blocked with one shared reason; none is skipped
    // on a fact nobody observed, and a refused connection is not flaky.
    assert!(cases.len() > 40, "{}", cases.len());
    assert!(cases.iter().all(|c| c["outcome"] == "blocked"));
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert_eq!(report["summary"]["flaky"], 0);
    // A few lines, the last the command that reruns them once the host is up.
    assert!(r.stdout.lines().count() < 13, "{}", r.stdout);
    assert!(
        (r.stdout.lines().last()).is_some_and(|l| l.starts_with("rerun the ")),
        "{}",
        r.stdout
    );
    settings(&r).bind(|| insta::assert_snapshot!("terminal_unreachable", r.stdout));
}
