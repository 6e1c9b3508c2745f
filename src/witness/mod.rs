//! The upstream witness (WIRE.md §6, docs/wire.md "Witness"): a mock model endpoint that
//! records and decodes every model call a host, gateway or client library makes, so
//! what actually reached the model can be judged.
//!
//! It serves OpenAI Chat Completions (`POST {base}/chat/completions`, streaming or
//! not; `GET {base}/models`), Anthropic Messages (`POST {base}/messages`) and OpenAI
//! Responses (`POST {base}/responses`), with `{base}` = `/v1` (the same paths without
//! `/v1` work too), and Gemini (`/v1beta/models/{model}:generateContent`,
//! `:streamGenerateContent`, `:countTokens`; see `wire/gemini`). Each call is decoded part
//! by part ([`record::Part`]: kind, wire form, declared and sniffed type, length,
//! SHA-256, the nonces stamped in its bytes, a picture's or sound's decoded shape and
//! the nonce its content carries, problems) into a [`ModelCall`] kept in a bounded log,
//! and answered with a valid completion that says what was seen.
//!
//! It knows nothing of runs or protocols: a run starts one, points the host at
//! [`RunningWitness::base_url`], stamps each case's media with its own nonce and asks
//! [`RunningWitness::wait_for`] which calls carried it. [`rules`] judges calls against
//! the OpenAI wire rules (llm-provider 0015); [`case`] turns a call into a
//! [`CaseResult`](crate::outcome::CaseResult) for `mmconform witness`.
//!
//! Files: `config.rs` (where it listens, its limits), `routes.rs` (HTTP), `body.rs`
//! (bounded body reading), `decode.rs` (a body to a call), `wire/` (one folder per
//! wire, Chat, Responses, Anthropic, Gemini: its `decode.rs` and `answer.rs`, spelling
//! the wire as [`crate::wire`] describes it), `part.rs` and `bytes.rs` (sources, data
//! URLs, digests), `record.rs` (the records), `log.rs` (the shared log and waiting),
//! `answer.rs` (what every wire's answer says, and the dispatch to each wire's).

mod answer;
mod base64_text;
mod body;
mod bytes;
pub mod case;
mod config;
mod decode;
mod log;
mod part;
pub mod record;
mod routes;
pub mod rules;
pub mod tools;
pub mod wire;

pub use config::{Limits, WitnessConfig};
pub use record::{ModelCall, Part, PartKind, Problem, SourceKind, Wire};

use routes::Shared;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Decodes `body` as the witness decodes a call to `wire` at `path`, without a server
/// (tests, replaying a captured body): the record it would keep, numbered `seq`.
pub fn decode_call(wire: Wire, path: &str, body: &[u8], limits: &Limits, seq: u64) -> ModelCall {
    let received_at = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    decode::decode(wire, body, limits).into_call(seq, wire, path, received_at, body.len() as u64)
}

/// How long [`RunningWitness::shutdown`] lets calls in flight finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Starts witnesses; see [`Witness::start`].
pub struct Witness;

impl Witness {
    /// Checks the configuration (a non-loopback address needs `allow_non_loopback`),
    /// binds, and serves in a tokio task until the handle is shut down or dropped.
    pub async fn start(config: WitnessConfig) -> Result<RunningWitness, String> {
        config.check()?;
        let listen = config.listen;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("the witness cannot listen on {listen}: {e}"))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("the witness cannot read its address: {e}"))?;
        let shared = Arc::new(Shared::new(config));
        let app = routes::router(Arc::clone(&shared));
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            axum::serve(listener, app)
                .with_graceful_shutdown(async move {
                    // Err means the handle was dropped: stop as well.
                    let _ = rx.await;
                })
                .await
        });
        Ok(RunningWitness {
            addr,
            shared,
            shutdown: Some(tx),
            task: Some(task),
        })
    }
}

/// A witness serving in a background task. Dropping it stops the server.
pub struct RunningWitness {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl RunningWitness {
    /// The address bound (with the port picked when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL to configure as the model endpoint, e.g.
    /// `http://127.0.0.1:41234/v1`. An unspecified bind address (0.0.0.0, ::) is not a
    /// destination, so the URL names loopback of the same family instead.
    pub fn base_url(&self) -> String {
        let ip = match self.addr.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        format!("http://{}/v1", SocketAddr::new(ip, self.addr.port()))
    }

    /// The configuration it runs with.
    pub fn config(&self) -> &WitnessConfig {
        &self.shared.config
    }

    #[cfg(test)]
    /// Kept calls numbered above `seq` (0 for all), in order. Note
    /// [`RunningWitness::received`] before a case to get only the calls after it.
    pub fn calls_since(&self, seq: u64) -> Vec<ModelCall> {
        self.shared.log.since(seq)
    }

    /// Kept calls carrying `nonce` (see [`ModelCall::carries`]), in order.
    pub fn calls_carrying(&self, nonce: &str) -> Vec<ModelCall> {
        self.shared.log.carrying(nonce)
    }

    /// The calls carrying `nonce`, as soon as there is one; after `timeout`, whatever
    /// there is (possibly nothing). Cancelled by dropping the future.
    pub async fn wait_for(&self, nonce: &str, timeout: Duration) -> Vec<ModelCall> {
        self.shared
            .log
            .wait_until(timeout, |log| log.carrying(nonce))
            .await
    }

    /// The calls numbered above `seq`, as soon as there is one; after `timeout`,
    /// whatever there is. Cancelled by dropping the future.
    pub async fn wait_for_calls(&self, seq: u64, timeout: Duration) -> Vec<ModelCall> {
        self.shared
            .log
            .wait_until(timeout, |log| log.since(seq))
            .await
    }

    /// Releases the calls numbered up to `seq` (judged already), so the bounded log
    /// has room for new ones.
    pub fn forget_through(&self, seq: u64) {
        self.shared.log.forget_through(seq);
    }

    /// Releases the calls carrying `nonce` (a case judged already), wherever they are.
    pub fn forget_carrying(&self, nonce: &str) {
        self.shared.log.forget_carrying(nonce);
    }

    #[cfg(test)]
    /// Calls received so far (kept or not): the number of the latest call.
    pub fn received(&self) -> u64 {
        self.shared.log.received()
    }

    /// Calls not kept because the log was full.
    pub fn dropped(&self) -> u64 {
        self.shared.log.dropped()
    }

    /// Stops accepting connections and lets calls in flight finish, for at most a
    /// few seconds (a client trickling its body does not hold the shutdown).
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
                .await
                .is_err()
        {
            task.abort();
        }
    }
}

impl Drop for RunningWitness {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}
