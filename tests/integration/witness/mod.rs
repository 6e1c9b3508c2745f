//! `mmconform witness` and `mmconform media export` as a client author uses them: the
//! built binary serves on 127.0.0.1, prints its URL first, judges each call it gets,
//! and ends with reports and an exit code. Nothing here talks to anything but 127.0.0.1.

mod hostile;

use crate::common::witness::{Served, mmconform, post};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

fn data_url(mime: &str, nonce: &str) -> String {
    let bytes = mmconform_media::generate(mime, nonce);
    format!("data:{mime};base64,{}", STANDARD.encode(bytes))
}

fn chat(content: Value, stream: bool) -> String {
    json!({"model": "gpt-4o-mini", "stream": stream, "messages": [
        {"role": "system", "content": "You describe media."},
        {"role": "user", "content": content},
    ]})
    .to_string()
}

fn image(url: String) -> Value {
    json!({"type": "image_url", "image_url": {"url": url}})
}

#[test]
fn the_witness_judges_each_call_and_reports_it() {
    let served = Served::start(&["--count", "6"]);
    assert!(
        served
            .first_line
            .starts_with("mmconform witness listening: http://127.0.0.1:")
    );
    assert!(served.url.ends_with("/v1"), "{}", served.url);
    let url = served.url.clone();

    let good = chat(
        json!([{"type": "text", "text": "what is it?"}, image(data_url("image/png", "good-p0"))]),
        false,
    );
    let (status, body) = post(&url, "/chat/completions", good);
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    let said = answer["choices"][0]["message"]["content"].as_str().unwrap();
    assert!(
        said.contains("image/png") && said.contains("nonce good-p0"),
        "{said}"
    );

    let pdf_as_image = chat(json!([image(data_url("application/pdf", "pdf-p0"))]), false);
    assert_eq!(post(&url, "/chat/completions", pdf_as_image).0, 200);
    let empty_text = chat(
        json!([{"type": "text", "text": ""}, image(data_url("image/jpeg", "e-p0"))]),
        false,
    );
    assert_eq!(post(&url, "/chat/completions", empty_text).0, 200);
    let (status, body) = post(&url, "/chat/completions", "{\"messages\": [");
    assert_eq!(status, 400);
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"]["message"].is_string());
    let streamed = chat(json!([image(data_url("image/webp", "s-p0"))]), true);
    let (status, body) = post(&url, "/chat/completions", streamed);
    assert_eq!(status, 200);
    assert!(body.trim_end().ends_with("data: [DONE]"), "{body}");
    let anthropic = json!({"model": "claude", "max_tokens": 64, "messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
            "data": STANDARD.encode(mmconform_media::generate("application/pdf", "doc-p0"))}},
        {"type": "text", "text": "summarise"},
    ]}]});
    assert_eq!(post(&url, "/messages", anthropic.to_string()).0, 200);

    let ended = served.wait(Duration::from_secs(30));
    assert_eq!(ended.code, 1, "{}", ended.context());
    let pass = |id: &str| (id.to_string(), "pass".to_string(), Vec::<String>::new());
    let fail =
        |id: &str, check: &str| (id.to_string(), "fail".to_string(), vec![check.to_string()]);
    assert_eq!(
        ended.verdicts(),
        [
            pass("witness.call[1]"),
            fail("witness.call[2]", "media-matches-bytes"),
            fail("witness.call[3]", "text-not-empty"),
            fail("witness.call[4]", "request"),
            pass("witness.call[5]"),
            pass("witness.call[6]"),
        ],
        "{}",
        ended.context()
    );
    let cases = ended.cases();
    let first = &cases[0]["stream"];
    assert_eq!(first["wire"], "openai.chat");
    assert_eq!(first["roles"], json!(["system", "user"]));
    assert_eq!(first["parts"][2]["stamps"], json!(["good-p0"]));
    assert_eq!(first["parts"][2]["sniffed"], "image/png");
    assert_eq!(cases[3]["stream"]["status"], 400);
    assert_eq!(cases[4]["stream"]["stream"], true);
    assert_eq!(cases[5]["stream"]["wire"], "anthropic.messages");
    let summary = &ended.report.as_ref().unwrap()["summary"];
    assert_eq!(summary["exit_code"], 1);
    assert_eq!(
        summary["explanation"],
        "3 of 6 model call(s) broke a wire rule"
    );
    assert!(
        ended.stdout.contains("FAIL    witness.call[2]"),
        "{}",
        ended.stdout
    );
    let junit = ended.junit.as_deref().unwrap();
    assert!(junit.contains("name=\"witness.call[3]\""), "{junit}");
    assert!(
        junit.contains("text-not-empty: expected no empty text block"),
        "{junit}"
    );

    // The report is an ordinary mmconform report: `verify` accepts it as written.
    let verified = mmconform()
        .arg("verify")
        .arg(&ended.report_path)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&verified.stdout);
    let err = String::from_utf8_lossy(&verified.stderr);
    assert_eq!(verified.status.code(), Some(0), "{out}{err}");
}

