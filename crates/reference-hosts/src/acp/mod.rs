//! The reference ACP agent, reached the way mmconform reaches every ACP agent: a
//! process speaking JSON-RPC 2.0 as newline-delimited JSON on stdin/stdout
//! (`serve-reference --profile acp`). It advertises `promptCapabilities` (all three by
//! default, fewer with `--accepts`), opens sessions, and turns each `session/prompt`
//! into one model call to an OpenAI-compatible upstream (the witness, from
//! `MMCONFORM_WITNESS_URL`, or the base URL its "gateway" authentication method was
//! given) with the text and the media in one user turn. A session opened with
//! `mcpServers` runs its turns through the tool loop (`crate::tool_loop`): the servers
//! started, their tools declared to the model and called while it asks. It reads the
//! blocks with the protocol's own types; each [`AcpFault`] breaks one rule. The process
//! side (stdin lines in, stdout lines out, exit) is the caller's.

mod fault;
mod prompt;

pub use fault::{AcpFault, UnknownAcpFault};

use crate::upstream::Upstream;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, mpsc};

/// How long a turn "thinks" after its first update before calling its model: the
/// window in which `session/cancel` finds it under way. A client cancels when it reads
/// that update: a few milliseconds later on a quiet machine, tens on a loaded one (at
/// 50 ms, 1 of 20 concurrent cancellations at a load average of 25 came too late).
/// Every other turn pays the window, and turns run one at a time, so it is no longer
/// than that needs (it was 200 ms: a reference run took 5.6 s, at 100 ms 2.7 s).
pub const THINK: Duration = Duration::from_millis(100);

/// The authentication method whose `_meta.gateway.baseUrl` names the model's base URL
/// (as Gemini CLI's "gateway" does); the agent needs no authentication otherwise.
pub const GATEWAY_METHOD: &str = "gateway";

/// One reference agent.
#[derive(Debug, Clone)]
pub struct AcpConfig {
    pub image: bool,
    pub audio: bool,
    pub embedded_context: bool,
    pub fault: Option<AcpFault>,
    /// The model's OpenAI-compatible base URL; `None`: turns end without a model.
    pub model: Option<url::Url>,
}

impl AcpConfig {
    /// Advertising what `accepts` names (`image`, `audio`, `embeddedContext`), or all.
    pub fn new(fault: Option<AcpFault>, model: Option<url::Url>, accepts: &[String]) -> AcpConfig {
        let all = accepts.is_empty();
        let has = |name: &str| all || accepts.iter().any(|a| a == name);
        AcpConfig {
            image: has("image"),
            audio: has("audio"),
            embedded_context: has("embeddedContext"),
            fault,
            model,
        }
    }

    /// `authenticate`: the gateway method takes the model's base URL from
    /// `_meta.gateway.baseUrl` (kept for the turns after it); any other is unknown.
    fn authenticate(&mut self, params: &Value) -> Result<Value, (i32, String)> {
        let method = params.get("methodId").and_then(Value::as_str);
        if method != Some(GATEWAY_METHOD) {
            return Err((-32602, format!("unknown authentication method {method:?}")));
        }
        if let Some(raw) = params
            .pointer("/_meta/gateway/baseUrl")
            .and_then(Value::as_str)
        {
            let url = url::Url::parse(raw)
                .map_err(|e| (-32602, format!("_meta.gateway.baseUrl `{raw}`: {e}")))?;
            self.model = Some(url);
        }
        Ok(json!({}))
    }

    fn faulted(&self, fault: AcpFault) -> bool {
        self.fault == Some(fault)
    }

    fn initialize(&self) -> Value {
        if self.faulted(AcpFault::MalformedInitialize) {
            return json!({"protocolVersion": "1", "agentCapabilities": {"promptCapabilities":
                {"image": "yes", "audio": self.audio, "embeddedContext": self.embedded_context}}, "authMethods": []});
        }
        json!({
            "protocolVersion": 1,
            "agentCapabilities": {
                "loadSession": false,
                "promptCapabilities": {"image": self.image, "audio": self.audio, "embeddedContext": self.embedded_context}
            },
            "authMethods": [{
                "id": GATEWAY_METHOD,
                "name": "AI API Gateway",
                "description": "The model's OpenAI-compatible base URL, given in _meta.gateway.baseUrl",
                "_meta": {"gateway": {"protocol": "openai", "restartRequired": "false"}}
            }],
            "agentInfo": {"name": "mmconform-reference-acp", "version": env!("CARGO_PKG_VERSION")}
        })
    }
}

/// Where the agent's output lines go (stdout, in the process).
pub type Print = Arc<dyn Fn(String) + Send + Sync>;

