//! `expect.run` on synthetic bridge runs: the contract's assertions, and outbound media
//! judged against both declarations.

use super::super::expect::RunExpectation;
use super::*;
use crate::process::run::WorkDir;
use crate::process::{Ending, Finished, Line, ReadEnd};
use crate::protocol::agentruntime::classify::BridgeRun;
use crate::protocol::agentruntime::event::EventReader;
use crate::protocol::agentruntime::outbound::{self, Files};
use base64::Engine as _;
use serde_json::json;
use std::time::Duration;

fn finished(lines: &[&str], ending: Ending) -> BridgeRun {
    finished_in(lines, ending, std::env::temp_dir())
}

fn finished_in(lines: &[&str], ending: Ending, dir: std::path::PathBuf) -> BridgeRun {
    let mut reader = EventReader::default();
    Finished {
        lines: lines
            .iter()
            .map(|l| {
                reader.read(Line {
                    text: l.to_string(),
                    utf8: true,
                    terminated: true,
                })
            })
            .collect(),
        read_end: ReadEnd::Eof,
        ending,
        ended_by: None,
        abort: None,
        stderr: Default::default(),
        elapsed: Duration::from_millis(5),
        workdir: WorkDir::given(dir),
    }
}

fn caps(emits: Option<bool>) -> Capabilities {
    Capabilities {
        accepts_inbound: None,
        emits_outbound: emits,
        declared_by: "test".into(),
    }
}

fn failed(expect: RunExpectation, f: &BridgeRun, c: &Capabilities) -> Vec<String> {
    failed_with(expect, f, c, &Files::new())
}

fn failed_with(
    expect: RunExpectation,
    f: &BridgeRun,
    c: &Capabilities,
    files: &Files,
) -> Vec<String> {
    judge(&expect, &Observed::new(f), c, files)
        .into_iter()
        .filter(|a| !a.passed)
        .map(|a| a.check)
        .collect()
}

const DONE: &str =
    r#"{"type":"done","result":{"text":"hi","sessionId":"s","durationMs":3,"aborted":false}}"#;
const CONTRACT: RunExpectation = RunExpectation {
    capabilities: false,
    contract: true,
    no_error: false,
    outbound: false,
    aborted: false,
};
const OUTBOUND: RunExpectation = RunExpectation {
    outbound: true,
    ..CONTRACT
};

