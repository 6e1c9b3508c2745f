//! `run --export-hurl FILE`: every request of the run, in the order sent, each case's
//! request asserting the status the case expects, and no secret in the file.

use crate::common::{bin, read_json};

#[test]
fn the_hurl_file_lists_every_request_with_its_status_and_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let (hurl, report) = (dir.path().join("run.hurl"), dir.path().join("r.json"));
    let out = bin()
        .args([
            "run",
            "--target",
            "reference",
            "--header",
            "X-Api-Key: k3y-value",
        ])
        .args(["--secret-header", "X-Api-Key", "--export-hurl"])
        .arg(&hurl)
        .arg("--report")
        .arg(&report)
        .env("OPENWOP_API_KEY", "s3cret-token-value")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&hurl).unwrap();
    assert!(!text.contains("s3cret-token-value") && !text.contains("k3y-value"));
    assert!(
        text.contains("Authorization: Bearer {{token}}"),
        "the token is a variable"
    );
    assert!(
        text.contains("X-Api-Key: {{X_API_KEY}}"),
        "secret headers are variables"
    );
    let report = read_json(&report).unwrap();
    let requests = report["requests"].as_array().unwrap();
    let entries: Vec<&str> = text
        .split("\n\n")
        .filter(|e| !e.trim().is_empty())
        .collect();
    assert_eq!(entries.len(), requests.len(), "one entry per request sent");
    for (entry, request) in entries.iter().zip(requests) {
        let mut lines = entry.lines();
        let purpose = request["purpose"].as_str().unwrap();
        assert_eq!(
            lines.next(),
            Some(format!("# {purpose} (request {})", request["seq"]).as_str())
        );
        let method_url = format!(
            "{} {}",
            request["method"].as_str().unwrap(),
            request["url"].as_str().unwrap()
        );
        assert_eq!(lines.next(), Some(method_url.as_str()));
    }
    // A case's status expectation becomes hurl's: an exact code, or a class as bounds.
    let case = |id: &str| {
        entries
            .iter()
            .find(|e| e.starts_with(&format!("# {id} ")))
            .unwrap()
    };
    let accepted = case("openwop.rfc0091.text-part-accepted");
    assert!(
        accepted.ends_with("HTTP *\n[Asserts]\nstatus >= 200\nstatus < 300"),
        "{accepted}"
    );
    assert!(case("discovery").ends_with("HTTP *"));
}

#[test]
fn a_streamed_case_s_hurl_entry_says_what_hurl_cannot_check() {
    let dir = tempfile::tempdir().unwrap();
    let hurl = dir.path().join("run.hurl");
    let out = bin()
        .args(["run", "--profile", "openai", "--target", "reference"])
        .args(["--model", "reference-multimodal"])
        .args(["--filter", "openai.string-content.stream", "--export-hurl"])
        .arg(&hurl)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = std::fs::read_to_string(&hurl).unwrap();
    let entry = text
        .split("\n\n")
        .find(|e| e.starts_with("# openai.string-content.stream "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        entry.contains("# not checked by hurl: the answer as mmconform reads it (completed"),
        "{entry}"
    );
    assert!(entry.contains("a stream's events"), "{entry}");
}

/// The replayed curl line, run by a shell against the same host, gets the same status.
#[test]
fn replay_prints_a_case_s_request_whole_and_it_sends_again() {
    let host = crate::common::served::serve(&[]);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let case = "openwop.rfc0091.advertised-inline-accepted[image]";
    let out = bin()
        .args(["run", "--target", &host.url, "--filter", case, "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = bin().arg("replay").arg(&report).arg(case).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.starts_with(&format!("# {case}: MUST RFC 0091 §A (pass)\n")),
        "{text}"
    );
    assert!(!text.contains("not whole"), "an inline image fits: {text}");
    let curl = text.lines().find(|l| l.starts_with("curl ")).unwrap();
    assert!(curl.contains("\"type\":\"image\""), "{curl}");
    if std::process::Command::new("curl")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped sending it again: curl is not installed");
        return;
    }
    let sent = std::process::Command::new("sh")
        .args(["-c", curl])
        .output()
        .unwrap();
    let answer = String::from_utf8_lossy(&sent.stdout);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // An unknown case names the closest.
    let out = bin()
        .arg("replay")
        .arg(&report)
        .arg("openwop.rfc0091.advertised-inline-acepted[image]")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("the closest: {case}")));
}
