//! Reports of different mmconform versions are compared by case id and requirement
//! text, and the differences are listed.

use super::support::{TEXT_IMAGE, cell, evidence, report};
use mmconform::api::canonical_sha256;
use serde_json::{Value, json};
use std::path::Path;

/// Rewrites a report as another mmconform version would have written it (the digest
/// recomputed, as `run` computes it, so that it still verifies).
fn as_other_version(dir: &Path, from: &str, to: &str, edit: impl Fn(&mut Value)) {
    let mut report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(from)).unwrap()).unwrap();
    report.as_object_mut().unwrap().remove("integrity");
    edit(&mut report);
    let digest = json!({"algorithm": "sha256", "canonical_sha256": canonical_sha256(&report)});
    report
        .as_object_mut()
        .unwrap()
        .insert("integrity".into(), digest);
    let mut bytes = serde_json::to_vec_pretty(&report).unwrap();
    bytes.push(b'\n');
    std::fs::write(dir.join(to), bytes).unwrap();
}

#[test]
fn another_versions_report_is_compared_by_case_id_and_requirement_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let filters = [
        "--filter",
        "openwop.rfc0091.unadvertised-rejected or openwop.rfc0091.string-content-accepted",
    ];
    // --require judges requirements: the skipped [image] expansion of an exercised
    // requirement does not fail.
    assert_eq!(report(d, "now.json", &filters), 0);
    assert_eq!(report(d, "base.json", TEXT_IMAGE), 1);
    as_other_version(d, "base.json", "old.json", |r| {
        r["run"]["tool_version"] = json!("0.0.9");
        let case = r["cases"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|c| c["id"] == "openwop.rfc0091.string-content-accepted")
            .unwrap();
        case["requirement"]["text"] = json!("Content may be a string.");
    });
    let verified = crate::common::bin()
        .arg("verify")
        .arg(d.join("old.json"))
        .output()
        .unwrap();
    assert_eq!(
        verified.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );

    let out = evidence(d, &["merge", "--format", "json", "now.json", "old.json"]);
    assert_eq!(out.code, 0, "{}", out.context());
    let merged = out.json();
    differences_name_the_version_and_the_changed_requirement(&merged);
    // Same discovery, so one host; the changed requirement is its own row, and the
    // unchanged cases merge into one cell over both reports.
    assert_eq!(merged["hosts"].as_array().unwrap().len(), 1);
    let rows: Vec<&Value> = merged["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["cases"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == "openwop.rfc0091.string-content-accepted")
        })
        .collect();
    assert_eq!(rows.len(), 2);
    let audio = cell(
        &merged,
        "openwop.rfc0091.unadvertised-rejected[audio]",
        "H1",
    );
    let seen: Vec<u64> = audio["seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["report"].as_u64().unwrap())
        .collect();
    assert_eq!(seen, [1, 2]);
}

fn differences_name_the_version_and_the_changed_requirement(merged: &Value) {
    let differences: Vec<&str> = merged["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        differences[0].starts_with("mmconform versions differ: 0.0.9 (#2), ")
            && differences[0].ends_with("; cases are compared by id and requirement text"),
        "{differences:#?}"
    );
    assert!(
        differences.iter().any(|d| d.starts_with(
            "openwop.rfc0091.string-content-accepted: the requirement differs between reports, shown as separate rows:"
        ) && d.contains("\"Content may be a string.\" (#2)")),
        "{differences:#?}"
    );
    assert!(
        differences
            .iter()
            .any(|d| d.starts_with("#1 ran with --filter")),
        "{differences:#?}"
    );
}
