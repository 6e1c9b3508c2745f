//! `mmconform evidence`: reports of the reference host in several shapes and of faulty
//! variants, merged through the built binary into the matrix and verdict a steward
//! would work out by hand.

mod html_page;
pub mod html_tree;
mod support;
mod versions;

use crate::common::bin;
use serde_json::Value;
use support::*;

#[test]
fn three_shapes_and_two_faulty_variants_give_the_matrix_and_verdict_worked_out_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = vec!["merge", "--format", "json"];
    args.extend(five_hosts(d));
    let counting = counting_reference(d, "rfc0091");
    let mut with_criteria = args.clone();
    with_criteria.extend(["--criteria", counting.as_str()]);
    let out = evidence(d, &with_criteria);
    assert_eq!(out.code, 0, "the criteria are met\n{}", out.context());
    let merged = out.json();
    valid_against("evidence.schema.json", &merged);
    columns_are_the_five_hosts(&merged);
    matrix_as_worked_out_by_hand(&merged);
    verdict_as_worked_out_by_hand(&merged);

    // The built-in criteria exclude the embedded host: nothing counts, and the verdict
    // says which hosts would have.
    let mut builtin = args.clone();
    builtin.extend(["--criteria", "rfc0091"]);
    let out = evidence(d, &builtin);
    assert_eq!(out.code, 1, "{}", out.context());
    let merged = out.json();
    assert_eq!(merged["verdict"]["met"], false);
    let gated = criterion(&merged, "gated-scenario");
    assert!(ids(&gated["satisfied_by"]).is_empty());
    assert_eq!(ids(&gated["excluded_satisfying"]), ["H2", "H3"]);
    assert_eq!(
        gated["missing"],
        "needs 1 host outside the excluded origins (reference), found 0 (H2, H3 satisfy it but are excluded)"
    );
    // --exclude-origin does the same for a steward's own host.
    with_criteria.extend(["--exclude-origin", "reference"]);
    let out = evidence(d, &with_criteria);
    assert_eq!(out.code, 1, "{}", out.context());
    assert!(out.stderr.contains("NOT MET"), "{}", out.context());
}

