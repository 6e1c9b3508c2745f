//! The openai profile end to end: the built binary against the embedded reference
//! server (in-process with `--target reference`, and as `serve-reference --profile
//! openai`), the reports it writes, the model pick, tokens, and its usage errors.

use crate::common::{self, bin, run, run_with_env};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

fn reference(extra: &[&str]) -> common::RunResult {
    common::run_reference("openai", extra)
}

#[test]
fn the_multimodal_model_passes_every_case_that_applies() {
    let r = reference(&[]);
    r.assert_clean("openai.");
    for id in [
        "openai.string-content.stream",
        "openai.accept.image-data[image/webp]",
        "openai.accept.image-detail[high]",
        "openai.accept.audio[audio/mpeg]",
        "openai.accept.file-data",
        "openai.accept.file-id",
        "openai.accept.interleaved",
        "openai.accept.stream[file]",
        "openai.malformed.refused.mime-disagrees-with-bytes",
        "openai.malformed.refused.image-on-system-message",
    ] {
        assert_eq!(r.outcome(id), "pass", "{id}");
    }
    assert_eq!(r.outcome("openai.refuse.undeclared[image]"), "skip");
    // The server serves the media an http image URL points at.
    assert_eq!(r.outcome("openai.accept.image-http[image/png]"), "pass");
    assert_eq!(r.classification("openai.accept.stream[image]"), "completed");
    assert_eq!(
        r.classification("openai.malformed.refused.empty-text"),
        "rejected"
    );
    // The bucket is on every case line.
    assert!(
        r.stdout.contains(
            "PASS    openai.malformed.refused.empty-content -> rejected: HTTP 400 empty_array"
        ),
        "{}",
        r.stdout
    );
    // Without a witness, the passes that could not see the far end are counted once.
    let caveat = "could not see whether the media reached the model: run with --witness";
    assert_eq!(r.stdout.matches(caveat).count(), 1, "{}", r.stdout);
    let advice = &r.report.as_ref().unwrap()["summary"]["advice"];
    assert!(advice.to_string().contains(caveat), "{advice}");
}

#[test]
fn the_text_only_model_refuses_every_media_kind() {
    let r = reference(&["--model", "reference-text"]);
    r.assert_clean("openai.");
    for kind in ["image", "audio", "file"] {
        assert_eq!(
            r.outcome(&format!("openai.refuse.undeclared[{kind}]")),
            "pass"
        );
        assert_eq!(
            r.outcome(&format!("openai.refuse.undeclared.stream[{kind}]")),
            "pass"
        );
        assert_eq!(
            r.outcome(&format!("openai.refuse.error-envelope[{kind}]")),
            "pass"
        );
    }
    assert_eq!(r.outcome("openai.accept.image-data[image/png]"), "skip");
    assert_eq!(r.outcome("openai.string-content"), "pass");
    let declared = &r.report.as_ref().unwrap()["run"]["declared"];
    assert_eq!(declared["kinds"], serde_json::json!([]));
    assert_eq!(declared["model"], "reference-text");
}

#[test]
fn reports_carry_the_model_the_declaration_and_each_classification() {
    let r = reference(&[]);
    let report = r.report.as_ref().unwrap();
    assert_eq!(report["run"]["profile"], "openai");
    assert_eq!(report["run"]["model"], "reference-multimodal");
    let declared = &report["run"]["declared"];
    assert_eq!(
        declared["sources"],
        serde_json::json!(["data", "http", "file_id"])
    );
    assert_eq!(
        (declared["detail"].clone(), declared["streaming"].clone()),
        (Value::Bool(true), Value::Bool(true))
    );
    assert_eq!(
        declared["declared_by"],
        "reference server (reference-multimodal)"
    );
    for case in r.cases() {
        let ran = case["outcome"] == "pass";
        assert_eq!(ran, case.get("stream").is_some(), "{}", case["id"]);
    }
    let junit = r.junit.as_ref().unwrap();
    for needle in [
        r#"<property name="profile" value="openai"/>"#,
        r#"<property name="openai.model" value="reference-multimodal"/>"#,
        r#"<property name="openai.kinds" value="image,audio,file"/>"#,
        "answer: rejected: HTTP 400 empty_array",
        "answer: completed: chat.completion, finish_reason stop",
    ] {
        assert!(
            junit.contains(needle),
            "{needle} missing from JUnit:\n{junit}"
        );
    }
    let schema: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/schemas/report.schema.json"
    )))
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let verified = bin()
        .arg("verify")
        .arg(r.dir.path().join("report.json"))
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stdout)
    );
}

