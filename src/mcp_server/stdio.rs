//! The stdio form: newline-delimited JSON-RPC on stdin and stdout, as an agent starts
//! it. A front line of its own reads each line before the SDK does: it logs it, answers
//! what real clients send before `initialize` (`server/discover` and any other request
//! but `ping`) with -32601 as a server of the 2025 revisions would, and answers a line
//! the SDK cannot read (not JSON, not a message) itself, so that nothing a client sends
//! ends the server.

use super::ToolMedia;
use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::sync::mpsc;

/// The longest line read; a longer one is answered as unreadable and skipped.
const MAX_LINE: usize = 4 * 1024 * 1024;

/// Serves on stdin/stdout until stdin closes. `Err`: the SDK could not start serving.
pub async fn serve(handler: ToolMedia) -> Result<(), String> {
    serve_on(handler, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves on `input` and `output` until `input` closes (or the session ends).
pub async fn serve_on(
    handler: ToolMedia,
    input: impl tokio::io::AsyncRead + Unpin + Send + 'static,
    output: impl tokio::io::AsyncWrite + Unpin + Send + 'static,
) -> Result<(), String> {
    let (out_tx, out_rx) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(write_lines(output, out_rx));
    let (in_tx, in_rx) = mpsc::channel::<RxJsonRpcMessage<RoleServer>>(16);
    let reader = tokio::spawn(read_lines(input, handler.clone(), in_tx, out_tx.clone()));
    let transport = Lines {
        incoming: in_rx,
        out: out_tx,
        handler: handler.clone(),
    };
    let result = match rmcp::serve_server(handler, transport).await {
        Ok(running) => {
            let _ = running.waiting().await;
            Ok(())
        }
        Err(e) => Err(format!("the MCP session could not start: {e}")),
    };
    // The session is over (stdin closed, or the SDK ended it): stop reading.
    reader.abort();
    let _ = writer.await;
    result
}

/// The SDK's side of the front line.
struct Lines {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    out: mpsc::UnboundedSender<String>,
    handler: ToolMedia,
}

impl Transport<RoleServer> for Lines {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let line = serde_json::to_value(&item).map(|value| {
            self.handler.log(&super::sent(&value));
            value.to_string()
        });
        let out = self.out.clone();
        async move {
            let line = line.map_err(std::io::Error::other)?;
            out.send(line)
                .map_err(|_| std::io::Error::other("stdout is closed"))
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.incoming.recv()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Reads stdin line by line until it closes (then the SDK's session ends).
async fn read_lines(
    input: impl tokio::io::AsyncRead + Unpin,
    handler: ToolMedia,
    to_sdk: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    out: mpsc::UnboundedSender<String>,
) {
    let mut lines = BufReader::new(input);
    let mut initialized = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut lines)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.len() > MAX_LINE {
            // Skip the rest of the long line.
            let mut rest = Vec::new();
            let _ = lines.read_until(b'\n', &mut rest).await;
            reply(
                &handler,
                &out,
                Value::Null,
                -32600,
                "a line longer than 4 MiB",
            );
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        match front(&text, &mut initialized) {
            Front::Pass(value, message) => {
                handler.log(&super::received(&value));
                if to_sdk.send(*message).await.is_err() {
                    return;
                }
            }
            Front::Answer(value, code, why) => {
                handler.log(&super::received(&value));
                let id = value.get("id").cloned().unwrap_or(Value::Null);
                // A notification is never answered; anything else is, with a null id
                // when it had none (JSON-RPC 2.0, section 5).
                let notification = value.get("method").is_some() && value.get("id").is_none();
                if !notification {
                    reply(&handler, &out, id, code, &why);
                }
            }
        }
    }
}

/// What the front line does with one line.
enum Front {
    /// The SDK reads it.
    Pass(Value, Box<RxJsonRpcMessage<RoleServer>>),
    /// Answered here with this error (a notification gets no answer).
    Answer(Value, i64, String),
}

fn front(text: &str, initialized: &mut bool) -> Front {
    let value: Value = match mmconform_json::bounded::parse(text.as_bytes()) {
        Ok(value) => value,
        Err(e) => return Front::Answer(Value::Null, -32700, format!("parse error: {e}")),
    };
    let method = value.get("method").and_then(Value::as_str).unwrap_or("");
    let request = value.get("id").is_some() && !method.is_empty();
    if method == "initialize" {
        *initialized = true;
    } else if request && !*initialized && method != "ping" {
        let why = format!("{method}: method not found (send initialize first)");
        return Front::Answer(value, -32601, why);
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        Ok(message) => Front::Pass(value, Box::new(message)),
        Err(e) if request => {
            let why = format!("{method}: method not found or invalid params ({e})");
            Front::Answer(value, -32601, why)
        }
        Err(e) => Front::Answer(value, -32600, format!("not a JSON-RPC message: {e}")),
    }
}

fn reply(
    handler: &ToolMedia,
    out: &mpsc::UnboundedSender<String>,
    id: Value,
    code: i64,
    why: &str,
) {
    let answer = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": why}});
    handler.log(&super::sent(&answer));
    let _ = out.send(answer.to_string());
}

/// Writes each line to `output` as it comes, flushed, until every sender is gone.
async fn write_lines(
    mut output: impl tokio::io::AsyncWrite + Unpin,
    mut lines: mpsc::UnboundedReceiver<String>,
) {
    while let Some(line) = lines.recv().await {
        if output.write_all(line.as_bytes()).await.is_err()
            || output.write_all(b"\n").await.is_err()
            || output.flush().await.is_err()
        {
            return;
        }
    }
}