#[test]
fn every_call_meeting_the_rules_is_exit_0() {
    let served = Served::start(&["--count", "1"]);
    let content = json!([{"type": "text", "text": "hi"}, image(data_url("image/png", "ok-p0"))]);
    post(&served.url, "/chat/completions", chat(content, false));
    let ended = served.wait(Duration::from_secs(30));
    assert_eq!(ended.code, 0, "{}", ended.context());
    assert!(
        ended
            .stdout
            .contains("PASS    witness.call[1] -> openai.chat:"),
        "{}",
        ended.stdout
    );
}

#[test]
fn no_call_at_all_is_exit_3_with_reports() {
    let served = Served::start(&["--duration", "0.5"]);
    let ended = served.wait(Duration::from_secs(30));
    assert_eq!(ended.code, 3, "{}", ended.context());
    let summary = &ended.report.as_ref().unwrap()["summary"];
    assert_eq!(summary["explanation"], "no model call arrived in 0.5 s");
    assert_eq!(summary["incomplete"], false);
    assert!(ended.junit.is_some());
}

#[test]
fn ctrl_c_writes_reports_marked_incomplete_and_exits_130() {
    let mut served = Served::start(&[]);
    post(
        &served.url,
        "/chat/completions",
        chat(json!("hello"), false),
    );
    served.wait_for_line("witness.call[1]");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(served.pid() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let ended = served.wait(Duration::from_secs(30));
    assert_eq!(ended.code, 130, "{}", ended.context());
    let report = ended.report.as_ref().unwrap();
    assert_eq!(report["summary"]["incomplete"], true);
    assert_eq!(report["cases"].as_array().unwrap().len(), 1);
    assert!(
        ended
            .junit
            .unwrap()
            .contains("name=\"incomplete\" value=\"true\"")
    );
}

#[test]
fn a_remote_address_is_refused_without_the_flag() {
    let out = mmconform()
        .args(["witness", "--listen", "0.0.0.0:0", "--duration", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--witness-allow-remote"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing listened");
}

/// `media export DIR --kinds ...`: the files, and the list naming each one's nonce.
fn export(dir: &Path, kinds: &str) -> String {
    let out = mmconform()
        .args(["media", "export"])
        .arg(dir)
        .args(["--kinds", kinds, "--nonce", "author1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn exported_media_sent_in_order_pass_and_swapped_fail_the_order_rule() {
    let dir = tempfile::tempdir().unwrap();
    let listing = export(dir.path(), "png,wav,pdf");
    assert!(listing.starts_with("wrote 3 file(s) to"), "{listing}");
    for (name, nonce) in [
        ("p0-image.png", "author1-p0"),
        ("p1-audio.wav", "author1-p1"),
        ("p2-document.pdf", "author1-p2"),
    ] {
        assert!(
            listing.contains(name) && listing.contains(nonce),
            "{listing}"
        );
        let bytes = std::fs::read(dir.path().join(name)).unwrap();
        assert_eq!(mmconform_media::find_stamps(&bytes), [nonce]);
    }
    let read = |name: &str| STANDARD.encode(std::fs::read(dir.path().join(name)).unwrap());
    let png = image(format!("data:image/png;base64,{}", read("p0-image.png")));
    let wav = json!({"type": "input_audio", "input_audio": {"data": read("p1-audio.wav"), "format": "wav"}});
    let pdf = json!({"type": "file", "file": {"filename": "p2-document.pdf",
        "file_data": format!("data:application/pdf;base64,{}", read("p2-document.pdf"))}});

    let served = Served::start(&["--count", "2"]);
    post(
        &served.url,
        "/chat/completions",
        chat(json!([png, wav, pdf]), false),
    );
    post(
        &served.url,
        "/chat/completions",
        chat(json!([pdf, png]), false),
    );
    let ended = served.wait(Duration::from_secs(30));
    assert_eq!(ended.code, 1, "{}", ended.context());
    let verdicts = ended.verdicts();
    assert_eq!(verdicts[0].1, "pass", "{verdicts:?}");
    assert_eq!(verdicts[1].2, ["part-order"], "{verdicts:?}");
    let checks: Vec<String> = ended.cases()[0]["assertions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["check"].as_str().unwrap().to_string())
        .collect();
    for rule in [
        "audio-format",
        "file-fields",
        "part-order",
        "media-matches-bytes",
    ] {
        assert!(
            checks.iter().any(|c| c == rule),
            "{rule} not judged: {checks:?}"
        );
    }
}

#[test]
fn media_export_refuses_a_nonce_it_could_not_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = mmconform()
        .args(["media", "export"])
        .arg(dir.path())
        .args(["--nonce", "has space"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
