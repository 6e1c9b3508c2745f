//! The reference hosts mmconform is calibrated against: a spec-faithful openwop host
//! (this module), a strict AG-UI 1.0 agent ([`agui`]), a strict OpenAI-compatible
//! server with a Chat Completions and a Responses door ([`openai`]), a strict Anthropic
//! Messages server ([`anthropic`]), a reference AgentRuntime bridge
//! ([`agentruntime`]), a reference ACP agent ([`acp`]) and a reference A2A agent
//! ([`a2a`]), each with single-fault
//! variants (a `fault_catalogue!` table implementing [`HostFault`]).
//!
//! Used by `mmconform run --target reference`, by the test-suite and by calibration.
//! The hosts are written from the wire description and never use the tool's own
//! checker (this crate does not depend on `mmconform`): a reference that read the spec
//! through the checker's code would agree with it by construction.
//! The faithful host passes every case; each [`Fault`] breaks exactly one requirement
//! so the suite can prove each case is able to fail. The host never fetches a `url`
//! source: it is judged, never fetched. Its only outbound request is the forwarding
//! mode: with an upstream model configured ([`ReferenceConfig::upstream`]) a call that
//! names `provider: compat` is sent on to `{upstream}/chat/completions` once it is
//! accepted (`forward.rs`, mapped by `openai_wire.rs`, sent by `upstream.rs`).
//!
//! Where things live: `discovery.rs` builds `/.well-known/openwop` (v1 and the v2 root;
//! `negotiation.rs` picks one by `OpenWOP-Version`, with ETag/304 and 406);
//! `v2_errors.rs` spells refusals of the v2 seams with v2 registry codes; `routes.rs` wires
//! HTTP (`auth.rs` bearer check, `body_limit.rs` body cap, flat 404/405s); `ai_call.rs`
//! validates a call body message by message, `part.rs` one content part, `modality.rs`
//! decides whether a part type is advertised, `mime.rs` whether its MIME type fits,
//! `source.rs` checks url/mediaRef/data (`ssrf.rs` guards URLs, `media_ref.rs` lists
//! the blobs held); `envelope/` is the AI Envelope accept seam (RFC 0021);
//! `error_body.rs` renders the flat error envelope; `fault.rs` names the faults;
//! `self_hosted.rs` is RFC 0108's self-hosted provider `compat` (advertised when an
//! endpoint is configured, never printed but by a fault).
//! Shared by the hosts: `media_files.rs` (the files served for url parts),
//! `body_limit.rs`, the bearer reading in `auth.rs`, `upstream.rs`, and the agents'
//! MCP tool loop `tool_loop.rs`.

pub mod a2a;
pub mod acp;
pub mod agentruntime;
pub mod agui;
mod ai_call;
pub mod anthropic;
mod auth;
mod body_limit;
mod discovery;
mod envelope;
mod error_body;
mod fault;
mod fault_catalogue;
mod forward;
pub mod forward_transform;
mod gemini_wire;
mod media_files;
mod media_ref;
mod mime;
mod modality;
mod negotiation;
pub mod openai;
mod openai_wire;
mod part;
mod responses_wire;
mod routes;
mod self_hosted;
pub mod service_time;
mod source;
mod ssrf;
pub mod tool_loop;
mod upstream;
mod v2_errors;

#[cfg(test)]
mod ai_call_tests;
#[cfg(test)]
mod fault_controls_tests;
#[cfg(test)]
mod fault_tests;
#[cfg(test)]
mod forward_tests;
#[cfg(test)]
mod mock_upstream;
#[cfg(test)]
mod server_tests;
#[cfg(test)]
mod test_support;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use ai_call::{AcceptedSummary, validate_call};
pub use auth::check_auth;
pub use discovery::{discovery_document, discovery_document_v2};
pub use envelope::{EnvelopeState, UNIVERSAL_ENVELOPES, accept_envelope};
pub use error_body::{ErrorCode, Rejection};
pub use fault::{Fault, UnknownFault};
pub use fault_catalogue::{Catalogued, HostFault};
pub use forward::COMPAT_PROVIDER;
pub use media_ref::{KNOWN_BLOB_BYTES, known_media_ref};
pub use negotiation::{PREFERRED_VERSION, PROTOCOL_VERSIONS};
pub use routes::{
    AI_CALL_V1, AI_CALL_V2, DISCOVERY, ENVELOPE_ACCEPT_V1, ENVELOPE_ACCEPT_V2, router,
};
pub use upstream::{MODEL as UPSTREAM_MODEL, UpstreamWire, is_loopback};

