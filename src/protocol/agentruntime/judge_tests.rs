//! `expect.run` on synthetic bridge runs: the contract's assertions, and outbound media
//! judged against both declarations.

use super::*;
use crate::process::{Ending, Finished, Line, ReadEnd};
use crate::scenario::model::RunExpectation;
use serde_json::json;
use std::time::Duration;

fn finished(lines: &[&str], ending: Ending) -> Finished {
    Finished {
        lines: lines
            .iter()
            .map(|l| Line {
                text: l.to_string(),
                utf8: true,
                terminated: true,
            })
            .collect(),
        read_end: ReadEnd::Eof,
        ending,
        ended_by: None,
        abort: None,
        stderr: Default::default(),
        elapsed: Duration::from_millis(5),
    }
}

fn caps(emits: Option<bool>) -> Capabilities {
    Capabilities {
        accepts_inbound: None,
        emits_outbound: emits,
        declared_by: "test".into(),
    }
}

fn failed(expect: RunExpectation, f: &Finished, c: &Capabilities) -> Vec<String> {
    judge(&expect, &Observed::new(f), c)
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
