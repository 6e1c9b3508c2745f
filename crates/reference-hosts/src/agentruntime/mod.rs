//! The reference AgentRuntime (RemoteClaw #385), reached the way mmconform reaches every
//! runtime: as a bridge process speaking bridge protocol v1 (one JSON line on stdin,
//! `AgentEvent` lines on stdout; docs/guide/profiles/agentruntime.md). Its model is an
//! OpenAI-compatible upstream (the witness, from `MMCONFORM_WITNESS_URL`): each run
//! sends the prompt and every accepted attachment there in one user turn, as a CLI
//! runtime hands its CLI the media, and replies with what the model answered.
//!
//! The faithful runtime passes every case of the pack; each [`RuntimeFault`] breaks
//! one rule. The process side (reading stdin, printing, SIGTERM) is the caller's: this
//! module turns one request line into event lines, so it is tested without a process.

mod attach;
mod execute;
mod fault;
mod outbound;

pub use fault::{RuntimeFault, UnknownRuntimeFault};

use serde_json::{Value, json};
use std::future::Future;
use std::time::Duration;

/// What the reference runtime declares by default: images, WAV audio and PDF.
pub const DEFAULT_ACCEPTS: [&str; 3] = ["image/", "audio/wav", "application/pdf"];

/// How long a run "thinks" after its first event before calling its model: the window
/// in which an abort (SIGTERM) finds it demonstrably under way.
pub const DEFAULT_THINK: Duration = Duration::from_millis(200);

/// One reference runtime.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    /// `mediaCapabilities.acceptsInbound`.
    pub accepts: Vec<String>,
    /// `mediaCapabilities.emitsOutbound`.
    pub emits_outbound: bool,
    pub fault: Option<RuntimeFault>,
    pub think: Duration,
    /// The model's OpenAI-compatible base URL; `None`: no model, runs reply without one.
    pub model: Option<url::Url>,
    /// Where outbound media files are written; `None`: the working directory.
    pub outbound_dir: Option<std::path::PathBuf>,
}

impl RuntimeConfig {
    pub fn new(fault: Option<RuntimeFault>, model: Option<url::Url>) -> RuntimeConfig {
        RuntimeConfig {
            accepts: DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect(),
            emits_outbound: false,
            fault,
            think: DEFAULT_THINK,
            model,
            outbound_dir: None,
        }
    }

    fn faulted(&self, fault: RuntimeFault) -> bool {
        self.fault == Some(fault)
    }

    /// The `describe` answer.
    pub fn describe(&self) -> Value {
        let accepts: Vec<String> = if self.faulted(RuntimeFault::MalformedCapabilities) {
            self.accepts
                .iter()
                .map(|a| a.trim_end_matches('/').to_string())
                .collect()
        } else {
            self.accepts.clone()
        };
        json!({"mediaCapabilities": {"acceptsInbound": accepts, "emitsOutbound": self.emits_outbound}})
    }

    /// Whether an attachment of `mime` passes `acceptsInbound` (ChannelBridge's rule:
    /// a prefix ending in `/`, or the full type).
    pub fn accepts_mime(&self, mime: &str) -> bool {
        let mime = mime.to_ascii_lowercase();
        self.accepts.iter().any(|a| {
            let a = a.to_ascii_lowercase();
            if a.ends_with('/') {
                mime.starts_with(&a)
            } else {
                mime.split(';').next().unwrap_or("").trim() == a
            }
        })
    }
}

/// Answers one request line: every stdout line in order (through `print`), and the
/// exit code. `aborted` resolves when the process receives SIGTERM.
pub async fn serve(
    config: &RuntimeConfig,
    request: &str,
    print: &mut (dyn FnMut(String) + Send),
    aborted: impl Future<Output = ()> + Send,
) -> i32 {
    let request: Value = match serde_json::from_str(request.trim()) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("reference runtime: the request line is not JSON: {e}");
            return 2;
        }
    };
    match request.get("op").and_then(Value::as_str) {
        Some("describe") => {
            print(config.describe().to_string());
            0
        }
        Some("execute") => {
            let params = request.get("params").cloned().unwrap_or(Value::Null);
            execute::execute(config, &params, print, aborted).await
        }
        other => {
            eprintln!("reference runtime: unknown op {other:?}");
            2
        }
    }
}

#[cfg(test)]
mod tests;
