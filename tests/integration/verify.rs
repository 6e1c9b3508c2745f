//! `mmconform verify`: an untouched report verifies; editing any one byte does not.

use crate::common::{self, bin, run};
use mmconform::api::verify;

fn verify_cli(path: &std::path::Path) -> (i32, String) {
    let out = bin().arg("verify").arg(path).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn small_report() -> (common::RunResult, Vec<u8>) {
    let r = run(&[
        "--target",
        "reference",
        "--reference-fault",
        "accepts-unadvertised",
        "--filter",
        "openwop.rfc0091.unadvertised-rejected or openwop.discovery.document",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    let bytes = std::fs::read(r.dir.path().join("report.json")).unwrap();
    (r, bytes)
}

#[test]
fn an_untouched_report_verifies() {
    let (r, _) = small_report();
    let (code, stdout) = verify_cli(&r.dir.path().join("report.json"));
    assert_eq!(code, 0, "{stdout}");
    for name in [
        "layout",
        "schema",
        "integrity",
        "discovery",
        "scenarios",
        "verdict",
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok") && l.contains(name)),
            "{name}: {stdout}"
        );
    }
}

#[test]
fn editing_any_single_byte_fails_verification() {
    let (_, bytes) = small_report();
    assert!(verify(&bytes).iter().all(|c| c.passed));
    // Every position up to a budget, spread over the whole file, two different edits each.
    let step = (bytes.len() / 300).max(1);
    let mut tried = 0;
    for at in (0..bytes.len()).step_by(step) {
        for replacement in [if bytes[at] == b' ' { b'x' } else { b' ' }, bytes[at] ^ 1] {
            let mut edited = bytes.clone();
            edited[at] = replacement;
            let failed: Vec<&str> = verify(&edited)
                .iter()
                .filter(|c| !c.passed)
                .map(|c| c.name)
                .collect();
            assert!(
                !failed.is_empty(),
                "editing byte {at} ({:?} -> {:?}) went unnoticed",
                bytes[at] as char,
                replacement as char
            );
            tried += 1;
        }
    }
    assert!(tried >= 500, "{tried}");
}

#[test]
fn the_cli_names_what_an_edit_broke() {
    let (r, bytes) = small_report();
    let path = r.dir.path().join("report.json");
    let text = String::from_utf8(bytes).unwrap();
    // A failing case turned into a pass: the content no longer matches its digest.
    let forged = text.replacen("\"outcome\": \"fail\"", "\"outcome\": \"pass\"", 1);
    assert_ne!(forged, text);
    std::fs::write(&path, &forged).unwrap();
    let (code, stdout) = verify_cli(&path);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("FAIL integrity"), "{stdout}");
    assert!(stdout.contains("NOT VERIFIED"), "{stdout}");
    // Whitespace only: same JSON, different bytes.
    std::fs::write(&path, text.replacen("\n  ", "\n   ", 1)).unwrap();
    let (code, stdout) = verify_cli(&path);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("FAIL layout"), "{stdout}");
    // A missing file is a usage error, not a verdict.
    let (code, _) = verify_cli(&r.dir.path().join("absent.json"));
    assert_eq!(code, 2);
}

#[test]
fn a_forger_who_recomputes_the_digest_is_still_caught_by_the_verdict_check() {
    let (_, bytes) = small_report();
    let mut report: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let cases = report["cases"].as_array_mut().unwrap();
    let failing = cases.iter_mut().find(|c| c["outcome"] == "fail").unwrap();
    failing["outcome"] = "pass".into();
    let map = report.as_object_mut().unwrap();
    map.remove("integrity");
    let digest = mmconform::api::integrity(&report);
    report["integrity"] = digest;
    let mut forged = serde_json::to_vec_pretty(&report).unwrap();
    forged.push(b'\n');
    let failed: Vec<&str> = verify(&forged)
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.name)
        .collect();
    assert_eq!(failed, ["verdict"]);
}
