//! The A2A profile end to end: the built binary against the embedded reference agent
//! (its card read, every interface it declares planned), the witness, the usage errors,
//! and agents on loopback whose cards mmconform cannot follow.

use crate::common::{self, run};
use axum::Router;
use axum::routing::{get, post};
use serde_json::{Value, json};

fn reference(extra: &[&str]) -> common::RunResult {
    common::run_reference("a2a", extra)
}

#[test]
fn the_reference_agent_passes_every_case_that_applies_on_each_interface() {
    let r = reference(&[]);
    r.assert_clean("a2a.");
    for id in [
        "a2a.card.valid-1.0",
        "a2a.send.text",
        "a2a.send.text@http-json",
        "a2a.send.text@v0.3",
        "a2a.task.followed",
        "a2a.task.followed-0.3@v0.3",
        "a2a.stream.text@http-json",
        "a2a.accept.raw[image/png]",
        "a2a.accept.url@v0.3[application/pdf]",
        "a2a.refuse.unadvertised[audio/mpeg]",
        "a2a.version.unsupported@http-json",
        "a2a.version.unsupported",
        "a2a.malformed.refused.other-spelling@v0.3",
    ] {
        assert_eq!(r.outcome(id), "pass", "{id}: {}", r.context());
    }
    // The card cases run once, not per interface; a case written for one version is
    // not copied to the other's interface (0.3 has no version header).
    assert!(r.outcome_of("a2a.card.served@v0.3").is_none());
    assert!(r.outcome_of("a2a.version.unsupported@v0.3").is_none());
    assert_eq!(r.outcome("a2a.task.followed-0.3"), "excluded");
    assert_eq!(r.outcome("a2a.stream.unsupported"), "skip");
    let report = r.report.as_ref().unwrap();
    let discovery = &report["discovery"];
    assert!(
        discovery["url"]
            .as_str()
            .unwrap()
            .ends_with("/.well-known/agent-card.json"),
        "{discovery}"
    );
    assert_eq!(discovery["facts"]["a2a"]["binding"], "JSONRPC");
}

#[test]
fn with_a_witness_every_part_reaches_the_model() {
    let r = reference(&["--witness", "127.0.0.1:0"]);
    r.assert_clean("a2a.");
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "a2a.accept.raw@v0.3[audio/wav]")
        .unwrap();
    assert!(
        !case["model_calls"].as_array().unwrap().is_empty(),
        "{case}"
    );
}

#[test]
fn accepts_overrides_the_card_and_says_so_and_claims_are_refused() {
    let r = reference(&[
        "--accepts",
        "image/png",
        "--filter",
        "a2a.refuse.unadvertised*",
    ]);
    // The agent takes more than --accepts says: the refusals it does not make warn.
    assert_eq!(
        r.outcome("a2a.refuse.unadvertised[audio/wav]"),
        "warn",
        "{}",
        r.context()
    );
    let notes = &r.report.as_ref().unwrap()["discovery"]["notes"];
    assert!(
        notes.to_string().contains("--accepts overrides the card"),
        "{notes}"
    );
    let dir = tempfile::tempdir().unwrap();
    let claims = dir.path().join("c.yaml");
    std::fs::write(&claims, "accepts: [image/]\n").unwrap();
    let refused = reference(&["--claims", claims.to_str().unwrap()]);
    assert_eq!(refused.code, 2, "{}", refused.context());
    assert!(refused.stderr.contains("agent card"), "{}", refused.stderr);
}

/// Serves `card` at /.well-known/agent-card.json and answers every POST with 404,
/// on 127.0.0.1 from a background runtime; the base URL.
fn agent_with_card(card: Value) -> String {
    agent_answering(card, axum::http::StatusCode::NOT_FOUND)
}

