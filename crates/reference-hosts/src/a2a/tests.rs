//! The reference agent over loopback: its card, both bindings in both versions, tasks
//! that finish later, streams, refusals and the version header.

use super::*;
use serde_json::{Value, json};

async fn start(config: AgentConfig) -> RunningReference {
    spawn(config, "127.0.0.1:0".parse().unwrap()).await.unwrap()
}

fn message(version: Version, parts: Value) -> Value {
    json!({"message": {"role": version.user_role(), "messageId": "m-1", "parts": parts}})
}

async fn rpc(base: &str, version: Option<&str>, method: &str, params: Value) -> (u16, String) {
    let mut request = crate::test_support::client()
        .post(format!("{base}{JSONRPC_PATH}"))
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
    if let Some(v) = version {
        request = request.header("A2A-Version", v);
    }
    let r = request.send().await.unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

fn png() -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(mmconform_media::generate("image/png", "n"))
}

#[tokio::test]
async fn the_card_lists_both_bindings_and_a_send_completes_a_task() {
    let running = start(AgentConfig::default()).await;
    let base = running.base_url();
    let card: Value = crate::test_support::client()
        .get(format!("{base}{CARD_PATH}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        card["supportedInterfaces"][0]["url"],
        format!("{base}{JSONRPC_PATH}")
    );
    let parts = json!([{"text": "look"}, {"raw": png(), "mediaType": "image/png"}]);
    let (status, body) = rpc(
        &base,
        Some("1.0"),
        "SendMessage",
        message(Version::V1, parts),
    )
    .await;
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        answer["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED",
        "{body}"
    );
    let id = answer["result"]["task"]["id"].as_str().unwrap();
    let (_, got) = rpc(&base, Some("1.0"), "GetTask", json!({"id": id})).await;
    assert!(got.contains("TASK_STATE_COMPLETED"), "{got}");
    running.shutdown().await;
}

#[tokio::test]
async fn refusals_and_versions_are_spelled_per_binding() {
    let running = start(AgentConfig::default()).await;
    let base = running.base_url();
    let mp3 =
        json!([{"text": "x"}, {"url": "https://example.com/a.mp3", "mediaType": "audio/mpeg"}]);
    let (_, body) = rpc(
        &base,
        Some("1.0"),
        "SendMessage",
        message(Version::V1, mp3.clone()),
    )
    .await;
    assert!(
        body.contains("-32005") && body.contains("CONTENT_TYPE_NOT_SUPPORTED"),
        "{body}"
    );
    let (_, body) = rpc(
        &base,
        Some("99.0"),
        "SendMessage",
        message(Version::V1, mp3.clone()),
    )
    .await;
    assert!(body.contains("-32009"), "{body}");
    let (_, body) = rpc(
        &base,
        None,
        "message/send",
        message(Version::V03, mp3.clone()),
    )
    .await;
    assert!(
        body.contains("-32009"),
        "a 1.0-only agent refuses 0.3: {body}"
    );
    let r = crate::test_support::client()
        .post(format!("{base}{REST_PATH}/message:send"))
        .header("A2A-Version", "1.0")
        .json(&message(Version::V1, mp3))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body["error"]["details"][0]["reason"],
        "CONTENT_TYPE_NOT_SUPPORTED"
    );
    running.shutdown().await;
}

#[tokio::test]
async fn a_0_3_agent_streams_and_finishes_tasks_later() {
    let config = AgentConfig::default().with_interfaces(vec![
        (Binding::JsonRpc, Version::V03),
        (Binding::HttpJson, Version::V03),
    ]);
    let running = start(config).await;
    let base = running.base_url();
    let parts = json!([{"kind": "text", "text": "hi"}]);
    let mut params = message(Version::V03, parts.clone());
    params["configuration"] = json!({"blocking": false});
    let (_, body) = rpc(&base, None, "message/send", params).await;
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["result"]["status"]["state"], "working", "{body}");
    let id = answer["result"]["id"].as_str().unwrap().to_string();
    tokio::time::sleep(LATER * 3).await;
    let got = crate::test_support::client()
        .get(format!("{base}{REST_PATH}/v1/tasks/{id}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(got.contains("\"completed\""), "{got}");
    let (_, stream) = rpc(&base, None, "message/stream", message(Version::V03, parts)).await;
    assert!(stream.starts_with("data: "), "{stream}");
    assert!(stream.contains("\"final\":true"), "{stream}");
    running.shutdown().await;
}

#[tokio::test]
async fn without_the_capability_a_stream_is_an_unsupported_operation() {
    let running = start(AgentConfig::default().with_streaming(false)).await;
    let (_, body) = rpc(
        &running.base_url(),
        Some("1.0"),
        "SendStreamingMessage",
        message(Version::V1, json!([{"text": "hi"}])),
    )
    .await;
    assert!(body.contains("-32004"), "{body}");
    running.shutdown().await;
}

#[tokio::test]
async fn a_configured_token_guards_operations_not_the_card() {
    let running = start(AgentConfig::default().with_token(Some("t0k".into()))).await;
    let base = running.base_url();
    assert_eq!(
        crate::test_support::client()
            .get(format!("{base}{CARD_PATH}"))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16(),
        200
    );
    let (status, body) = rpc(&base, Some("1.0"), "GetTask", json!({"id": "x"})).await;
    assert_eq!(status, 401);
    assert!(!body.contains("t0k"));
    running.shutdown().await;
}
