//! An embedded, strict A2A reference agent (the Agent2Agent protocol, 1.0 and 0.3),
//! plus single-fault variants.
//!
//! Used by `mmconform run --profile a2a --target reference`, by the test-suite and by
//! calibration. It serves its agent card at `/.well-known/agent-card.json` (`card.rs`)
//! and speaks both bindings it declares there: JSON-RPC 2.0 at [`JSONRPC_PATH`]
//! (`jsonrpc.rs`) and HTTP+JSON under [`REST_PATH`] (`rest.rs`), each in every version
//! it declares, told apart by the `A2A-Version` header (`version.rs`: empty is 0.3).
//! A message's parts are read in the version's spelling (`parts.rs`), refused when
//! malformed (`-32602`) or of a media type the card does not list
//! (`ContentTypeNotSupportedError`, `-32005`), and handed to its model (`model.rs`):
//! with an upstream configured, the text and the media go to
//! `{upstream}/chat/completions` as the other reference hosts send them
//! (`crate::upstream`). The answer is a completed task, a message, or a task that
//! completes a little later (`tasks.rs`, `answer.rs`), streamed over SSE when asked
//! (`stream.rs`). Errors are spelled per binding (`error.rs`). Each [`A2aFault`]
//! breaks exactly one requirement (`fault.rs`). The agent never fetches a `url` part:
//! it is checked, never opened.

mod agent;
mod answer;
mod card;
mod error;
mod fault;
mod jsonrpc;
mod model;
mod parts;
mod rest;
mod routes;
mod tasks;
#[cfg(test)]
mod tests;
mod version;

use super::RunningReference;
use crate::agui::Accepts;
use crate::upstream::UpstreamWire;
use std::net::SocketAddr;
use std::time::Duration;

pub use fault::{A2aFault, UnknownA2aFault};
pub use routes::router;
pub use version::{Binding, Version};

/// Where the agent card is served (A2A §8.2).
pub const CARD_PATH: &str = "/.well-known/agent-card.json";
/// The JSON-RPC interface.
pub const JSONRPC_PATH: &str = "/a2a/jsonrpc";
/// The HTTP+JSON interface (its operations are paths below it).
pub const REST_PATH: &str = "/a2a/rest";

/// What the reference agent accepts by default, besides text.
pub const DEFAULT_ACCEPTS: [&str; 3] = ["image/", "audio/wav", "application/pdf"];

/// How long a task answered before it finished takes to complete.
pub const LATER: Duration = Duration::from_millis(150);

/// What a successful send is answered with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answering {
    /// A task, completed before the answer (a blocking send; `returnImmediately` /
    /// 0.3 `blocking: false` get it still working, completed [`LATER`]).
    Task,
    /// A direct message, no task.
    Message,
}

/// How the reference agent behaves: what its card declares and at most one
/// deliberate fault.
#[derive(Debug, Clone)]
pub struct AgentConfig {
    /// The media types it accepts besides text (`defaultInputModes`).
    pub accepts: Accepts,
    /// The interfaces it declares, in preference order.
    pub interfaces: Vec<(Binding, Version)>,
    /// `capabilities.streaming`.
    pub streaming: bool,
    pub answering: Answering,
    pub fault: Option<A2aFault>,
    /// An OpenAI-compatible base URL its model calls go to, when set.
    pub upstream: Option<url::Url>,
    pub upstream_wire: UpstreamWire,
    /// The bearer token every operation must present (the card stays public), when set.
    pub token: Option<String>,
}

impl AgentConfig {
    /// The agent accepting `accepts` (MIME prefixes) on JSON-RPC and HTTP+JSON at 1.0.
    pub fn new(accepts: &[String], fault: Option<A2aFault>) -> Result<AgentConfig, String> {
        Ok(AgentConfig {
            accepts: Accepts::parse(accepts)?,
            interfaces: vec![
                (Binding::JsonRpc, Version::V1),
                (Binding::HttpJson, Version::V1),
            ],
            streaming: true,
            answering: Answering::Task,
            fault,
            upstream: None,
            upstream_wire: UpstreamWire::Chat,
            token: None,
        })
    }

    pub fn with_interfaces(self, interfaces: Vec<(Binding, Version)>) -> AgentConfig {
        AgentConfig { interfaces, ..self }
    }

    pub fn with_streaming(self, streaming: bool) -> AgentConfig {
        AgentConfig { streaming, ..self }
    }

    pub fn with_answering(self, answering: Answering) -> AgentConfig {
        AgentConfig { answering, ..self }
    }

    pub fn with_token(self, token: Option<String>) -> AgentConfig {
        AgentConfig { token, ..self }
    }

    pub fn with_upstream(self, upstream: Option<url::Url>) -> AgentConfig {
        AgentConfig { upstream, ..self }
    }

    pub fn with_upstream_wire(self, upstream_wire: UpstreamWire) -> AgentConfig {
        AgentConfig {
            upstream_wire,
            ..self
        }
    }

    pub(crate) fn faulted(&self, fault: A2aFault) -> bool {
        self.fault == Some(fault)
    }

    /// The versions it speaks on `binding`.
    pub(crate) fn versions_on(&self, binding: Binding) -> Vec<Version> {
        self.interfaces
            .iter()
            .filter(|(b, _)| *b == binding)
            .map(|(_, v)| *v)
            .collect()
    }
}

impl Default for AgentConfig {
    fn default() -> Self {
        let accepts: Vec<String> = DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect();
        AgentConfig::new(&accepts, None).expect("the default declaration is valid")
    }
}

/// Bind (use 127.0.0.1:0 for an ephemeral port) and serve in a tokio task until shutdown.
pub async fn spawn(config: AgentConfig, addr: SocketAddr) -> std::io::Result<RunningReference> {
    super::serve(router(config), addr).await
}

/// [`spawn`], with every operation answered no sooner than `service_time` after it
/// arrived (`crate::service_time`).
pub async fn spawn_with_service_time(
    config: AgentConfig,
    addr: SocketAddr,
    service_time: Duration,
) -> std::io::Result<RunningReference> {
    super::serve(
        crate::service_time::paced(router(config), service_time),
        addr,
    )
    .await
}
