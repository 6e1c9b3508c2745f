use super::*;

/// Runs `requests` through an agent and returns its output lines once it ended.
async fn exchange(config: AcpConfig, requests: &[Value]) -> (Vec<Value>, i32) {
    let (tx, rx) = mpsc::channel(16);
    let out = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = out.clone();
    let print: Print = Arc::new(move |line| sink.lock().unwrap().push(line));
    let agent = tokio::spawn(serve(config, rx, print));
    for r in requests {
        tx.send(r.to_string()).await.unwrap();
    }
    // Room for every turn to end (THINK and the agent's own work), with a margin for load.
    tokio::time::sleep(THINK * 3 + Duration::from_millis(450)).await;
    drop(tx);
    let code = agent.await.unwrap();
    let lines = out
        .lock()
        .unwrap()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or(json!(l)))
        .collect();
    (lines, code)
}

fn prompt(id: u64, blocks: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "session/prompt", "params": {"sessionId": "ref-1", "prompt": blocks}})
}

fn response(lines: &[Value], id: u64) -> &Value {
    lines
        .iter()
        .find(|l| l["id"] == id && l.get("method").is_none())
        .expect("a response")
}

#[tokio::test]
async fn it_advertises_refuses_what_it_does_not_and_ends_turns() {
    let narrow = AcpConfig::new(None, None, &["image".to_string()]);
    let (lines, code) = exchange(narrow, &[
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "session/new", "params": {"cwd": "/tmp", "mcpServers": []}}),
        prompt(3, json!([{"type": "text", "text": "hi"}])),
        prompt(4, json!([{"type": "audio", "mimeType": "audio/wav", "data": "AAAA"}])),
        prompt(5, json!([{"type": "video", "mimeType": "video/mp4", "data": "AAAA"}])),
        prompt(6, json!([{"type": "image", "data": "AAAA"}])),
    ]).await;
    assert_eq!(code, 0);
    let caps = &response(&lines, 1)["result"]["agentCapabilities"]["promptCapabilities"];
    assert_eq!(
        caps,
        &json!({"image": true, "audio": false, "embeddedContext": false})
    );
    assert_eq!(response(&lines, 2)["result"]["sessionId"], "ref-1");
    assert_eq!(response(&lines, 3)["result"]["stopReason"], "end_turn");
    for id in [4, 5, 6] {
        assert_eq!(response(&lines, id)["error"]["code"], -32602, "{id}");
    }
}

#[tokio::test]
async fn a_fault_breaks_its_rule() {
    let crashing = AcpConfig::new(Some(AcpFault::CrashesOnBadBase64), None, &[]);
    let (_, code) = exchange(
        crashing,
        &[prompt(
            1,
            json!([{"type": "image", "mimeType": "image/png", "data": "%%"}]),
        )],
    )
    .await;
    assert_eq!(code, 1);
    let lenient = AcpConfig::new(Some(AcpFault::IgnoresUnknownBlocks), None, &[]);
    let (lines, _) = exchange(
        lenient,
        &[prompt(
            1,
            json!([{"type": "text", "text": "x"}, {"type": "video", "data": "AAAA"}]),
        )],
    )
    .await;
    assert_eq!(response(&lines, 1)["result"]["stopReason"], "end_turn");
}

#[tokio::test]
async fn the_gateway_method_takes_a_base_url_and_other_methods_are_unknown() {
    let mut config = AcpConfig::new(None, None, &[]);
    let listed = &config.initialize()["authMethods"][0];
    assert_eq!(listed["id"], GATEWAY_METHOD);
    assert!(listed["_meta"]["gateway"].is_object());
    let given =
        json!({"methodId": "gateway", "_meta": {"gateway": {"baseUrl": "http://127.0.0.1:9/"}}});
    assert_eq!(config.authenticate(&given), Ok(json!({})));
    assert_eq!(
        config.model.as_ref().map(|u| u.as_str()),
        Some("http://127.0.0.1:9/")
    );
    assert!(
        config
            .authenticate(&json!({"methodId": "api-key"}))
            .is_err()
    );
    let bad = json!({"methodId": "gateway", "_meta": {"gateway": {"baseUrl": "not a url"}}});
    assert!(config.authenticate(&bad).is_err());
}