/// How the reference host behaves: what it advertises, what it enforces, and at most
/// one deliberate fault.
#[derive(Debug, Clone)]
pub struct ReferenceConfig {
    /// Exactly what is advertised in aiProviders.input.modalities (may omit "text"; order kept).
    pub modalities: Vec<String>,
    /// false => no aiProviders.input block at all (a text-only host per RFC 0091 §B).
    pub advertise_input: bool,
    pub max_bytes_per_part: Option<u64>,
    /// Advertised as limits.maxRequestBodyBytes and enforced (413 payload_too_large) when set.
    pub max_request_body_bytes: Option<u64>,
    /// When set, the ai/call and envelope accept seams require `Authorization: Bearer <token>` (401 unauthenticated otherwise). Discovery stays public.
    pub token: Option<String>,
    pub fault: Option<Fault>,
    /// An OpenAI-compatible base URL (`http://127.0.0.1:4010/v1`): when set, an
    /// accepted call naming `provider: "compat"` (RFC 0108) is forwarded to
    /// `{upstream}/chat/completions` (docs/wire.md, "Forwarding to a model").
    pub upstream: Option<url::Url>,
    /// RFC 0108: the endpoint the self-hosted provider `compat` is configured with
    /// (operator configuration, never fetched). When set, the host advertises `compat`
    /// as self-hosted (v1 `selfHosted: ["compat"]`, v2 `selfHosted: true`) and serves
    /// calls naming it; the endpoint never appears on the wire (only a fault leaks it).
    pub compat_endpoint: Option<String>,
}

impl Default for ReferenceConfig {
    fn default() -> Self {
        ReferenceConfig {
            modalities: vec!["text".into(), "image".into()],
            advertise_input: true,
            max_bytes_per_part: Some(65536),
            max_request_body_bytes: None,
            token: None,
            fault: None,
            upstream: None,
            compat_endpoint: None,
        }
    }
}

impl ReferenceConfig {
    /// True when this host runs with `fault`; keeps the fault checks one-liners.
    pub(crate) fn faulted(&self, fault: Fault) -> bool {
        self.fault == Some(fault)
    }
}

/// A reference host serving in a background tokio task.
pub struct RunningReference {
    pub addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl RunningReference {
    /// The base URL to point a tester at, e.g. `http://127.0.0.1:41234`.
    ///
    /// An unspecified bind address (0.0.0.0, ::) is not a destination, so the URL names
    /// the loopback address of the same family instead.
    pub fn base_url(&self) -> String {
        let ip = match self.addr.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        format!("http://{}", SocketAddr::new(ip, self.addr.port()))
    }

    /// Stops accepting connections, lets in-flight requests finish, and waits.
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            // A serve error after shutdown has nobody left to report to.
            let _ = task.await;
        }
    }
}

impl Drop for RunningReference {
    /// A dropped handle still stops the server, so a panicking test leaks no listener.
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Bind (use 127.0.0.1:0 for an ephemeral port) and serve in a tokio task until shutdown.
pub async fn spawn(config: ReferenceConfig, addr: SocketAddr) -> std::io::Result<RunningReference> {
    serve(router(config), addr).await
}

/// [`spawn`], with every call answered no sooner than `service_time` after it arrived
/// ([`service_time`]): a host that takes as long as a model would.
pub async fn spawn_with_service_time(
    config: ReferenceConfig,
    addr: SocketAddr,
    service_time: std::time::Duration,
) -> std::io::Result<RunningReference> {
    serve(service_time::paced(router(config), service_time), addr).await
}

/// Serves `app` on `addr` in a tokio task until the handle shuts it down (or is
/// dropped): every embedded host, openwop or AG-UI, runs this way.
pub(crate) async fn serve(
    app: axum::Router,
    addr: SocketAddr,
) -> std::io::Result<RunningReference> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                // Err means the handle was dropped: stop as well.
                let _ = rx.await;
            })
            .await
    });
    Ok(RunningReference {
        addr,
        shutdown: Some(tx),
        task: Some(task),
    })
}
