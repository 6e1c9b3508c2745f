//! Each hint says what is wrong, not what is usually wrong: a server without the door
//! is not told to fix its base URL, a scenario file of another profile is not blamed on
//! a --filter never given, `--target refrence` is not `http://refrence`, a bridge that
//! dies at once is one blocked cause quoting its stderr, a proxy is named when the
//! connection through it fails, and two reports in one file are refused.

use crate::common::served::serve;
use crate::common::{bin, run, run_with_env};

/// The line holding the one cause of the run's blocked cases.
fn cause_line(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.starts_with("BLOCKED ") && l.contains(" cases: "))
        .unwrap_or_else(|| panic!("no cause line in:\n{stdout}"))
}

#[test]
fn the_door_the_server_lacks_is_named_and_a_wrong_base_gets_the_url_to_pass() {
    // The Anthropic server has /v1/models and /v1/messages, no /v1/responses.
    let anthropic = serve(&["--profile", "anthropic"]);
    let r = run(&[
        "--profile",
        "openai-responses",
        "--target",
        &anthropic.url,
        "--model",
        "m",
        "-q",
    ]);
    let line = cause_line(&r.stdout);
    assert!(
        line.contains("it does not serve --profile openai-responses"),
        "{}",
        r.context()
    );
    assert!(!line.contains("is --target the API base"), "{line}");
    let openai = serve(&["--profile", "openai"]);
    let base = openai.url.trim_end_matches("/v1");
    for (target, says) in [
        (base.to_string(), format!("pass --target {}", openai.url)),
        (
            format!("{}/v1", openai.url),
            format!("--target names /v1 twice: pass --target {}", openai.url),
        ),
    ] {
        let r = run(&[
            "--profile",
            "openai",
            "--target",
            &target,
            "--model",
            "reference-multimodal",
            "-q",
        ]);
        assert!(cause_line(&r.stdout).contains(&says), "{}", r.context());
        // Without --model, the model list at the wrong base answers 404: the same URL
        // to pass, not "pass --model".
        let r = run(&["--profile", "openai", "--target", &target, "-q"]);
        assert_eq!(r.code, 2, "{}", r.context());
        assert!(r.stderr.contains(&says), "{}", r.context());
    }
    let r = run(&[
        "--profile",
        "openai",
        "--target",
        &openai.url,
        "--model",
        "nope",
        "-q",
    ]);
    let line = cause_line(&r.stdout);
    assert!(line.contains("does not know the model `nope`"), "{line}");
}

#[test]
fn a_scenario_file_of_another_profile_names_the_profile_not_a_filter() {
    let agui = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/agui");
    let r = run(&["--target", "reference", "--no-builtin", "--scenarios", agui]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(!r.stdout.contains("--filter"), "{}", r.context());
    assert!(
        r.stdout.contains("the scenarios hold no openwop case")
            && r.stdout.contains("--profile agui"),
        "{}",
        r.context()
    );
}

#[test]
fn a_misspelled_reference_is_suggested_as_reference() {
    let out = bin()
        .args(["run", "--target", "refrence"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("did you mean `reference`?"), "{stderr}");
    assert!(!stderr.contains("http://refrence"), "{stderr}");
}

#[test]
fn a_bridge_that_dies_before_its_first_line_is_one_blocked_cause_with_its_stderr() {
    let dying = "sh -c 'echo \"    at somewhere\" >&2; echo \"Error: Cannot find module ./runtime.mjs\" >&2; exit 1'";
    for quiet in [false, true] {
        let mut args = vec!["--profile", "agentruntime", "--target-cmd", dying];
        if quiet {
            args.push("-q");
        }
        let r = run(&args);
        assert_eq!(r.code, 4, "{}", r.context());
        assert!(!r.stdout.contains("FAIL "), "{}", r.context());
        let quoted =
            "the bridge exited 1 before its first line: Error: Cannot find module ./runtime.mjs";
        assert_eq!(r.stdout.matches(quoted).count(), 2, "{}", r.context());
        assert!(r.stdout.contains("check --target-cmd"), "{}", r.context());
        let cases = r.cases();
        let blocked = cases.iter().filter(|c| c["outcome"] == "blocked").count();
        assert!(blocked > 5, "{}", r.context());
        for case in cases.iter().filter(|c| c["outcome"] == "blocked") {
            assert_eq!(case["reason"].as_str().unwrap(), quoted);
        }
    }
}

#[test]
fn a_proxy_that_refuses_a_loopback_target_is_named() {
    let host = serve(&[]);
    let r = run_with_env(
        &["--target", &host.url, "-q"],
        &[("HTTP_PROXY", "http://127.0.0.1:9")],
    );
    assert_eq!(r.code, 4, "{}", r.context());
    assert!(
        r.stdout
            .contains("through the proxy in $HTTP_PROXY (http://127.0.0.1:9)")
            && r.stdout.contains("NO_PROXY=127.0.0.1"),
        "{}",
        r.context()
    );
    assert!(!r.stdout.contains("is the host running"), "{}", r.context());
}

#[test]
fn two_reports_in_one_file_are_a_usage_error_before_anything_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x");
    let spelled = dir.path().join(".").join("x");
    for (report, junit) in [(&x, &x), (&x, &spelled)] {
        let out = bin()
            .args(["run", "--target", "http://127.0.0.1:9", "--report"])
            .arg(report)
            .arg("--junit")
            .arg(junit)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("name the same file"), "{stderr}");
        assert!(!x.exists());
    }
}
