//! The AG-UI profile end to end: the built binary against the embedded reference agent
//! (in-process with `--target reference`, and as `serve-reference --profile agui` with a
//! user declaration), the reports it writes, and its usage errors.

use crate::common::{self, bin, run};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Every agui case run against the faithful reference agent, declared its own way.
fn reference(extra: &[&str]) -> common::RunResult {
    common::run_reference("agui", extra)
}

#[test]
fn the_reference_agent_passes_every_case_that_applies() {
    let r = reference(&[]);
    assert_eq!(r.code, 0, "{}", r.context());
    for outcome in ["fail", "warn", "blocked", "error"] {
        assert!(r.ids_with(outcome).is_empty(), "{outcome}: {}", r.context());
    }
    // Both sides run: declared kinds complete, the undeclared one is refused, and
    // url and file sources run without flags (the agent knows its own media).
    for id in [
        "agui.string-content-completes",
        "agui.accept.data[image,image/png]",
        "agui.accept.url[audio,audio/wav]",
        "agui.accept.file[document]",
        "agui.undeclared-kind-refused[video]",
        "agui.undeclared-mime-refused[audio,audio/mpeg]",
        "agui.malformed.refused.numeric-content",
        "agui.legacy.binary-part",
    ] {
        assert_eq!(r.outcome(id), "pass", "{id}");
    }
    assert_eq!(r.outcome("agui.accept.data[video,video/mp4]"), "skip");
    // Only agui cases are planned in an agui run.
    assert!(
        r.cases()
            .iter()
            .all(|c| c["id"].as_str().unwrap().starts_with("agui."))
    );
}

#[test]
fn reports_carry_the_declaration_and_every_stream_classification() {
    let r = reference(&[]);
    let report = r.report.as_ref().unwrap();
    assert_eq!(report["run"]["profile"], "agui");
    let declared = &report["run"]["declared"];
    assert_eq!(
        declared["accepts"],
        serde_json::json!(["image/", "audio/wav", "application/pdf"])
    );
    assert_eq!(
        declared["sources"],
        serde_json::json!(["data", "url", "file"])
    );
    assert_eq!(declared["echo"], true);
    assert_eq!(declared["declared_by"], "reference agent");
    assert_eq!(report["discovery"], Value::Null);
    let bucket = |id: &str| {
        r.cases()
            .into_iter()
            .find(|c| c["id"] == id)
            .map(|c| {
                c["stream"]["classification"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap()
    };
    assert_eq!(bucket("agui.accept.data[image,image/png]"), "completed");
    assert_eq!(bucket("agui.malformed.refused.numeric-content"), "rejected");
    assert_eq!(bucket("agui.undeclared-kind-refused[video]"), "run-error");
    for case in r.cases() {
        let ran = case["outcome"] == "pass";
        assert_eq!(ran, case.get("stream").is_some(), "{}", case["id"]);
    }
    let junit = r.junit.as_ref().unwrap();
    for needle in [
        r#"<property name="profile" value="agui"/>"#,
        r#"<property name="agui.accepts" value="image/,audio/wav,application/pdf"/>"#,
        r#"<property name="agui.sources" value="data,url,file"/>"#,
        "stream: run-error",
        "stream: completed: RUN_FINISHED after 6 events",
    ] {
        assert!(
            junit.contains(needle),
            "{needle} missing from JUnit:\n{junit}"
        );
    }
    // The same schema describes agui and openwop reports.
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
}

#[test]
fn the_reference_declaration_is_configurable() {
    let r = reference(&["--reference-accepts", "image/,audio/,video/"]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.outcome("agui.accept.data[video,video/mp4]"), "pass");
    assert_eq!(r.outcome("agui.accept.file[video]"), "pass");
    assert_eq!(r.outcome("agui.undeclared-kind-refused[document]"), "pass");
    assert_eq!(r.outcome("agui.undeclared-kind-refused[video]"), "skip");
    let r = reference(&[
        "--reference-accepts",
        "image/png,audio/mpeg,video/webm,text/plain",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(
        r.outcome("agui.undeclared-mime-refused[image,image/jpeg]"),
        "pass"
    );
    assert_eq!(
        r.outcome("agui.undeclared-mime-refused[document,application/pdf]"),
        "pass"
    );
}

/// `serve-reference --profile agui --port 0`, and the endpoint URL it prints.
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

fn serve(extra: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mmconform"))
        .args(["serve-reference", "--profile", "agui", "--port", "0"])
        .args(extra)
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
fn a_claim_file_plans_a_run_against_a_served_agent() {
    let agent = serve(&[]);
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims.yaml");
    std::fs::write(&claims, "accepts: [image/]\nsources: [data]\necho: true\n").unwrap();
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        &agent.url,
        "--claims",
        claims.to_str().unwrap(),
    ]);
    // The agent accepts more than is claimed here (audio/wav, application/pdf): those
    // kinds are "undeclared" for this run, and the agent completes them, so the
    // undeclared-kind cases fail. The declaration, not the agent, decides what is asked.
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(r.outcome("agui.accept.data[image,image/png]"), "pass");
    assert_eq!(r.outcome("agui.accept.url[image,image/png]"), "skip");
    assert_eq!(r.outcome("agui.undeclared-kind-refused[audio]"), "fail");
    assert_eq!(r.outcome("agui.undeclared-kind-refused[video]"), "pass");
    let declared = &r.report.as_ref().unwrap()["run"]["declared"];
    assert!(
        declared["declared_by"]
            .as_str()
            .unwrap()
            .starts_with("claims ")
    );
    assert_eq!(declared["echo"], true);

    // --accepts with what the agent really takes: a clean run, url sources via a base URL.
    let media = agent.url.replace("/agui", "/media");
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        &agent.url,
        "--accepts",
        "image/,audio/wav,application/pdf",
        "--media-base-url",
        &media,
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    // --accepts declares data sources only.
    assert_eq!(r.outcome("agui.accept.url[image,image/png]"), "skip");
    assert_eq!(r.outcome("agui.undeclared-kind-refused[video]"), "pass");

    // A claim file with url sources, and media the agent can fetch: the url positives run.
    let claims = dir.path().join("claims.json");
    std::fs::write(
        &claims,
        r#"{"accepts": ["image/", "audio/wav", "application/pdf"], "sources": ["data", "url"]}"#,
    )
    .unwrap();
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        &agent.url,
        "--claims",
        claims.to_str().unwrap(),
        "--media-base-url",
        &media,
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.outcome("agui.accept.url[image,image/png]"), "pass");
    assert_eq!(r.outcome("agui.accept.file[image]"), "skip");
}

#[test]
fn an_unreachable_agent_exits_4_and_still_writes_reports() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let target = format!("http://127.0.0.1:{port}/agui");
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        &target,
        "--accepts",
        "image/",
    ]);
    assert_eq!(r.code, 4, "{}", r.context());
    assert!(r.report.is_some() && r.junit.is_some());
    assert!(r.ids_with("pass").is_empty());
    assert!(!r.ids_with("blocked").is_empty());
}