#[test]
fn a_404_refusal_fails_by_that_name() {
    let r = reference(&[
        "--model",
        "reference-text",
        "--reference-fault",
        "capability-refusal-404",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "openai.refuse.undeclared[image]")
        .unwrap();
    let failed: Vec<&Value> = case["assertions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["passed"] == false)
        .collect();
    assert_eq!(failed.len(), 1, "{case}");
    assert_eq!(failed[0]["check"], "capability_refusal");
    assert!(
        failed[0]["actual"]
            .as_str()
            .unwrap()
            .starts_with("404 Not Found")
    );
}

#[test]
fn an_openai_run_with_a_witness_passes() {
    let r = reference(&["--witness", "127.0.0.1:0"]);
    r.assert_clean("openai.");
    assert!(!r.stdout.contains("could not see whether"), "{}", r.stdout);
}

/// `serve-reference --profile openai --port 0`, and the API base it prints.
struct Served {
    child: Child,
    url: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(extra: &[&str], env: &[(&str, &str)]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmconform"))
        .args(["serve-reference", "--profile", "openai", "--port", "0"])
        .args(extra)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    Served { child, url }
}

#[test]
fn the_one_listed_model_is_picked_and_two_are_a_usage_error() {
    let one = serve(&["--models", "reference-text"], &[]);
    let r = run(&["--profile", "openai", "--target", &one.url]);
    r.assert_clean("openai.");
    assert_eq!(r.report.as_ref().unwrap()["run"]["model"], "reference-text");
    assert_eq!(
        r.report.as_ref().unwrap()["run"]["declared"]["declared_by"],
        "no declaration (text-only)"
    );
    assert_eq!(r.outcome("openai.refuse.undeclared[image]"), "pass");

    let both = serve(&[], &[]);
    let r = run(&["--profile", "openai", "--target", &both.url]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr
            .contains("lists 2 models: reference-text, reference-multimodal")
            && r.stderr.contains("--model"),
        "{}",
        r.stderr
    );
    assert!(r.report.is_none(), "a usage error writes no report");
}

#[test]
fn a_declaration_plans_a_run_against_a_served_endpoint() {
    let token = "sk-mmconform-canary-51f0";
    let server = serve(&["--token-env", "SERVED_TOKEN"], &[("SERVED_TOKEN", token)]);
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims.yaml");
    std::fs::write(&claims, "accepts: [image/]\nstreaming: false\n").unwrap();
    let args = [
        "--profile",
        "openai",
        "--target",
        &server.url,
        "--model",
        "reference-multimodal",
        "--claims",
        claims.to_str().unwrap(),
    ];
    // The default token variable of this profile is OPENAI_API_KEY.
    let r = run_with_env(&args, &[("OPENAI_API_KEY", token)]);
    // The model takes audio and files too: undeclared for this run, and accepted, so
    // their refusal cases fail. The declaration, not the server, decides what is asked.
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(r.outcome("openai.accept.image-data[image/png]"), "pass");
    assert_eq!(r.outcome("openai.accept.stream[image]"), "skip");
    assert_eq!(r.outcome("openai.refuse.undeclared[image]"), "skip");
    assert_eq!(r.outcome("openai.refuse.undeclared[audio]"), "fail");
    // The failure says the declaration, not the server, may be what is wrong.
    assert!(
        r.stdout
            .contains("hint: if the model takes audio parts, the declaration is what is wrong: pass --accepts audio/"),
        "{}",
        r.stdout
    );
    let text = std::fs::read_to_string(r.dir.path().join("report.json")).unwrap();
    assert!(!text.contains(token), "the token leaked into the report");
    assert!(!r.junit.as_ref().unwrap().contains(token));
    assert!(!r.stdout.contains(token));
    // Without the token every call is refused 401: an authentication answer is no
    // verdict on the host, so the cases are blocked (exit 3), a refusal never passes on
    // it, and one line says what to set.
    let r = run(&args);
    assert_eq!(r.code, 3, "{}", r.context());
    assert!(r.ids_with("pass").is_empty(), "{}", r.context());
    assert!(r.ids_with("fail").is_empty(), "{}", r.context());
    assert_eq!(r.outcome("openai.refuse.undeclared[audio]"), "blocked");
    assert!(
        r.stdout.contains("which are blocked: set OPENAI_API_KEY"),
        "{}",
        r.stdout
    );
    // A --token-env naming an unset variable is a usage error before anything is sent.
    let mut named = args.to_vec();
    named.extend(["--token-env", "MMCONFORM_UNSET_TOKEN_VAR"]);
    let r = run(&named);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(
        r.stderr.contains("MMCONFORM_UNSET_TOKEN_VAR"),
        "{}",
        r.stderr
    );
    // Without --model, the model list behind the same door asks for the token.
    let r = run(&["--profile", "openai", "--target", &server.url]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("wants a token"), "{}", r.stderr);
}

#[test]
fn an_unreachable_endpoint_exits_4_and_a_wrong_base_blocks() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let target = format!("http://127.0.0.1:{port}/v1");
    let r = run(&["--profile", "openai", "--target", &target, "--model", "m"]);
    assert_eq!(r.code, 4, "{}", r.context());
    assert!(r.report.is_some());
    // No --model and no answer from /models: the probe says why, exit 4 as well.
    let r = run(&["--profile", "openai", "--target", &target]);
    assert_eq!(r.code, 4, "{}", r.context());

    let server = serve(&[], &[]);
    let wrong = server.url.trim_end_matches("/v1").to_string() + "/v2";
    let r = run(&[
        "--profile",
        "openai",
        "--target",
        &wrong,
        "--model",
        "reference-text",
    ]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(r.outcome("openai.string-content"), "blocked");
}

#[test]
fn usage_errors() {
    for (args, needle) in [
        (
            &["--profile", "agui", "--target", "reference", "--model", "x"][..],
            "--profile openai",
        ),
        (
            &[
                "--profile",
                "openai",
                "--target",
                "reference",
                "--accepts",
                "image/",
            ][..],
            "--model, not --accepts",
        ),
        (
            &[
                "--profile",
                "openai",
                "--target",
                "reference",
                "--model",
                "gpt-9",
            ][..],
            "reference-multimodal",
        ),
        (
            &["--profile", "openai", "--offline"][..],
            "needs a --target",
        ),
    ] {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.context());
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
    }
}