/// Serves requests arriving as `lines` until stdin closes; returns the exit code.
pub async fn serve(mut config: AcpConfig, mut lines: mpsc::Receiver<String>, print: Print) -> i32 {
    let cancels: Arc<Mutex<HashMap<String, Arc<Notify>>>> = Arc::default();
    let (crash_tx, mut crash_rx) = mpsc::channel::<String>(1);
    let mut sessions = 0u64;
    // Each session's `mcpServers`, started afresh for each of its turns.
    let mut servers: HashMap<String, Value> = HashMap::new();
    loop {
        let line = tokio::select! {
            line = lines.recv() => match line { Some(line) => line, None => return 0 },
            why = crash_rx.recv() => {
                eprintln!("reference ACP agent: crashing: {}", why.unwrap_or_default());
                return 1;
            }
        };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            print(json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "parse error"}}).to_string());
            continue;
        };
        let id = message.get("id").cloned();
        let method = message.get("method").and_then(Value::as_str).unwrap_or("");
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        let reply = |result: Result<Value, (i32, String)>| {
            let Some(id) = id.clone() else { return };
            let frame = match result {
                Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
                Err((code, message)) => {
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
                }
            };
            print(frame.to_string());
        };
        match method {
            "initialize" => reply(Ok(config.initialize())),
            "authenticate" => reply(config.authenticate(&params)),
            "session/new" => {
                sessions += 1;
                let id = format!("ref-{sessions}");
                let given = params.get("mcpServers").cloned().unwrap_or(Value::Null);
                servers.insert(id.clone(), given);
                reply(Ok(json!({"sessionId": id})));
            }
            "session/cancel" => {
                let session = params
                    .get("sessionId")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                if let Some(notify) = cancels
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(session)
                {
                    notify.notify_one();
                }
            }
            "session/prompt" => {
                let Some(id) = id.clone() else { continue };
                let session = params
                    .get("sessionId")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let cancel = Arc::new(Notify::new());
                cancels
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(session.clone(), cancel.clone());
                let turn = Turn {
                    servers: servers.get(&session).cloned().unwrap_or(Value::Null),
                    config: config.clone(),
                    print: print.clone(),
                    crash: crash_tx.clone(),
                    id,
                    session,
                    cancel,
                };
                tokio::spawn(turn.run(params.get("prompt").cloned().unwrap_or(Value::Null)));
            }
            _ if id.is_some() => reply(Err((-32601, format!("{method}: method not found")))),
            _ => {}
        }
    }
}

/// One prompt turn, run beside the reading loop so `session/cancel` reaches it.
struct Turn {
    config: AcpConfig,
    /// The session's `mcpServers`.
    servers: Value,
    print: Print,
    crash: mpsc::Sender<String>,
    id: Value,
    session: String,
    cancel: Arc<Notify>,
}

impl Turn {
    async fn run(self, blocks: Value) {
        let config = &self.config;
        if config.faulted(AcpFault::NeverAnswersPrompt) {
            return;
        }
        if config.faulted(AcpFault::MalformedFrame) {
            (self.print)("{\"jsonrpc\": \"2.0\", \"id\": ".to_string());
            return;
        }
        let parts = match prompt::read(config, &blocks) {
            prompt::Read::Parts(parts) => parts,
            prompt::Read::Refused(why) => return self.answer(Err((-32602, why))),
            prompt::Read::Crash(why) => {
                let _ = self.crash.send(why).await;
                return;
            }
        };
        self.update("reading the prompt");
        let work = async {
            tokio::time::sleep(THINK).await;
            let Some(model) = &config.model else {
                return "reference ACP agent: no model configured (MMCONFORM_WITNESS_URL is unset)"
                    .to_string();
            };
            let upstream = Upstream::new(model);
            if crate::tool_loop::Tools::given(&self.servers) {
                return self.with_tools(&upstream, parts).await;
            }
            match upstream.complete(&prompt::turn(parts), None).await {
                Ok(reply) => reply.text,
                Err(e) => format!("the model failed: {}", e.0),
            }
        };
        let cancelled = async {
            self.cancel.notified().await;
            if config.faulted(AcpFault::IgnoresCancel) {
                std::future::pending::<()>().await;
            }
        };
        let stop = tokio::select! {
            text = work => {
                self.update(&text);
                "end_turn"
            }
            _ = cancelled => "cancelled",
        };
        self.answer(Ok(json!({"stopReason": stop})));
    }

    /// The turn through the tool loop, with the session's MCP servers.
    async fn with_tools(&self, upstream: &Upstream, parts: Vec<prompt::WirePart>) -> String {
        let tools = crate::tool_loop::Tools::start(&self.servers).await;
        let messages = match crate::openai_wire::messages(&prompt::turn(parts), None) {
            Value::Array(messages) => messages,
            _ => Vec::new(),
        };
        let fault = self.config.fault.and_then(AcpFault::tool_fault);
        let text = match crate::tool_loop::converse(upstream, messages, &tools, fault).await {
            Ok(text) => text,
            Err(why) => format!("the model failed: {why}"),
        };
        let failures = tools.failures.join("; ");
        tools.close().await;
        if failures.is_empty() {
            text
        } else {
            format!("{text} (MCP servers not started: {failures})")
        }
    }

    fn update(&self, text: &str) {
        let update = json!({"jsonrpc": "2.0", "method": "session/update", "params": {
            "sessionId": self.session,
            "update": {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
        }});
        (self.print)(update.to_string());
    }

    fn answer(&self, result: Result<Value, (i32, String)>) {
        let frame = match result {
            Ok(result) => json!({"jsonrpc": "2.0", "id": self.id, "result": result}),
            Err((code, message)) => {
                json!({"jsonrpc": "2.0", "id": self.id, "error": {"code": code, "message": message}})
            }
        };
        (self.print)(frame.to_string());
    }
}

#[cfg(test)]
mod tests;
