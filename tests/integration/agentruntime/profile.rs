//! The agentruntime profile end to end: the built binary against the reference runtime
//! (`--target reference`: this binary's `serve-reference --profile agentruntime`, one
//! process per request), with and without a witness, `--accepts` overriding describe,
//! a bridge that cannot start, and the usage errors.

use crate::common::{self, run};

fn reference(extra: &[&str]) -> common::RunResult {
    let mut args = vec!["--profile", "agentruntime", "--target", "reference"];
    args.extend_from_slice(extra);
    run(&args)
}

fn reason(r: &common::RunResult, id: &str) -> String {
    r.cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .and_then(|c| c["reason"].as_str().map(str::to_string))
        .unwrap_or_default()
}

#[test]
fn with_a_witness_the_reference_runtime_passes_every_case_that_applies() {
    let r = reference(&["--witness", "127.0.0.1:0"]);
    assert_eq!(r.code, 0, "{}", r.context());
    for outcome in ["fail", "warn", "blocked", "error"] {
        assert!(r.ids_with(outcome).is_empty(), "{outcome}: {}", r.context());
    }
    let passed = r.ids_with("pass");
    for id in [
        "agentruntime.describe",
        "agentruntime.contract",
        "agentruntime.text-only",
        "agentruntime.abort",
        "agentruntime.delivery[image/png,filePath]",
        "agentruntime.delivery[application/pdf,base64]",
        "agentruntime.delivery[audio/wav,both]",
        "agentruntime.undeclared[audio/mpeg]",
        "agentruntime.resume[document]",
    ] {
        assert!(
            passed.iter().any(|p| p == id),
            "{id} did not pass: {}",
            r.context()
        );
    }
    // Each delivery case carries what the model received.
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "agentruntime.delivery[image/png,filePath]")
        .unwrap();
    assert!(
        case["model_calls"]
            .as_array()
            .is_some_and(|c| !c.is_empty()),
        "{case}"
    );
    assert_eq!(case["stream"]["classification"], "completed");
}

#[test]
fn without_a_witness_delivery_is_blocked_never_passed() {
    let r = reference(&[]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(r.outcome("agentruntime.contract"), "pass");
    assert_eq!(r.outcome("agentruntime.describe"), "pass");
    for id in [
        "agentruntime.delivery[image/png,base64]",
        "agentruntime.text-only",
        "agentruntime.resume[image]",
    ] {
        assert_eq!(r.outcome(id), "blocked", "{id}");
        assert!(
            reason(&r, id).starts_with("needs --witness: a runtime's model"),
            "{id}: {}",
            reason(&r, id)
        );
    }
}

#[test]
fn accepts_overrides_describe_and_is_reported_as_such() {
    let r = reference(&[
        "--accepts",
        "image/png",
        "--filter",
        "agentruntime.delivery* or agentruntime.undeclared*",
    ]);
    assert_eq!(
        r.outcome("agentruntime.delivery[image/jpeg,base64]"),
        "skip"
    );
    assert_eq!(r.outcome("agentruntime.undeclared[image/jpeg]"), "blocked");
    let declared = &r.report.as_ref().unwrap()["run"]["declared"];
    assert_eq!(
        declared["declaredBy"], "--accepts (overrides describe)",
        "{declared}"
    );
}

#[test]
fn a_bridge_that_cannot_start_is_exit_4_with_the_reason() {
    let r = run(&[
        "--profile",
        "agentruntime",
        "--target-cmd",
        "/nonexistent/mmconform-bridge --flag",
    ]);
    assert_eq!(r.code, 4, "{}", r.context());
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(
        all.contains("cannot start `/nonexistent/mmconform-bridge`"),
        "{}",
        r.context()
    );
}

#[test]
fn usage_errors_are_exit_2_before_anything_starts() {
    for (args, says) in [
        (vec!["--profile", "agentruntime"], "--target-cmd"),
        (
            vec!["--target-cmd", "node bridge.mjs"],
            "add --profile agentruntime",
        ),
        (
            vec![
                "--profile",
                "agentruntime",
                "--target",
                "http://127.0.0.1:9",
            ],
            "--target-cmd",
        ),
        (
            vec![
                "--profile",
                "agentruntime",
                "--target-cmd",
                "node 'unclosed",
            ],
            "unclosed quote",
        ),
        (
            vec![
                "--profile",
                "agentruntime",
                "--target",
                "reference",
                "--reference-fault",
                "nope",
            ],
            "nope",
        ),
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.context());
        assert!(r.stderr.contains(says), "{args:?}: {}", r.context());
    }
}

#[test]
fn the_project_file_names_the_bridge() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("mmconform.toml");
    let bridge = format!(
        "{} serve-reference --profile agentruntime",
        env!("CARGO_BIN_EXE_mmconform")
    );
    std::fs::write(
        &config,
        format!("profile = \"agentruntime\"\nfilters = [\"agentruntime.contract\"]\n\n[agentruntime]\ncommand = \"{bridge}\"\ncwd = \".\"\n"),
    )
    .unwrap();
    let r = run(&["--config", config.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.outcome("agentruntime.contract"), "pass");
    std::fs::write(
        &config,
        "profile = \"agentruntime\"\n[agentruntime]\ncommand = \"node 'x\"\n",
    )
    .unwrap();
    let r = run(&["--config", config.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("agentruntime.command"), "{}", r.context());
}