fn columns_are_the_five_hosts(merged: &Value) {
    // Five hosts, all the embedded host (origin without its port), told apart
    // by their discovery digests.
    let hosts = merged["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), 5);
    assert!(hosts.iter().all(|h| h["origin"] == "reference"));
    let digests: std::collections::BTreeSet<&str> = hosts
        .iter()
        .map(|h| h["digest"].as_str().unwrap())
        .collect();
    assert_eq!(digests.len(), 5);
    assert_eq!(hosts[0]["advertised"][0], "modalities: text");
    assert_eq!(
        hosts[2]["advertised"][0],
        "modalities: text, image, audio, document"
    );
    assert!(
        hosts[3]["advertised"][0]
            .as_str()
            .unwrap()
            .contains("not at the document root")
    );
    assert_eq!(merged["inputs"].as_array().unwrap().len(), 5);
    assert!(merged["counted_once"].as_array().unwrap().is_empty());
}

fn matrix_as_worked_out_by_hand(merged: &Value) {
    // §A "reject rather than silently drop": text-only and text+image pass it; the
    // all-modality host has nothing unadvertised (a gap); the wrapper-only host accepts
    // the image it does not advertise at the root; the dropping host answers 200 to a
    // document part.
    let reject = requirement(
        merged,
        "A host MUST reject a content part whose type is not in its advertised aiProviders.input.modalities with unsupported_modality rather than",
    );
    assert_eq!(ids(&reject["passing_hosts"]), ["H1", "H2"]);
    assert_eq!(ids(&reject["gap_hosts"]), ["H3"]);
    let statuses: Vec<&str> = reject["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["pass", "pass", "not-exercised", "fail", "fail"]);
    let dropped = cell(
        merged,
        "openwop.rfc0091.unadvertised-rejected[document]",
        "H5",
    );
    assert_eq!(dropped["outcome"], "fail");
    assert_eq!(dropped["assertions_executed"], 2);
    // A skip that --require failed is shown as the skip it was, with its discovery fact.
    let skipped = cell(
        merged,
        "openwop.rfc0091.advertised-inline-accepted[image]",
        "H1",
    );
    assert_eq!(skipped["outcome"], "skip");
    assert_eq!(skipped["under_require"], true);
    assert_eq!(
        skipped["reason"],
        "aiProviders.input.modalities lacks image"
    );
    let accept = requirement(merged, "messages[].content may be an array of typed parts");
    assert_eq!(ids(&accept["passing_hosts"]), ["H2", "H3", "H5"]);
    assert_eq!(ids(&accept["gap_hosts"]), ["H1", "H4"]);
    let root = requirement(merged, "Capability families live at the document root");
    assert_eq!(ids(&root["passing_hosts"]), ["H1", "H2", "H3", "H5"]);
    // Offline cases judge schema files: never host evidence.
    let compiles = requirement(merged, "The top-level ai-envelope.schema.json");
    assert!(ids(&compiles["passing_hosts"]).is_empty());
    assert!(
        compiles["statuses"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["status"] == "offline")
    );
}

fn verdict_as_worked_out_by_hand(merged: &Value) {
    // The verdict: text+image and all-modality hosts satisfy every criterion; the
    // dropping host advertises image but fails §A; the other two do not advertise image.
    let verdict = &merged["verdict"];
    assert_eq!(verdict["met"], true);
    assert_eq!(
        ids(&criterion(merged, "advertises-input")["satisfied_by"]),
        ["H2", "H3", "H5"]
    );
    for id in ["gated-scenario", "never-silently-dropped"] {
        let c = criterion(merged, id);
        assert_eq!(ids(&c["satisfied_by"]), ["H2", "H3"], "{id}");
        let h5 = &c["hosts"][4];
        assert_eq!(h5["satisfied"], false);
        assert!(
            h5["why"][0]
                .as_str()
                .unwrap()
                .contains("openwop.rfc0091.unadvertised-rejected[document] fail (status: expected 4xx; got 200)"),
            "{id}: {h5}"
        );
    }
    let h1 = &criterion(merged, "gated-scenario")["hosts"][0];
    assert!(
        h1["why"][0]
            .as_str()
            .unwrap()
            .contains("does not advertise image"),
        "{h1}"
    );
}

#[test]
fn a_report_with_one_edited_byte_is_refused_by_name_and_nothing_is_merged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(report(d, "good.json", TEXT_IMAGE), 1);
    let bytes = std::fs::read(d.join("good.json")).unwrap();
    // One byte inside the discovery document: `"image"` becomes `"imagf"`.
    let at = bytes.windows(7).position(|w| w == b"\"image\"").unwrap() + 5;
    let mut edited = bytes.clone();
    edited[at] = b'f';
    std::fs::write(d.join("edited.json"), &edited).unwrap();
    std::fs::write(d.join("truncated.json"), &bytes[..bytes.len() / 2]).unwrap();
    let out = evidence(
        d,
        &[
            "merge",
            "good.json",
            "edited.json",
            "truncated.json",
            "-o",
            "merged.md",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.context());
    assert!(
        out.stderr.contains("error: refused edited.json:"),
        "{}",
        out.context()
    );
    assert!(
        out.stderr.contains("integrity: recorded"),
        "{}",
        out.context()
    );
    assert!(
        out.stderr
            .contains("error: refused truncated.json:\n  json: not JSON"),
        "{}",
        out.context()
    );
    assert!(
        !out.stderr.contains("refused good.json"),
        "{}",
        out.context()
    );
    assert!(
        out.stderr.contains("2 of 3 report(s) refused"),
        "{}",
        out.context()
    );
    assert!(!d.join("merged.md").exists(), "nothing is merged");
    assert!(out.stdout.is_empty());

    // The intact report alone merges.
    let out = evidence(d, &["merge", "good.json", "-o", "merged.md"]);
    assert_eq!(out.code, 0, "{}", out.context());
    assert!(
        std::fs::read_to_string(d.join("merged.md"))
            .unwrap()
            .contains("## Inputs")
    );
}

#[test]
fn an_offline_run_and_a_missing_file_are_not_merged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = bin()
        .args(["run", "--offline", "--report"])
        .arg(d.join("offline.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = evidence(d, &["merge", "offline.json"]);
    assert_eq!(out.code, 1, "{}", out.context());
    assert!(out.stderr.contains("an offline run"), "{}", out.context());
    let out = evidence(d, &["merge", "nowhere.json"]);
    assert_eq!(out.code, 2, "{}", out.context());
    let out = evidence(d, &["merge"]);
    assert_eq!(out.code, 2, "a report is required\n{}", out.context());
}

#[test]
fn two_reports_of_one_host_count_once_and_a_variant_with_the_same_discovery_shows_as_a_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(report(d, "a.json", TEXT_IMAGE), 1);
    assert_eq!(report(d, "b.json", TEXT_IMAGE), 1);
    let out = evidence(d, &["merge", "--format", "json", "a.json", "b.json"]);
    assert_eq!(out.code, 0, "{}", out.context());
    let merged = out.json();
    assert_eq!(merged["hosts"].as_array().unwrap().len(), 1);
    assert_eq!(
        merged["counted_once"][0]
            .as_str()
            .unwrap()
            .split(" (")
            .next()
            .unwrap(),
        "H1: reports #1, #2 are of the same host"
    );
    let reject = requirement(
        &merged,
        "A host MUST reject a content part whose type is not in its advertised aiProviders.input.modalities with unsupported_modality rather than",
    );
    assert_eq!(ids(&reject["passing_hosts"]), ["H1"], "counted once");

    // A faulty variant advertises what the faithful host does: same host to a reader
    // of the reports, so its failure is merged in as a conflict, never hidden.
    assert_eq!(
        report(d, "c.json", &["--reference-fault", "accepts-unadvertised"]),
        1
    );
    let counting = counting_reference(d, "rfc0091");
    let out = evidence(
        d,
        &[
            "merge",
            "--format",
            "json",
            "--criteria",
            &counting,
            "a.json",
            "b.json",
            "c.json",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.context());
    let merged = out.json();
    assert_eq!(merged["hosts"].as_array().unwrap().len(), 1);
    let audio = cell(
        &merged,
        "openwop.rfc0091.unadvertised-rejected[audio]",
        "H1",
    );
    assert_eq!(audio["outcome"], "fail");
    assert_eq!(audio["conflict"], true);
    assert!(
        merged["conflicts"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "H1 openwop.rfc0091.unadvertised-rejected[audio]: pass in #1, pass in #2, fail in #3; shown as fail"),
        "{}",
        merged["conflicts"]
    );
    assert!(ids(&requirement(&merged, "A host MUST reject a content part whose type is not in its advertised aiProviders.input.modalities with unsupported_modality rather than")["passing_hosts"]).is_empty());
    assert_eq!(criterion(&merged, "gated-scenario")["met"], false);
}

#[test]
fn rfc0021_criteria_are_met_by_the_faithful_host_and_not_by_an_envelope_fault() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(report(d, "faithful.json", TEXT_IMAGE), 1);
    assert_eq!(
        report(
            d,
            "gated.json",
            &["--reference-fault", "envelope-universal-node-gated"]
        ),
        1
    );
    let counting = counting_reference(d, "rfc0021");
    let out = evidence(
        d,
        &[
            "merge",
            "--format",
            "json",
            "--criteria",
            &counting,
            "faithful.json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.context());
    let out = evidence(
        d,
        &[
            "merge",
            "--format",
            "json",
            "--criteria",
            &counting,
            "gated.json",
        ],
    );
    assert_eq!(out.code, 1, "{}", out.context());
    let merged = out.json();
    assert_eq!(criterion(&merged, "advertises-universal-kind")["met"], true);
    let pass = criterion(&merged, "conformance-pass");
    assert_eq!(pass["met"], false);
    assert!(
        pass["hosts"][0]["why"]
            .to_string()
            .contains("openwop.rfc0021.accept.universal-ignores-node-allowlist fail"),
        "{pass}"
    );
}

#[test]
fn criteria_file_problems_are_exit_2_at_file_line_col() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        report(d, "r.json", &["--filter", "openwop.discovery.document"]),
        0
    );
    std::fs::write(
        d.join("bad.yaml"),
        "mmconform_criteria: 1\ntitle: T\ncriteria:\n  - id: one\n    text: t\n    hosts:\n      at_least: 1\n      passes:\n        - { cases: [x], levle: MUST }\n",
    )
    .unwrap();
    let out = evidence(d, &["merge", "--criteria", "bad.yaml", "r.json"]);
    assert_eq!(out.code, 2, "{}", out.context());
    assert!(
        out.stderr.contains("--> bad.yaml:9:25"),
        "{}",
        out.context()
    );
    assert!(
        out.stderr.contains("unknown key `levle`"),
        "{}",
        out.context()
    );
    assert!(out.stdout.is_empty());
    let out = evidence(d, &["merge", "--criteria", "rfc9999", "r.json"]);
    assert_eq!(out.code, 2, "{}", out.context());
    assert!(out.stderr.contains("rfc0091, rfc0021"), "{}", out.context());
    let out = evidence(d, &["merge", "--format", "pdf", "r.json"]);
    assert_eq!(out.code, 2, "{}", out.context());
}

#[test]
fn criteria_list_and_show_name_the_builtins() {
    let dir = tempfile::tempdir().unwrap();
    let out = evidence(dir.path(), &["criteria", "--list"]);
    assert_eq!(out.code, 0, "{}", out.context());
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(lines[0].starts_with("rfc0091  RFC 0091 Active → Accepted: 3 criteria (advertises-input, gated-scenario, never-silently-dropped)"), "{}", lines[0]);
    assert!(
        lines[1].starts_with("rfc0021  RFC 0021 Active → Accepted: 2 criteria"),
        "{}",
        lines[1]
    );
    let out = evidence(dir.path(), &["criteria", "--show", "rfc0021"]);
    assert!(
        out.stdout
            .starts_with("# Built-in promotion criteria: RFC 0021"),
        "{}",
        out.stdout
    );
    assert_eq!(
        evidence(dir.path(), &["criteria", "--show", "nope"]).code,
        2
    );
    assert_eq!(evidence(dir.path(), &["criteria"]).code, 2);
}

#[test]
fn markdown_output_for_a_small_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let only = [
        "--filter",
        "id(~openwop.rfc0091.unadvertised-rejected) or id(~openwop.rfc0091.advertised-inline-accepted) or id(~openwop.discovery.aiproviders-at-root) or id(~openwop.rfc0091.input-advertisement-schema) or id(~openwop.rfc0091.unknown-type-rejected)",
    ];
    let shaped = |shape: &[&'static str]| -> Vec<&'static str> {
        shape.iter().copied().chain(only).collect()
    };
    assert_eq!(report(d, "text-only.json", &shaped(TEXT_ONLY)), 1);
    // A host that meets the gated scenario passes it under --require.
    assert_eq!(report(d, "text-image.json", &shaped(TEXT_IMAGE)), 0);
    assert_eq!(report(d, "drops.json", &shaped(DROPS)), 1);
    let counting = counting_reference(d, "rfc0091");
    let out = evidence(
        d,
        &[
            "merge",
            "--criteria",
            &counting,
            "text-only.json",
            "text-image.json",
            "drops.json",
        ],
    );
    assert_eq!(out.code, 0, "{}", out.context());
    let mut settings = crate::common::snapshot_settings();
    settings.add_filter(r"[0-9a-f]{64}", "[SHA256]");
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[SHA12]");
    settings.add_filter(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "[TIMESTAMP]");
    settings.add_filter(r"\d{4}-\d\d-\d\d", "[DATE]");
    settings.add_filter(r"mmconform \d+\.\d+\.\d+", "mmconform [VERSION]");
    settings.add_filter(r"\| \d+\.\d+\.\d+ \|", "| [VERSION] |");
    settings.bind(|| insta::assert_snapshot!("evidence_markdown", out.stdout));
}

#[test]
fn an_agui_report_merges_beside_an_openwop_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_eq!(
        report(
            d,
            "openwop.json",
            &["--filter", "openwop.discovery.document"]
        ),
        0
    );
    let out = bin()
        .args([
            "run",
            "--profile",
            "agui",
            "--target",
            "reference",
            "--filter",
            "agui.string-content-completes",
            "--report",
        ])
        .arg(d.join("agui.json"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = evidence(
        d,
        &["merge", "--format", "json", "openwop.json", "agui.json"],
    );
    assert_eq!(out.code, 0, "{}", out.context());
    let merged = out.json();
    let agui = &merged["hosts"][1];
    assert_eq!(agui["origin"], "reference agent");
    assert_eq!(agui["digest_of"], "declaration");
    assert_eq!(agui["protocols"][0], "AG-UI 1.0");
    assert!(
        agui["advertised"][0]
            .as_str()
            .unwrap()
            .starts_with("accepts: image/")
    );
    assert_eq!(
        cell(&merged, "openwop.discovery.document", "H2")["outcome"],
        "absent"
    );
}

/// `reached: true` counts a pass only when a witnessed run saw its parts reach the
/// host's model: the same host passes the group with `--witness` and not without.
#[test]
fn a_reached_group_needs_a_witnessed_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let only = ["--filter", "openwop.rfc0091.advertised-inline-accepted*"];
    let witnessed = [
        &only[..],
        &["--witness", "127.0.0.1:0", "--witness-wait", "2"][..],
    ]
    .concat();
    report(d, "witnessed.json", &witnessed);
    report(d, "plain.json", &only);
    let criteria = "mmconform_criteria: 1\ntitle: T\ncriteria:\n  - id: reached\n    text: An accepted image reached the model.\n    hosts:\n      at_least: 1\n      passes:\n        - { cases: [\"openwop.rfc0091.advertised-inline-accepted[image]\"], reached: true }\n";
    std::fs::write(d.join("reached.yaml"), criteria).unwrap();
    let merge = |file: &str| {
        let out = evidence(
            d,
            &[
                "merge",
                "--format",
                "json",
                "--criteria",
                "reached.yaml",
                file,
            ],
        );
        (out.code, out.json(), out.context())
    };
    let (code, merged, context) = merge("witnessed.json");
    assert_eq!(code, 0, "{context}");
    valid_against("evidence.schema.json", &merged);
    assert_eq!(merged["inputs"][0]["witnessed"], true);
    assert_eq!(
        cell(
            &merged,
            "openwop.rfc0091.advertised-inline-accepted[image]",
            "H1"
        )["reached_model"],
        true
    );
    let (code, merged, context) = merge("plain.json");
    assert_eq!(code, 1, "{context}");
    assert_eq!(merged["inputs"][0]["witnessed"], false);
    let why = criterion(&merged, "reached")["hosts"][0]["why"][0]
        .as_str()
        .unwrap()
        .to_string();
    assert!(why.contains("not witnessed reaching the model"), "{why}");
}
