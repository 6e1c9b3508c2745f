//! What every `serve-reference` form shares: the neutral request the CLI hands a host,
//! the listing of its faults, the banner pieces, and serving until Ctrl-C.

use crate::exit::Ending;
use reference_hosts::{HostFault, RunningReference};
use std::net::SocketAddr;
use std::time::Duration;

/// What `--list-faults` appends to a fault that only shows with `--upstream`.
pub const NEEDS_UPSTREAM: &str = "[needs --upstream]";

/// One `serve-reference --profile` value of a host.
#[derive(Debug)]
pub struct ServeForm {
    /// The value (`openai-responses`).
    pub profile: &'static str,
    /// What it serves, for `--help`.
    pub help: &'static str,
    /// The door its faults are listed and taken for (`HostFault::acts_at`).
    pub door: &'static str,
    /// The options only some forms take that this one does.
    pub takes: &'static [ServeFlag],
}

/// A `serve-reference` option only some forms take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServeFlag {
    /// `--accepts`: what an agent or runtime declares.
    Accepts,
    /// `--models`: the models a server serves.
    Models,
    /// `--emits-outbound`: media sent back.
    EmitsOutbound,
    /// `--self-hosted-endpoint`: a self-hosted provider's configured endpoint.
    SelfHostedEndpoint,
}

impl ServeFlag {
    pub const ALL: [ServeFlag; 4] = [
        ServeFlag::Accepts,
        ServeFlag::Models,
        ServeFlag::EmitsOutbound,
        ServeFlag::SelfHostedEndpoint,
    ];

    pub fn flag(self) -> &'static str {
        match self {
            ServeFlag::Accepts => "--accepts",
            ServeFlag::Models => "--models",
            ServeFlag::EmitsOutbound => "--emits-outbound",
            ServeFlag::SelfHostedEndpoint => "--self-hosted-endpoint",
        }
    }

    /// Whether `request` gives it.
    pub fn given(self, request: &ServeRequest) -> bool {
        match self {
            ServeFlag::Accepts => !request.accepts.is_empty(),
            ServeFlag::Models => !request.models.is_empty(),
            ServeFlag::EmitsOutbound => request.emits_outbound,
            ServeFlag::SelfHostedEndpoint => request.self_hosted_endpoint.is_some(),
        }
    }
}

/// `serve-reference`'s options, as the CLI read them.
#[derive(Debug, Clone)]
pub struct ServeRequest {
    /// `--accepts`.
    pub accepts: Vec<String>,
    /// `--emits-outbound`.
    pub emits_outbound: bool,
    /// `--models`.
    pub models: Vec<String>,
    /// `--bind` and `--port`.
    pub addr: SocketAddr,
    /// `--modalities`.
    pub modalities: Vec<String>,
    /// `--max-bytes-per-part`.
    pub max_bytes_per_part: Option<u64>,
    /// `--max-request-body-bytes`.
    pub max_request_body_bytes: Option<u64>,
    /// `--token`, as given (a warning is printed when it is read).
    pub token: Option<String>,
    /// `--token-env`.
    pub token_env: Option<String>,
    /// `--fault`, as given.
    pub fault: Option<String>,
    /// `--list-faults`.
    pub list_faults: bool,
    /// `--upstream`, as given.
    pub upstream: Option<String>,
    /// `--self-hosted-endpoint`.
    pub self_hosted_endpoint: Option<String>,
    /// `--allow-external-probe-urls`.
    pub allow_external: bool,
    /// `--delay-ms`.
    pub delay: Duration,
}

impl ServeRequest {
    /// `--upstream`, checked as `--reference-upstream` is.
    pub fn upstream(&self) -> Result<Option<url::Url>, Ending> {
        self.upstream
            .as_deref()
            .map(|raw| super::upstream_url(raw, self.allow_external, "--upstream"))
            .transpose()
            .map_err(Ending::Usage)
    }

    /// The model a program form calls: `--upstream`, or `variable` (the witness URL the
    /// run hands it), unchecked beyond parsing (the tester chose it).
    pub fn model_url(&self, variable: &str) -> Result<Option<url::Url>, Ending> {
        match self
            .upstream
            .clone()
            .or_else(|| std::env::var(variable).ok())
        {
            Some(raw) => url::Url::parse(&raw)
                .map(Some)
                .map_err(|e| Ending::Usage(format!("the model URL `{raw}`: {e}"))),
            None => Ok(None),
        }
    }

    /// The token to require (a bearer token; `x-api-key` for the Anthropic server):
    /// `--token` (with a warning) or `--token-env`.
    pub fn token(&self) -> Result<Option<String>, Ending> {
        match (&self.token, &self.token_env) {
            (Some(t), _) => {
                crate::console::error_line(format_args!(
                    "warning: --token puts the secret in your shell history and process list; prefer --token-env"
                ));
                Ok(Some(t.clone()))
            }
            (None, Some(var)) => std::env::var(var)
                .map(Some)
                .map_err(|_| Ending::Usage(format!("--token-env: ${var} is not set"))),
            (None, None) => Ok(None),
        }
    }

    /// `, upstream URL` for a banner.
    pub fn upstream_banner(upstream: Option<&url::Url>) -> String {
        upstream
            .map(|u| format!(", upstream {u}"))
            .unwrap_or_default()
    }

    /// `, service time N ms` for a banner.
    pub fn service_time_banner(&self) -> String {
        match self.delay.as_millis() {
            0 => String::new(),
            ms => format!(", service time {ms} ms"),
        }
    }

    /// `max_request_body_bytes` and `max_bytes_per_part` are at least 1 when given.
    pub fn check_limits(&self) -> Result<(), Ending> {
        if self.max_bytes_per_part == Some(0) || self.max_request_body_bytes == Some(0) {
            return Err(Ending::Usage("limits must be at least 1 byte".into()));
        }
        Ok(())
    }
}

/// `, FAULT name` for a banner.
pub fn fault_banner(fault: Option<&dyn HostFault>) -> String {
    fault
        .map(|f| format!(", FAULT {}", f.name()))
        .unwrap_or_default()
}

/// Prints `name description` lines of the faults acting at `door`, marking those that
/// need an upstream; a closed stdout (`| head`) ends the listing quietly.
pub fn list_faults(faults: &[&'static dyn HostFault], door: &str) -> Ending {
    for fault in faults.iter().filter(|f| f.acts_at(door)) {
        let mark = if fault.needs_upstream() {
            NEEDS_UPSTREAM
        } else {
            ""
        };
        let listed = format!("{:32} {} {mark}", fault.name(), fault.description());
        crate::console::line(format_args!("{}", listed.trim_end()));
    }
    Ending::Done
}

/// Announces a started embedded host and serves until Ctrl-C.
pub async fn until_interrupted(
    running: std::io::Result<RunningReference>,
    addr: SocketAddr,
    banner: impl FnOnce(&RunningReference) -> String,
) -> Result<Ending, Ending> {
    let running = running.map_err(|e| Ending::Usage(format!("cannot listen on {addr}: {e}")))?;
    crate::console::line(format_args!("{}", banner(&running)));
    let _ = tokio::signal::ctrl_c().await;
    running.shutdown().await;
    Ok(Ending::Done)
}

/// The multi-threaded runtime a served host runs on.
pub fn runtime() -> Result<tokio::runtime::Runtime, Ending> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Ending::Internal(format!("cannot start the async runtime: {e}")))
}