#[test]
fn a_clean_run_keeps_the_contract() {
    let f = finished(&[r#"{"type":"text","text":"hi"}"#, DONE], Ending::Exited(0));
    assert!(failed(CONTRACT, &f, &caps(None)).is_empty());
}

#[test]
fn each_broken_rule_fails_its_own_assertion() {
    let f = finished(&["hello", DONE, DONE], Ending::Exited(1));
    assert_eq!(
        failed(CONTRACT, &f, &caps(None)),
        ["run.lines", "run.done", "run.exit"]
    );
    let bare = finished(
        &[
            r#"{"type":"error"}"#,
            r#"{"type":"done","result":{"text":""}}"#,
        ],
        Ending::Exited(0),
    );
    assert_eq!(
        failed(CONTRACT, &bare, &caps(None)),
        ["run.result", "run.error-message"]
    );
}

#[test]
fn outbound_media_are_judged_against_the_declaration() {
    let png = base64::engine::general_purpose::STANDARD
        .encode(mmconform_media::generate("image/png", "n"));
    let media =
        json!({"type": "media", "media": {"mimeType": "image/png", "base64": png}}).to_string();
    let f = finished(&[&media, DONE], Ending::Exited(0));
    assert_eq!(failed(OUTBOUND, &f, &caps(Some(false))), ["run.outbound"]);
    assert!(failed(OUTBOUND, &f, &caps(Some(true))).is_empty());
    let lying =
        json!({"type": "media", "media": {"mimeType": "image/jpeg", "base64": png}}).to_string();
    let f = finished(&[&lying, DONE], Ending::Exited(0));
    assert_eq!(failed(OUTBOUND, &f, &caps(Some(true))), ["run.outbound"]);
    let missing = json!({"type": "media", "media": {"mimeType": "image/png", "filePath": "/nonexistent/x.png"}}).to_string();
    let f = finished(&[&missing, DONE], Ending::Exited(0));
    assert_eq!(failed(OUTBOUND, &f, &caps(Some(true))), ["run.outbound"]);
}

/// The outbound assertion's `actual` once the files the run names are read.
async fn outbound_actual(item: serde_json::Value, dir: &std::path::Path) -> (bool, String) {
    let line = media_line(item);
    let f = finished_in(&[&line, DONE], Ending::Exited(0), dir.to_path_buf());
    let observed = Observed::new(&f);
    let stop = crate::stop::Stop::never();
    let files = outbound::fetch(&observed, Duration::from_secs(5), &stop).await;
    let a = judge(&OUTBOUND, &observed, &caps(Some(true)), &files)
        .into_iter()
        .find(|a| a.check == "run.outbound")
        .unwrap();
    (a.passed, a.actual)
}

fn media_line(media: serde_json::Value) -> String {
    json!({"type": "media", "media": media}).to_string()
}

fn done_with_media(media: serde_json::Value) -> String {
    json!({"type": "done", "result": {"text": "", "sessionId": "s", "durationMs": 1, "aborted": false, "media": media}}).to_string()
}

#[tokio::test]
async fn outbound_files_are_read_inside_where_the_bridge_ran_only() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("out.png"),
        mmconform_media::generate("image/png", "n"),
    )
    .unwrap();
    // A relative path is relative to the bridge's working directory.
    let (passed, _) = outbound_actual(
        json!({"mimeType": "image/png", "filePath": "out.png"}),
        dir.path(),
    )
    .await;
    assert!(passed);
    // Outside it, existing or not: the same words, and nothing opened.
    for path in [
        "/dev/zero",
        "/etc/shadow",
        "../../../../etc/passwd",
        "/nonexistent/x",
    ] {
        let (passed, actual) = outbound_actual(
            json!({"mimeType": "image/png", "filePath": path}),
            dir.path(),
        )
        .await;
        assert!(!passed);
        assert_eq!(
            actual,
            format!("image/png: filePath {path}: a path outside its working folder (not read)")
        );
    }
}

#[test]
fn outbound_bytes_must_carry_their_types_signature() {
    let dir = tempfile::tempdir().unwrap();
    let judged = |item: serde_json::Value| {
        let line = media_line(item);
        let f = finished_in(&[&line, DONE], Ending::Exited(0), dir.path().to_path_buf());
        failed(OUTBOUND, &f, &caps(Some(true)))
    };
    // Bytes without the declared format's signature.
    let text = base64::engine::general_purpose::STANDARD.encode("hello");
    assert_eq!(
        judged(json!({"mimeType": "image/png", "base64": text})),
        ["run.outbound"]
    );
    // A type without a signature is not sniffed.
    assert!(judged(json!({"mimeType": "text/plain", "base64": text})).is_empty());
    assert_eq!(
        judged(json!({"mimeType": "", "base64": text})),
        ["run.outbound"]
    );
}

#[test]
fn result_media_must_be_a_list_of_attachments() {
    let png = base64::engine::general_purpose::STANDARD
        .encode(mmconform_media::generate("image/png", "n"));
    let item = json!({"mimeType": "image/png", "base64": png});
    let judged = |media: serde_json::Value| {
        let done = done_with_media(media);
        let f = finished(&[&done], Ending::Exited(0));
        failed(OUTBOUND, &f, &caps(Some(true)))
    };
    assert!(judged(json!([item])).is_empty());
    assert_eq!(judged(item.clone()), ["run.outbound"]);
    assert_eq!(judged(json!([item, "out.png"])), ["run.outbound"]);
    // Declared false, a result.media of any shape is media sent back.
    let done = done_with_media(json!({"mimeType": "image/png"}));
    let f = finished(&[&done], Ending::Exited(0));
    assert_eq!(failed(OUTBOUND, &f, &caps(Some(false))), ["run.outbound"]);
}

#[test]
fn declared_media_that_never_come_decide_nothing() {
    let only = RunExpectation {
        contract: false,
        ..OUTBOUND
    };
    let f = finished(&[DONE], Ending::Exited(0));
    let none = Files::new();
    assert!(judge(&only, &Observed::new(&f), &caps(Some(true)), &none).is_empty());
    assert_eq!(
        judge(&only, &Observed::new(&f), &caps(Some(false)), &none).len(),
        1
    );
}
