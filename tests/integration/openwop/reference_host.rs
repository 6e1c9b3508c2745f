//! The tool against the faithful reference host, in several shapes: every run exits 0,
//! and the three outputs agree case for case.

use crate::common::{self, run};

fn assert_clean(args: &[&str]) -> common::RunResult {
    let r = run(args);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(r.ids_with("fail").is_empty(), "{}", r.context());
    assert!(
        r.ids_with("warn").is_empty(),
        "warnings against the reference: {:?}",
        r.ids_with("warn")
    );
    assert!(r.ids_with("blocked").is_empty(), "{}", r.context());
    assert!(!r.ids_with("pass").is_empty());
    r
}

#[test]
fn default_reference_passes_with_both_sides_exercised() {
    let r = assert_clean(&["--target", "reference"]);
    // text+image advertised: the image positive and the audio/document negatives both run.
    assert_eq!(
        r.outcome("openwop.rfc0091.advertised-inline-accepted[image]"),
        "pass"
    );
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "pass"
    );
    assert_eq!(r.outcome("openwop.rfc0091.limit.over-max-rejected"), "pass");
    assert_eq!(
        r.outcome("openwop.rfc0091.advertised-inline-accepted[audio]"),
        "skip"
    );
}

#[test]
fn text_only_reference_passes_and_still_runs_the_negative_side() {
    let r = assert_clean(&["--target", "reference", "--reference-modalities", "text"]);
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[image]"),
        "pass"
    );
    assert_eq!(
        r.outcome("openwop.rfc0091.unknown-type-rejected[video]"),
        "pass"
    );
    let skip = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.advertised-inline-accepted[image]")
        .unwrap();
    assert_eq!(skip["reason"], "aiProviders.input.modalities lacks image");
}

#[test]
fn all_modalities_reference_passes_and_rejects_unknown_types() {
    let r = assert_clean(&[
        "--target",
        "reference",
        "--reference-modalities",
        "text,image,audio,document",
    ]);
    for m in ["image", "audio", "document"] {
        assert_eq!(
            r.outcome(&format!("openwop.rfc0091.advertised-inline-accepted[{m}]")),
            "pass"
        );
        assert_eq!(
            r.outcome(&format!("openwop.rfc0091.unadvertised-rejected[{m}]")),
            "skip"
        );
    }
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-in-later-message-rejected"),
        "pass"
    );
    assert_eq!(
        r.outcome("openwop.rfc0091.advertised-mime-accepted[audio,audio/mpeg]"),
        "pass"
    );
}

#[test]
fn image_without_text_listed_passes() {
    let r = assert_clean(&["--target", "reference", "--reference-modalities", "image"]);
    assert_eq!(r.outcome("openwop.rfc0091.text-part-accepted"), "pass");
}

#[test]
fn without_max_bytes_per_part_the_limit_cases_skip() {
    let r = assert_clean(&[
        "--target",
        "reference",
        "--reference-max-bytes-per-part",
        "0",
    ]);
    assert_eq!(r.outcome("openwop.rfc0091.limit.at-max-accepted"), "skip");
}

#[test]
fn suite_dialect_passes_against_the_reference() {
    assert_clean(&[
        "--target",
        "reference",
        "--dialect",
        "suite",
        "--reference-modalities",
        "text,document",
    ]);
}