#[test]
fn a_wrong_endpoint_blocks_every_case() {
    let agent = serve(&[]);
    let wrong = agent.url.replace("/agui", "/not-the-agent");
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        &wrong,
        "--accepts",
        "image/",
    ]);
    assert_eq!(r.code, 3, "{}", r.context());
    let blocked = r.ids_with("blocked");
    assert!(
        !blocked.is_empty() && r.ids_with("pass").is_empty(),
        "{}",
        r.context()
    );
    assert!(
        r.stdout
            .contains("answered 404: is --target the agent's run endpoint?"),
        "{}",
        r.stdout
    );
}

#[test]
fn declaration_mistakes_are_usage_errors_before_any_request() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["--profile", "agui", "--target", "http://127.0.0.1:9/agui"],
            "--accepts",
        ),
        (
            &[
                "--profile",
                "agui",
                "--target",
                "http://127.0.0.1:9/a",
                "--accepts",
                "image",
            ],
            "not a MIME prefix",
        ),
        (
            &["--target", "reference", "--accepts", "image/"],
            "--profile agui",
        ),
        (
            &[
                "--profile",
                "agui",
                "--target",
                "reference",
                "--accepts",
                "image/",
            ],
            "--reference-accepts",
        ),
        (&["--profile", "agui", "--offline"], "--offline"),
        (
            &[
                "--profile",
                "acp",
                "--target",
                "reference",
                "--accepts",
                "image/",
            ],
            "--profile acp reads the agent's initialize",
        ),
        (
            &[
                "--profile",
                "agentruntime",
                "--target",
                "reference",
                "--claims",
                "claims.yaml",
            ],
            "--profile agentruntime reads the runtime's describe",
        ),
        (
            &[
                "--profile",
                "agui",
                "--target",
                "reference",
                "--reference-fault",
                "nested-error-body",
            ],
            "unknown AG-UI fault",
        ),
    ];
    for (args, message) in cases {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.context());
        assert!(
            r.stderr.contains(message),
            "{args:?}: expected {message:?} in {}",
            r.stderr
        );
        assert!(r.report.is_none(), "{args:?}: no report on exit 2");
    }
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("claims.yaml");
    std::fs::write(&claims, "accepts: [image/]\nsorces: [data]\n").unwrap();
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        "http://127.0.0.1:9/a",
        "--claims",
        claims.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("claims.yaml:2:"), "{}", r.stderr);
}

