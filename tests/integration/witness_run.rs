//! `run --witness`: a witness started by the run, the embedded host and agent forwarding
//! to it, and the model calls carrying each case's nonce recorded in the report.
//! Recorded evidence only: these tests check what was recorded, not a verdict on it.

use crate::common::{RunResult, bin, run};
use base64::Engine as _;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

/// The body a case sent, whole: the report's `request.body` elides long base64, its
/// curl line holds the full `--data-raw '...'` (single quotes written `'\''`). `None`
/// for a body too large for the curl line (`--data-binary @body.json`).
fn sent_body(exchange: &Value) -> Option<Value> {
    let curl = exchange["curl"].as_str().unwrap();
    let start = curl.find("--data-raw '")? + 12;
    let end = start + curl[start..].rfind('\'').unwrap();
    Some(serde_json::from_str(&curl[start..end].replace("'\\''", "'")).unwrap())
}

/// SHA-256 of every inline (`data`) part of the openwop ai/call body.
fn sent_media_digests(body: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for message in body["messages"].as_array().into_iter().flatten() {
        for part in message["content"].as_array().into_iter().flatten() {
            if let Some(data) = part["data"].as_str() {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .unwrap();
                out.insert(format!("{:x}", Sha256::digest(&bytes)));
            }
        }
    }
    out
}

/// The parts of every call recorded for a case.
fn received_parts(case: &Value) -> Vec<Value> {
    case["model_calls"]
        .as_array()
        .unwrap_or_else(|| panic!("{} has no model_calls", case["id"]))
        .iter()
        .flat_map(|call| call["parts"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// The positive ai/call cases that sent inline media, with their plan index (the
/// report lists every planned case in plan order) and the body they sent.
fn accepted_media_calls(r: &RunResult) -> Vec<(usize, Value, Value)> {
    r.cases()
        .into_iter()
        .enumerate()
        .filter_map(|(index, case)| {
            let exchange = case["exchanges"].as_array()?.last()?.clone();
            let to_ai_call = exchange["request"]["url"]
                .as_str()
                .is_some_and(|u| u.ends_with("/ai/call"));
            let accepted = exchange["response"]["status"] == 200;
            let body = (to_ai_call && accepted).then(|| sent_body(&exchange))??;
            (!sent_media_digests(&body).is_empty()).then_some((index, case, body))
        })
        .collect()
}

fn run_nonce(r: &RunResult) -> String {
    r.report.as_ref().unwrap()["run"]["nonce"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn what_reached_the_model_is_recorded_per_case_with_the_bytes_sent() {
    let r = run(&["--target", "reference", "--witness", "127.0.0.1:0"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let report = r.report.as_ref().unwrap();
    let url = report["run"]["witness"].as_str().unwrap();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/v1"),
        "{url}"
    );
    assert!(
        r.stderr
            .contains(&format!("witness: {url} — point the host's model at it")),
        "{}",
        r.context()
    );
    let nonce = run_nonce(&r);
    let cases = accepted_media_calls(&r);
    assert!(cases.len() >= 4, "too few media cases: {}", cases.len());
    for (index, case, body) in &cases {
        assert_eq!(body["provider"], "compat", "{}", case["id"]);
        let parts = received_parts(case);
        let received: BTreeSet<String> = parts
            .iter()
            .filter(|p| p["kind"] != "text")
            .filter_map(|p| p["sha256"].as_str().map(str::to_string))
            .collect();
        assert_eq!(received, sent_media_digests(body), "{}", case["id"]);
        // Each part is stamped with the case's own nonce, the run's plus -c<index>.
        let case_nonce = format!("{nonce}-c{index}");
        for part in parts.iter().filter(|p| p["kind"] != "text") {
            assert_eq!(
                part["stamps"],
                serde_json::json!([case_nonce]),
                "{}",
                case["id"]
            );
        }
    }
    // A refused request reached no model: the witness looked and found nothing.
    let refused = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.unknown-type-rejected[video]")
        .unwrap();
    assert_eq!(refused["model_calls"], serde_json::json!([]));
    let junit = r.junit.as_deref().unwrap();
    assert!(junit.contains("witness: 1 model call(s)"), "{junit}");
    assert!(junit.contains("model received: text, image/png"), "{junit}");
    let verified = bin()
        .arg("verify")
        .arg(r.dir.path().join("report.json"))
        .output()
        .unwrap();
    assert!(verified.status.success(), "{verified:?}");
}

#[test]
fn a_host_that_drops_media_on_the_way_is_recorded_without_them() {
    let r = run(&[
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--reference-fault",
        "forward-drops-media",
        "--filter",
        "rfc0091",
    ]);
    let cases = accepted_media_calls(&r);
    assert!(cases.len() >= 4, "{}", r.context());
    for (_, case, _) in &cases {
        let parts = received_parts(case);
        assert!(!parts.is_empty(), "{}: no call recorded", case["id"]);
        assert!(
            parts.iter().all(|p| p["kind"] == "text"),
            "{}: {parts:?}",
            case["id"]
        );
    }
}

#[test]
fn agui_runs_that_completed_have_their_model_calls() {
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "-v",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    let mut completed = 0;
    for case in r.cases() {
        match case["stream"]["classification"].as_str() {
            Some("completed") => {
                completed += 1;
                let calls = case["model_calls"].as_array().unwrap();
                assert!(!calls.is_empty(), "{}: no call", case["id"]);
            }
            Some(_) => assert_eq!(case["model_calls"], serde_json::json!([]), "{}", case["id"]),
            None => {}
        }
    }
    assert!(completed >= 5, "{completed} completed runs");
    assert!(
        r.stdout.contains("model received: text, image/png"),
        "{}",
        r.stdout
    );
}

#[test]
fn without_a_witness_reports_have_no_witness_keys() {
    for profile in ["openwop", "agui"] {
        let r = run(&["--profile", profile, "--target", "reference"]);
        assert_eq!(r.code, 0, "{}", r.context());
        let report = r.report.as_ref().unwrap();
        assert!(report["run"].get("witness").is_none());
        assert!(r.cases().iter().all(|c| c.get("model_calls").is_none()));
        let ai_call = r.cases().into_iter().find_map(|c| {
            let body = c["exchanges"].as_array()?.last()?["request"]["body"].clone();
            body.as_str()?.contains("\"messages\"").then_some(body)
        });
        if let Some(body) = ai_call {
            assert!(!body.as_str().unwrap().contains("\"provider\""), "{body}");
        }
        assert!(!r.junit.unwrap().contains("model call(s)"));
    }
}

#[test]
fn a_witness_off_loopback_needs_to_be_allowed() {
    // Refused before anything is bound: 192.0.2.1 is a documentation address.
    let r = run(&["--target", "reference", "--witness", "192.0.2.1:0"]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("--witness"), "{}", r.stderr);
}
