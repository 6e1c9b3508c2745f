//! `run --witness`: a witness started by the run, the embedded host and agent forwarding
//! to it, the model calls carrying each case's nonce recorded in the report, and the
//! cases' `expect.witness` judged on them.

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

/// The `witness.*` assertion `check` of `case`, if it ran.
fn witness_assertion(case: &Value, check: &str) -> Option<Value> {
    case["assertions"]
        .as_array()?
        .iter()
        .find(|a| a["check"] == check)
        .cloned()
}

/// The call `witness.reached` names (`... (call N)`), from the case's `model_calls`.
fn reaching_call(case: &Value) -> Value {
    let reached = witness_assertion(case, "witness.reached")
        .unwrap_or_else(|| panic!("{}: witness.reached did not run", case["id"]));
    assert_eq!(reached["passed"], true, "{}: {reached}", case["id"]);
    let actual = reached["actual"].as_str().unwrap();
    let seq: u64 = actual
        .rsplit_once("(call ")
        .and_then(|(_, n)| n.trim_end_matches(')').parse().ok())
        .unwrap_or_else(|| panic!("{}: no call named in {actual}", case["id"]));
    case["model_calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["seq"] == seq)
        .cloned()
        .unwrap_or_else(|| panic!("{}: call {seq} not in model_calls", case["id"]))
}

#[test]
fn every_positive_media_case_is_judged_on_the_call_that_carried_its_media() {
    let r = run(&["--target", "reference", "--witness", "127.0.0.1:0"]);
    assert_eq!(r.code, 0, "{}", r.context());
    let nonce = run_nonce(&r);
    let cases = accepted_media_calls(&r);
    assert!(cases.len() >= 4, "{}", r.context());
    for (index, case, body) in &cases {
        let call = reaching_call(case);
        let case_nonce = format!("{nonce}-c{index}");
        let carried: BTreeSet<String> = call["parts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["stamps"] == serde_json::json!([case_nonce]))
            .filter_map(|p| p["sha256"].as_str().map(str::to_string))
            .collect();
        assert_eq!(carried, sent_media_digests(body), "{}", case["id"]);
        for check in [
            "witness.bytes",
            "witness.form",
            "witness.mime",
            "witness.order",
        ] {
            let a = witness_assertion(case, check)
                .unwrap_or_else(|| panic!("{}: {check} did not run", case["id"]));
            assert_eq!(a["passed"], true, "{}: {a}", case["id"]);
        }
    }
}

#[test]
fn every_positive_agui_media_case_is_judged_on_the_call_that_carried_its_media() {
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    let positives: Vec<Value> = r
        .cases()
        .into_iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("agui.accept.") && c["outcome"] == "pass")
        .collect();
    assert!(positives.len() >= 10, "{}", r.context());
    for case in &positives {
        let call = reaching_call(case);
        let media = call["parts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["kind"] != "text")
            .count();
        assert!(
            media >= 1,
            "{}: the call carried no media: {call}",
            case["id"]
        );
    }
    // Refused input never reached the model, and the witness said so.
    for case in r
        .cases()
        .iter()
        .filter(|c| c["id"].as_str().unwrap().contains("refused"))
    {
        if let Some(a) = witness_assertion(case, "witness.withheld") {
            assert_eq!(a["passed"], true, "{}: {a}", case["id"]);
        }
    }
}

#[test]
fn a_case_waits_only_for_media_it_expects_to_reach_the_model() {
    // A long wait: any case that waited for a call that never comes would show it.
    let started = std::time::Instant::now();
    let r = run(&[
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--witness-wait",
        "60",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(45),
        "a case waited idly: {:?}",
        started.elapsed()
    );
}

#[test]
fn forwarding_faults_fail_with_what_the_model_received() {
    let r = run(&[
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--reference-fault",
        "forward-drops-media",
        "--filter",
        "openwop.rfc0091.advertised-inline-accepted",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert!(
        r.stdout.contains("; the model received: text only (call "),
        "{}",
        r.stdout
    );
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.advertised-inline-accepted[image]")
        .unwrap();
    let reached = witness_assertion(&case, "witness.reached").unwrap();
    assert!(
        reached["actual"]
            .as_str()
            .unwrap()
            .starts_with("sent image/png "),
        "{reached}"
    );
    let junit = r.junit.as_deref().unwrap();
    assert!(junit.contains("witness.reached: fail"), "{junit}");

    let refuses = run(&[
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--reference-fault",
        "forward-then-refuses",
        "--filter",
        "openwop.rfc0091.unknown-type-rejected",
    ]);
    assert_eq!(refuses.code, 1, "{}", refuses.context());
    let case = refuses
        .cases()
        .into_iter()
        .find(|c| c["outcome"] == "fail")
        .unwrap();
    let withheld = witness_assertion(&case, "witness.withheld").unwrap();
    assert!(
        withheld["actual"]
            .as_str()
            .unwrap()
            .starts_with("refused, but the model saw it"),
        "{withheld}"
    );
}

#[test]
fn malformed_input_answered_with_success_and_forwarded_is_named_so() {
    let r = run(&[
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--reference-fault",
        "accepts-invalid-base64",
        "--filter",
        "openwop.rfc0091.shape.invalid-base64",
    ]);
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.shape.invalid-base64[image]")
        .unwrap_or_else(|| panic!("{}", r.context()));
    let withheld = witness_assertion(&case, "witness.withheld").unwrap();
    assert_eq!(withheld["passed"], false);
    assert!(
        withheld["actual"]
            .as_str()
            .unwrap()
            .starts_with("answered with success and forwarded to the model"),
        "{withheld}"
    );
}

#[test]
fn without_a_witness_the_expectation_is_a_note_not_a_verdict() {
    let r = run(&[
        "--target",
        "reference",
        "--filter",
        "openwop.rfc0091.advertised-inline-accepted",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openwop.rfc0091.advertised-inline-accepted[image]")
        .unwrap();
    assert!(witness_assertion(&case, "witness.reached").is_none());
    let notes = case["notes"].to_string();
    assert!(
        notes.contains("without --witness, a part dropped inside a 2xx cannot be seen"),
        "{notes}"
    );
}

#[test]
fn a_run_with_more_model_calls_than_the_log_keeps_judges_every_case() {
    // 300 cases, one model call each: more than the witness keeps (256). Each case's
    // calls are released once it is judged, so none is dropped and every case passes;
    // without that, the late cases would be blocked ("the call log was full").
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<String> = (0..300).map(|i| format!("\"{i}\"")).collect();
    let file = dir.path().join("many.yaml");
    std::fs::write(
        &file,
        format!(
            "mmconform: 1
profile: openwop
cases:
  - id: many.text-reaches-the-model
    title: Text {{n}} reaches the model
    requirement: {{ source: RFC 0091 §A, level: MUST, text: plain string content is forwarded }}
    expand:
      n: [{}]
    request:
      endpoint: ai-call
      body:
        messages:
          - {{ role: user, content: \"mmconform {{n}} {{nonce}}\" }}
    expect:
      status: 2xx
      witness: reached
",
            rows.join(", ")
        ),
    )
    .unwrap();
    let r = run(&[
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--no-builtin",
        "--scenarios",
        file.to_str().unwrap(),
        // One major: 300 cases are the subject (an auto run would add 300 @v2 twins).
        "--openwop-major",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.ids_with("pass").len(), 300, "{}", r.context());
    for case in r.cases() {
        let reached = witness_assertion(&case, "witness.reached").unwrap();
        assert_eq!(reached["passed"], true, "{}: {reached}", case["id"]);
    }
}