#[test]
fn openwop_runs_plan_no_agui_case_and_list_follows_the_profile() {
    let r = run(&["--target", "reference"]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.cases()
            .iter()
            .all(|c| c["id"].as_str().unwrap().starts_with("openwop."))
    );
    assert!(r.report.as_ref().unwrap()["run"].get("declared").is_none());

    let out = bin()
        .args([
            "list",
            "--profile",
            "agui",
            "--accepts",
            "image/",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cases = listing["cases"].as_array().unwrap();
    assert!(
        cases
            .iter()
            .all(|c| c["id"].as_str().unwrap().starts_with("agui."))
    );
    let disposition = |id: &str| {
        cases
            .iter()
            .find(|c| c["id"] == id)
            .map(|c| c["disposition"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(disposition("agui.accept.data[image,image/png]"), "will-run");
    assert_eq!(
        disposition("agui.undeclared-kind-refused[audio]"),
        "will-run"
    );
    assert_eq!(disposition("agui.accept.data[audio,audio/wav]"), "skip");
}

#[test]
fn serve_reference_lists_the_agent_faults() {
    let out = bin()
        .args(["serve-reference", "--profile", "agui", "--list-faults"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() >= 17, "{text}");
    assert!(
        text.contains("drops-unknown-part") && text.contains("no-terminal-event"),
        "{text}"
    );
    assert!(
        !text.contains("nested-error-body"),
        "openwop faults are not the agent's"
    );
}

#[test]
fn lint_names_profile_mistakes_with_file_line_col() {
    let expected = [
        (
            "openwop-endpoint.yaml",
            ":8:17",
            "an agui case sends to `agui-run`, not `ai-call`",
        ),
        (
            "stream-in-openwop.yaml",
            ":12:7",
            "`expect.stream` judges the answer's bucket and its event stream (profile: agui",
        ),
        (
            "media-ref-in-agui.yaml",
            ":13:25",
            "an AG-UI part has no `mediaRef`",
        ),
        (
            "unknown-bucket.yaml",
            ":10:41",
            "is not one of \"rejected\"",
        ),
        ("unknown-fact.yaml", ":8:39", "`agui` has no `modalities`"),
    ];
    for (file, location, message) in expected {
        let path = common::fixture("agui").join(file);
        let out = bin().arg("lint").arg(&path).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {stderr}");
        assert!(
            stderr.contains(&format!("{file}{location}")),
            "{file}: {stderr}"
        );
        assert!(
            stderr.contains(message),
            "{file}: expected {message:?} in {stderr}"
        );
    }
}

#[test]
fn a_steward_adds_an_agui_case_without_touching_rust() {
    let steward = common::fixture("agui/steward.yaml");
    let r = reference(&[
        "--scenarios",
        steward.to_str().unwrap(),
        "--filter",
        "steward.*",
    ]);
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(r.outcome("steward.agui.two-images[image/png]"), "pass");
    // The same case catches an agent that cuts media short.
    let r = reference(&[
        "--scenarios",
        steward.to_str().unwrap(),
        "--filter",
        "steward.*",
        "--reference-fault",
        "truncates-media",
    ]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(r.outcome("steward.agui.two-images[image/jpeg]"), "fail");
}

#[test]
fn a_schema_that_cannot_be_compiled_blocks_the_case_with_its_reason() {
    let scenario = common::fixture("agui/schema-judged.yaml");
    let schemas = tempfile::tempdir().unwrap();
    let replacement = schemas.path().join("error-envelope.schema.json");
    let run = || {
        reference(&[
            "--scenarios",
            scenario.to_str().unwrap(),
            "--filter",
            "steward.*",
            "--schemas",
            schemas.path().to_str().unwrap(),
        ])
    };
    let id = "steward.agui.refusal-schema";
    // A replacement that compiles is judged: the agent's refusal body has `detail`.
    std::fs::write(
        &replacement,
        r#"{"type": "object", "required": ["detail"]}"#,
    )
    .unwrap();
    let judged = run();
    assert_eq!(judged.code, 0, "{}", judged.context());
    assert_eq!(judged.outcome(id), "pass");
    // One that does not compile cannot judge the answer: blocked, as on every profile.
    std::fs::write(&replacement, r#"{"type": 12}"#).unwrap();
    let unjudged = run();
    assert_eq!(unjudged.code, 3, "{}", unjudged.context());
    let case = unjudged
        .cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .unwrap();
    assert_eq!(case["outcome"], "blocked", "{case}");
    let reason = case["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("cannot judge the answer: ") && reason.contains("does not compile"),
        "{reason}"
    );
    // What did run is still there: the stream was judged and passed.
    assert!(
        case["assertions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["check"].as_str().unwrap().starts_with("stream") && a["passed"] == true),
        "{case}"
    );
}
