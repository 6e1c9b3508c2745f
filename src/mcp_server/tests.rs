use super::*;
use crate::tool_media::log::ServerLog;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

/// A server on in-memory pipes, and a client's ends of them.
struct Session {
    input: tokio::io::DuplexStream,
    output: tokio::io::Lines<BufReader<tokio::io::DuplexStream>>,
    dir: tempfile::TempDir,
}

impl Session {
    fn start() -> Session {
        let dir = tempfile::tempdir().unwrap();
        let handler = ToolMedia::new(Options {
            log: Some(dir.path().join("log.jsonl")),
            files: dir.path().to_path_buf(),
        });
        let (client_in, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, client_out) = tokio::io::duplex(8 << 20);
        tokio::spawn(stdio::serve_on(handler, server_in, server_out));
        Session {
            input: client_in,
            output: BufReader::new(client_out).lines(),
            dir,
        }
    }

    async fn send(&mut self, message: Value) {
        let line = format!("{message}\n");
        self.input.write_all(line.as_bytes()).await.unwrap();
    }

    async fn answer(&mut self) -> Value {
        let line =
            tokio::time::timeout(std::time::Duration::from_secs(10), self.output.next_line())
                .await
                .expect("an answer in time")
                .unwrap()
                .expect("a line");
        serde_json::from_str(&line).unwrap()
    }

    async fn ask(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.answer().await
    }

    async fn initialize(&mut self, version: &str) -> Value {
        let params = json!({"protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}});
        let answer = self.ask(1, "initialize", params).await;
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        answer
    }

    fn log(&self) -> ServerLog {
        ServerLog::read(&self.dir.path().join("log.jsonl"))
    }
}

#[tokio::test]
async fn what_clients_send_before_initialize_is_answered_and_the_version_echoed() {
    let mut s = Session::start();
    let discover = s.ask(7, "server/discover", json!({})).await;
    assert_eq!(discover["id"], 7);
    assert_eq!(discover["error"]["code"], -32601);
    s.send(json!("not a message")).await;
    let junk = s.answer().await;
    assert_eq!(junk["error"]["code"], -32600, "{junk}");
    for version in ["2025-06-18", "2025-11-25"] {
        let mut s = Session::start();
        let init = s.initialize(version).await;
        assert_eq!(init["result"]["protocolVersion"], version, "{init}");
        assert!(init["result"]["capabilities"]["tools"].is_object());
    }
}

#[tokio::test]
async fn the_one_tool_is_listed_without_output_schema_and_lists_are_empty() {
    let mut s = Session::start();
    s.initialize("2025-06-18").await;
    let tools = s.ask(2, "tools/list", json!({})).await;
    let list = tools["result"]["tools"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["name"], TOOL_NAME);
    assert!(list[0].get("outputSchema").is_none());
    assert_eq!(
        s.ask(3, "resources/list", json!({})).await["result"]["resources"],
        json!([])
    );
    assert_eq!(
        s.ask(4, "prompts/list", json!({})).await["result"]["prompts"],
        json!([])
    );
}

#[tokio::test]
async fn a_call_returns_the_stamped_medium_and_is_logged() {
    let mut s = Session::start();
    s.initialize("2025-06-18").await;
    let call = |id: u64, medium: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": TOOL_NAME, "arguments": {"case": "ab12-c3", "medium": medium}}})
    };
    s.send(call(2, "png")).await;
    let png = s.answer().await;
    let content = png["result"]["content"].as_array().unwrap();
    assert_eq!(content[0]["type"], "text");
    assert_eq!(content[0]["text"], crate::tool_media::label("ab12-c3"));
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["mimeType"], "image/png");
    let bytes = STANDARD
        .decode(content[1]["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(mmconform_media::find_stamps(&bytes), ["ab12-c3m"]);
    assert!(png["result"].get("structuredContent").is_none());
    s.send(call(3, "image-structured")).await;
    let structured = s.answer().await;
    assert_eq!(
        structured["result"]["structuredContent"]["case"],
        "ab12-c3-t"
    );
    s.send(call(4, "resource-link")).await;
    let link = s.answer().await;
    let uri = link["result"]["content"][1]["uri"].as_str().unwrap();
    let path = uri.strip_prefix("file://").unwrap();
    assert_eq!(
        mmconform_media::find_stamps(&std::fs::read(path).unwrap()),
        ["ab12-c3m"]
    );
    s.send(call(5, "blob-of-nothing")).await;
    assert_eq!(s.answer().await["result"]["isError"], true);
    let log = s.log();
    assert!(log.initialized());
    assert_eq!(log.calls_for("ab12-c3").count(), 4);
    assert!(
        log.summary()
            .starts_with("initialize, notifications/initialized, tools/call (png)"),
        "{}",
        log.summary()
    );
}
