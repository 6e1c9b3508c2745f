//! AI Envelope conformance (RFC 0021/0033): offline schema cases, advertisement cases and
//! the accept seam against the reference host. Its envelope faults are rows of the
//! openwop fault table (`openwop/faults.rs`).

use crate::common::{self, bin, run};
use std::path::PathBuf;

fn official_schemas() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/openwop-schemas")
}

#[test]
fn offline_runs_only_offline_cases_and_says_so() {
    let r = run(&["--offline"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let report = r.report.clone().unwrap();
    assert!(
        report["run"]["target"]
            .as_str()
            .unwrap()
            .starts_with("offline")
    );
    assert!(report["discovery"].is_null());
    assert!(r.junit.as_ref().unwrap().contains("offline (no target"));
    assert!(r.stdout.contains("offline (no target"));
    for case in r.cases() {
        let id = case["id"].as_str().unwrap();
        let offline_case = id.starts_with("openwop.rfc0021.schema-compiles")
            || id.starts_with("openwop.rfc0021.envelope-")
            || id.starts_with("openwop.rfc0021.payload-");
        let expected = if offline_case { "pass" } else { "excluded" };
        assert_eq!(case["outcome"], expected, "{id}");
    }
    assert!(r.ids_with("pass").len() >= 20);
}

#[test]
fn offline_and_target_together_is_a_usage_error() {
    let out = bin()
        .args(["run", "--offline", "--target", "reference"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["run"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--offline"));
}

#[test]
fn our_schemas_and_the_official_copies_judge_the_fixtures_alike() {
    let dir = official_schemas();
    if !dir.is_dir() {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    }
    let ours = run(&["--offline"]);
    let theirs = run(&["--offline", "--schemas", dir.to_str().unwrap()]);
    assert_eq!(ours.code, 0, "{}", ours.context());
    assert_eq!(theirs.code, 0, "{}", theirs.context());
    let outcomes = |r: &common::RunResult| -> Vec<(String, String)> {
        r.cases()
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().into(),
                    c["outcome"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    assert_eq!(outcomes(&ours), outcomes(&theirs));
    // And the official files were really the ones used.
    let used_official = theirs
        .cases()
        .iter()
        .flat_map(|c| c["notes"].as_array().cloned().unwrap_or_default())
        .any(|n| {
            n.as_str().is_some_and(|n| {
                n.contains("openwop-schemas") && n.contains("ai-envelope.schema.json")
            })
        });
    assert!(used_official, "{}", theirs.stdout);
}

#[test]
fn a_schema_that_lost_its_constraints_fails_the_offline_cases() {
    let dir = tempfile::tempdir().unwrap();
    // An envelope schema that forgot `required` and `format`: the negatives must catch it.
    let lax = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}"#;
    std::fs::write(dir.path().join("ai-envelope.schema.json"), lax).unwrap();
    let r = run(&["--offline", "--schemas", dir.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.context());
    for id in [
        "openwop.rfc0021.envelope-without-meta",
        "openwop.rfc0021.envelope-unknown-key",
        "openwop.rfc0021.envelope-ts-not-datetime",
        "openwop.rfc0021.envelope-source-outside-enum",
        "openwop.rfc0021.envelope-partial-index-negative",
    ] {
        assert_eq!(r.outcome(id), "fail", "{id}");
    }
    assert_eq!(r.outcome("openwop.rfc0021.envelope-valid"), "pass");
    let broken = tempfile::tempdir().unwrap();
    std::fs::write(broken.path().join("ai-envelope.schema.json"), "{ not json").unwrap();
    let r = run(&["--offline", "--schemas", broken.path().to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0021.schema-compiles[ai-envelope]"),
        "fail"
    );
}

#[test]
fn a_judging_schema_that_does_not_compile_blocks_rather_than_blames_the_host() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("openwop")).unwrap();
    std::fs::write(
        dir.path().join("openwop/accepted-call.schema.json"),
        r#"{"type": 12}"#,
    )
    .unwrap();
    let r = run(&[
        "--target",
        "reference",
        "--schemas",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(r.code, 3, "{}", r.context());
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.advertised-inline-accepted[image]")
        .unwrap();
    assert_eq!(case["outcome"], "blocked", "{case}");
    assert!(
        case["reason"]
            .as_str()
            .unwrap()
            .starts_with("cannot judge the answer:"),
        "{case}"
    );
    assert!(r.ids_with("error").is_empty(), "{}", r.context());
}

#[test]
fn the_reference_host_passes_the_envelope_cases() {
    let r = run(&["--target", "reference"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let envelope_cases: Vec<_> = r
        .cases()
        .into_iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("openwop.rfc0021."))
        .collect();
    assert!(envelope_cases.len() >= 40, "{}", envelope_cases.len());
    for c in &envelope_cases {
        assert_eq!(c["outcome"], "pass", "{}", c["id"]);
    }
    // Grouped by scenario file in JUnit; the self-checks apart from the host's cases.
    let junit = r.junit.clone().unwrap();
    for suite in [
        "mmconform-self-check.rfc0021-offline",
        "openwop.rfc0021-discovery",
        "openwop.rfc0021-accept",
    ] {
        assert!(
            junit.contains(&format!("<testsuite name=\"{suite}\"")),
            "{suite}"
        );
    }
}

#[test]
fn every_offline_negative_has_a_behavioural_twin_at_the_accept_seam() {
    // What a schema file rejects offline, the host's accept seam must refuse too.
    let out = crate::common::bin()
        .args(["list", "--format", "json"])
        .output()
        .unwrap();
    let listing: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: std::collections::BTreeSet<String> = listing["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    let twin_of = |offline: &str| -> Option<String> {
        let rest = offline.strip_prefix("openwop.rfc0021.")?;
        match rest {
            "envelope-valid" => None,
            "envelope-without-meta" => Some("openwop.rfc0021.accept.missing-meta-invalid".into()),
            "envelope-ts-not-datetime" => Some("openwop.rfc0021.accept.ts-not-iso8601".into()),
            _ if rest.starts_with("envelope-") => Some(format!(
                "openwop.rfc0021.accept.envelope-invalid.{}",
                rest.trim_start_matches("envelope-")
            )),
            _ if rest.starts_with("payload-invalid[") => Some(format!(
                "openwop.rfc0021.accept.payload-invalid-twin{}",
                rest.trim_start_matches("payload-invalid")
            )),
            _ => None,
        }
    };
    let negatives: Vec<&String> = ids.iter().filter(|id| twin_of(id).is_some()).collect();
    assert!(negatives.len() >= 28, "{negatives:?}");
    let missing: Vec<String> = negatives
        .iter()
        .filter_map(|id| twin_of(id).filter(|twin| !ids.contains(twin)))
        .collect();
    assert!(
        missing.is_empty(),
        "offline negatives without a twin: {missing:?}"
    );
}