#[test]
fn terminal_junit_and_json_agree_case_for_case() {
    let r = run(&["--target", "reference", "-j", "3"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let junit = r.junit.clone().expect("junit written");
    let report = r.report.clone().expect("report written");
    assert_eq!(report["summary"]["exit_code"], 0);
    for case in r.cases() {
        let id = case["id"].as_str().unwrap();
        let outcome = case["outcome"].as_str().unwrap();
        if outcome == "excluded" {
            continue;
        }
        let xml_name = format!("name=\"{}\"", id);
        assert!(junit.contains(&xml_name), "{id} missing from JUnit");
        let tag = outcome.to_uppercase();
        if case["self_check"] == true && outcome == "pass" {
            // A passing self-check is mmconform's, not the host's: counted on its own
            // summary line, not listed.
            assert!(!r.stdout.contains(id), "{id} listed:\n{}", r.stdout);
            continue;
        }
        assert!(
            r.stdout.lines().any(|l| l.contains(&tag) && l.contains(id)),
            "{id} ({tag}) missing from terminal output:\n{}",
            r.stdout
        );
    }
    let skipped = r.ids_with("skip").len();
    let parsed = quick_junit::Report::deserialize_from_str(&junit).unwrap();
    let counted: usize = parsed.test_suites.iter().map(|s| s.skipped).sum();
    assert_eq!(counted, skipped, "JUnit skipped count");
    assert!(
        report["discovery"]["canonical_sha256"]
            .as_str()
            .is_some_and(|h| h.len() == 64)
    );
}

#[test]
fn openwop_major_2_uses_the_v2_seam() {
    let r = assert_clean(&["--target", "reference", "--openwop-major", "2"]);
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.unadvertised-rejected[audio]")
        .unwrap();
    let request = &case["exchanges"][0]["request"];
    assert!(
        request["url"]
            .as_str()
            .unwrap()
            .ends_with("/conformance/seams/sample/ai/call"),
        "{request}"
    );
    assert!(
        request["headers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h[0] == "OpenWOP-Version" && h[1] == "2.0"),
        "{request}"
    );
}

/// The request URL of a case's first exchange.
fn first_url(r: &common::RunResult, id: &str) -> String {
    let case = r.cases().into_iter().find(|c| c["id"] == id).unwrap();
    case["exchanges"][0]["request"]["url"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn auto_judges_both_majors_of_a_two_major_host_and_keeps_them_apart() {
    // The default is --openwop-major auto; --strict turns any warning into a failure.
    let r = assert_clean(&["--target", "reference", "--strict"]);
    let v1 = "openwop.rfc0091.unadvertised-rejected[audio]";
    let v2 = "openwop.rfc0091.unadvertised-rejected@v2[audio]";
    assert_eq!(r.outcome(v1), "pass");
    assert_eq!(r.outcome(v2), "pass");
    assert!(first_url(&r, v1).ends_with("/v1/host/sample/ai/call"));
    assert!(first_url(&r, v2).ends_with("/conformance/seams/sample/ai/call"));
    // Cases written for v2 keep their ids and run on the v2 root; v1-only ones run once.
    assert_eq!(r.outcome("openwop.v2.discovery.root"), "pass");
    assert_eq!(r.outcome("openwop.discovery.document"), "pass");
    assert!(
        r.cases()
            .iter()
            .all(|c| c["id"] != "openwop.discovery.document@v2")
    );
    let report = r.report.as_ref().unwrap();
    assert_eq!(report["run"]["openwop_major"], "auto");
    let v2_root = &report["discovery"]["variants"]["v2"];
    assert_eq!(v2_root["status"], 200, "{v2_root}");
    assert!(v2_root["document"]["protocolVersions"].is_array());
    assert!(report["discovery"].get("notes").is_none());
    let junit = r.junit.as_ref().unwrap();
    assert!(junit.contains(r#"<testsuite name="openwop.rfc0091-reject""#));
    assert!(junit.contains(r#"<testsuite name="openwop.rfc0091-reject@v2""#));
}

#[test]
fn auto_passes_a_v1_only_host_and_says_once_that_it_does_not_speak_v2() {
    // A host whose v1 document lists no protocolVersions speaks openwop 1 only.
    let r = assert_clean(&[
        "--target",
        "reference",
        "--strict",
        "--reference-fault",
        "v1-document-without-versions",
    ]);
    assert!(
        r.cases()
            .iter()
            .all(|c| !c["id"].as_str().unwrap().contains("@v2")),
        "no v2 twin runs"
    );
    let note = "does not speak openwop 2";
    assert_eq!(r.stdout.matches(note).count(), 1, "{}", r.stdout);
    let report = r.report.as_ref().unwrap();
    assert!(
        report["discovery"]["notes"][0]
            .as_str()
            .unwrap()
            .contains(note)
    );
    assert!(report["discovery"].get("variants").is_none());
    // The negotiation cases are left out, not failed.
    assert_eq!(
        r.outcome("openwop.v2.negotiation.v2-request-gets-root"),
        "excluded"
    );
}

#[test]
fn an_explicit_major_runs_that_major_only() {
    for (major, seam) in [
        ("1", "/v1/host/sample/ai/call"),
        ("2", "/conformance/seams/sample/ai/call"),
    ] {
        let r = assert_clean(&[
            "--target",
            "reference",
            "--strict",
            "--openwop-major",
            major,
        ]);
        assert!(
            r.cases()
                .iter()
                .all(|c| !c["id"].as_str().unwrap().contains('@')),
            "no twin at --openwop-major {major}"
        );
        assert!(first_url(&r, "openwop.rfc0091.unadvertised-rejected[audio]").ends_with(seam));
        let report = r.report.as_ref().unwrap();
        assert_eq!(report["run"]["openwop_major"], major.parse::<u8>().unwrap());
        assert!(report["discovery"].get("variants").is_none());
    }
}