/// Serves `card` at /.well-known/agent-card.json and answers every POST with `status`
/// (and a bearer challenge), on 127.0.0.1 from a background runtime; the base URL.
fn agent_answering(card: Value, status: axum::http::StatusCode) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let app = Router::new()
                .route(
                    "/.well-known/agent-card.json",
                    get(move || async move { axum::Json(card) }),
                )
                .route(
                    "/{*rest}",
                    post(move || async move { (status, [("www-authenticate", "Bearer")]) }),
                );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(format!("http://{}", listener.local_addr().unwrap()))
                .unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn card(interfaces: Value) -> Value {
    json!({
        "name": "n", "description": "d", "version": "1", "capabilities": {},
        "supportedInterfaces": interfaces,
        "defaultInputModes": ["text/plain", "image/png"], "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "s", "description": "s", "tags": ["t"]}]
    })
}

#[test]
fn a_card_with_only_grpc_blocks_every_message_case_and_never_passes_one() {
    let base = agent_with_card(card(json!([
        {"url": "http://127.0.0.1:1/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
    ])));
    let r = run(&["--profile", "a2a", "--target", &base]);
    assert_eq!(r.outcome("a2a.card.valid-1.0"), "pass", "{}", r.context());
    let sent: Vec<Value> = r
        .cases()
        .into_iter()
        .filter(|c| !c["id"].as_str().unwrap().starts_with("a2a.card."))
        .filter(|c| c["outcome"] != "skip")
        .collect();
    assert!(!sent.is_empty());
    for case in &sent {
        assert_eq!(case["outcome"], "blocked", "{case}");
        assert!(
            case["reason"]
                .as_str()
                .unwrap()
                .contains("gRPC is not judged"),
            "{case}"
        );
    }
}

#[test]
fn an_interface_that_is_not_there_blocks_its_cases() {
    let base = agent_with_card(card(json!([
        {"url": "http://127.0.0.1:1/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ])));
    let r = run(&[
        "--profile",
        "a2a",
        "--target",
        &base,
        "--filter",
        "a2a.send.text",
    ]);
    assert_eq!(r.outcome("a2a.send.text"), "blocked", "{}", r.context());
    let report = r.report.as_ref().unwrap();
    let case = r
        .cases()
        .into_iter()
        .find(|c| c["id"] == "a2a.send.text")
        .unwrap();
    let reason = case["reason"].as_str().unwrap().to_string();
    assert!(
        reason.contains("answered 404") && reason.contains("/a2a"),
        "{reason}"
    );
    // The card named another origin: mmconform sent to the target's, and said so.
    let notes = report["discovery"]["notes"].to_string();
    assert!(notes.contains("never to another host"), "{notes}");
}

#[test]
fn a_target_that_is_the_card_url_is_refused_naming_the_base() {
    let r = run(&[
        "--profile",
        "a2a",
        "--target",
        "http://127.0.0.1:9/.well-known/agent-card.json",
    ]);
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("http://127.0.0.1:9"), "{}", r.stderr);
}

#[test]
fn a_401_blocks_the_cases_and_names_the_variable_never_the_token() {
    let mut card = card(json!([
        {"url": "http://127.0.0.1:1/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ]));
    card["securitySchemes"] = json!({"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}});
    let base = agent_answering(card, axum::http::StatusCode::UNAUTHORIZED);
    let canary = "a2a-mmconform-canary-77d0";
    let r = common::run_with_env(
        &[
            "--profile",
            "a2a",
            "--target",
            &base,
            "--filter",
            "a2a.send.* or a2a.accept.raw",
        ],
        &[("A2A_TOKEN", canary)],
    );
    let sent: Vec<Value> = r
        .cases()
        .into_iter()
        .filter(|c| c["outcome"] != "skip" && c["outcome"] != "excluded")
        .collect();
    assert!(!sent.is_empty(), "{}", r.context());
    for case in &sent {
        assert_eq!(case["outcome"], "blocked", "{case}");
        assert!(
            case["reason"]
                .as_str()
                .unwrap()
                .starts_with("authentication refused"),
            "{case}"
        );
    }
    assert_eq!(r.code, 3, "{}", r.context());
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(said.contains("A2A_TOKEN"), "{said}");
    assert!(!said.contains(canary), "{said}");
    assert!(!r.report.as_ref().unwrap().to_string().contains(canary));
}
