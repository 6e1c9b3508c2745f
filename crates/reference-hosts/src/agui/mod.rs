//! An embedded, strict AG-UI 1.0 reference agent, plus single-fault variants.
//!
//! Used by `mmconform run --profile agui --target reference`, by the test-suite and by
//! calibration. It validates a `RunAgentInput` as the 1.0 schema does (`input.rs`: a
//! violation is a 422 before any stream), hands the parts to a "model" that refuses
//! what the agent does not declare with `RUN_ERROR` (`model.rs`), and streams the
//! answer with an `mmconform.echo` event saying what reached the model (`events.rs`).
//! Each [`AguiFault`] breaks exactly one requirement (`fault.rs`). What it accepts is
//! read in `accepts.rs`, the echo's shape is `echo.rs`. The agent never fetches a url
//! source: it is checked, never fetched. Its only outbound request is the forwarding
//! mode: with an upstream model configured ([`AgentConfig::upstream`]) what reached
//! the model goes on to `{upstream}/chat/completions` (`forward.rs`).

mod accepts;
mod echo;
mod events;
mod fault;
mod forward;
#[cfg(test)]
mod forward_tests;
mod input;
mod model;
mod routes;

use super::RunningReference;
use crate::upstream::UpstreamWire;
use std::net::SocketAddr;

pub use accepts::{Accepts, PART_KINDS, SOURCE_KINDS, kind_of_mime};
pub use echo::{ECHO_EVENT_NAME, EchoPart};
pub use fault::{AguiFault, UnknownAguiFault};
pub use model::{find_nonce, known_file_id};
pub use routes::router;

/// Where the agent takes runs: `--target` for it is `http://127.0.0.1:PORT/agui`.
pub const AGENT_PATH: &str = "/agui";
/// Where it serves the media a url source may point at.
pub const MEDIA_PATH: &str = "/media";

/// What the reference agent declares by default.
pub const DEFAULT_ACCEPTS: [&str; 3] = ["image/", "audio/wav", "application/pdf"];

/// How the reference agent behaves: what it accepts (its own declaration) and at most
/// one deliberate fault. Besides what it accepts, it declares every source kind
/// ([`AgentConfig::sources`]) and the echo ([`AgentConfig::echoes`]).
#[derive(Debug, Clone)]
pub struct AgentConfig {
    pub accepts: Accepts,
    pub fault: Option<AguiFault>,
    /// An OpenAI-compatible base URL (`http://127.0.0.1:4010/v1`): when set, every run's
    /// user content that reached the model is forwarded to `{upstream}/chat/completions`
    /// (docs/wire.md, "Forwarding to a model").
    pub upstream: Option<url::Url>,
    /// The wire the upstream is called in (Chat Completions unless set; Gemini makes
    /// the agent a gateway that translates AG-UI into Gemini).
    pub upstream_wire: UpstreamWire,
    /// The bearer token every run must present (`Authorization: Bearer <token>`), when
    /// set. AG-UI defines no authentication; agents are deployed behind one, and a run
    /// given a token checks that it is enforced.
    pub token: Option<String>,
}

impl AgentConfig {
    /// The agent accepting `accepts` (MIME prefixes); every source kind, echo claimed.
    pub fn new(accepts: &[String], fault: Option<AguiFault>) -> Result<AgentConfig, String> {
        Ok(AgentConfig {
            accepts: Accepts::parse(accepts)?,
            fault,
            upstream: None,
            upstream_wire: UpstreamWire::Chat,
            token: None,
        })
    }

    /// The same agent requiring `token` on every run (none: open).
    pub fn with_token(self, token: Option<String>) -> AgentConfig {
        AgentConfig { token, ..self }
    }

    /// The same agent forwarding to `upstream` (none: answering on its own).
    pub fn with_upstream(self, upstream: Option<url::Url>) -> AgentConfig {
        AgentConfig { upstream, ..self }
    }

    /// The same agent calling its upstream in `upstream_wire`.
    pub fn with_upstream_wire(self, upstream_wire: UpstreamWire) -> AgentConfig {
        AgentConfig {
            upstream_wire,
            ..self
        }
    }

    /// The source kinds the agent takes: all of AG-UI's.
    pub fn sources(&self) -> &'static [&'static str] {
        &SOURCE_KINDS
    }

    /// The agent always emits the `mmconform.echo` event on a completed run.
    pub fn echoes(&self) -> bool {
        true
    }
}

impl Default for AgentConfig {
    fn default() -> Self {
        let accepts: Vec<String> = DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect();
        AgentConfig::new(&accepts, None).expect("the default declaration is valid")
    }
}

/// The run endpoint of a running agent (`http://127.0.0.1:PORT/agui`).
pub fn endpoint_url(running: &RunningReference) -> String {
    format!("{}{AGENT_PATH}", running.base_url())
}

/// The media base URL a run against the agent at `endpoint` uses for url sources.
pub fn media_base_url(endpoint: &str) -> String {
    let origin = endpoint.strip_suffix(AGENT_PATH).unwrap_or(endpoint);
    format!("{origin}{MEDIA_PATH}")
}

/// Bind (use 127.0.0.1:0 for an ephemeral port) and serve in a tokio task until shutdown.
pub async fn spawn(config: AgentConfig, addr: SocketAddr) -> std::io::Result<RunningReference> {
    super::serve(router(config), addr).await
}

/// [`spawn`], with every run answered no sooner than `service_time` after it arrived
/// (`crate::service_time`).
pub async fn spawn_with_service_time(
    config: AgentConfig,
    addr: SocketAddr,
    service_time: std::time::Duration,
) -> std::io::Result<RunningReference> {
    super::serve(
        crate::service_time::paced(router(config), service_time),
        addr,
    )
    .await
}
