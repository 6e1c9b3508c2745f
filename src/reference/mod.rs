//! Reference glue: what mmconform does with each reference host of the
//! `reference_hosts` crate, one file (or folder) per host, read by the registry
//! (`crate::registry`) and through it by `cli` (`--target reference`,
//! `serve-reference`) and `calibrate` (the shapes and single-fault variants). A host
//! is reached here and nowhere else: how it starts for a run, what it declares of
//! itself, its `serve-reference` forms, its faults, and the shapes calibration runs
//! it in.
//!
//! The glue takes neutral requests ([`ReferenceRequest`], [`ServeRequest`]), never
//! clap types, and hands back configuration: a started host is a URL to reach, a
//! label to show and what a run against it needs; a host that is a program is a
//! [`Command`] to start, as any target of its protocol is.

pub mod a2a;
pub mod acp;
pub mod agentruntime;
pub mod agui;
pub mod anthropic;
mod model_server;
pub mod openai;
pub mod openwop;
mod program;
pub mod serve;
pub mod shape;

use crate::config::{EmbeddedClaims, RunConfig};
use crate::process::Command;
use futures_util::future::BoxFuture;
use reference_hosts::{HostFault, RunningReference};
use std::net::SocketAddr;

pub use serve::{ServeFlag, ServeForm, ServeRequest};
pub use shape::{Shape, Started};

/// A reference host as the registry lists it beside the protocols it serves.
pub trait ReferenceHost: Sync {
    /// Its name among the hosts (`openwop`, `openai`: one host may serve several
    /// profiles); calibration matches variants to shapes by it.
    fn name(&self) -> &'static str;

    /// What calibration puts before its faults' names (`agui:`; the openwop host's
    /// faults, the first table, go bare).
    fn variant_prefix(&self) -> &'static str;

    /// Every fault, in the order `--list-faults` prints them.
    fn faults(&self) -> Vec<&'static dyn HostFault>;

    /// The `--reference-*` options of `run` it takes besides the fault and upstream.
    fn takes(&self) -> &'static [ReferenceFlag] {
        &[]
    }

    /// `--target reference`: the host a run of `request.profile` is pointed at.
    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String>;

    /// The `serve-reference --profile` values it answers to.
    fn serve_forms(&self) -> &'static [ServeForm];

    /// `serve-reference --profile <form>`: serves until interrupted (or, a program,
    /// until its input ends). `Err` is how the command ends when it cannot serve.
    fn serve(
        &self,
        form: &ServeForm,
        request: &ServeRequest,
    ) -> Result<crate::exit::Ending, crate::exit::Ending>;

    /// The shapes calibration runs it in, in the order the matrix lists them.
    fn shapes(&self) -> Vec<Shape>;
}

/// A `--reference-*` option of `run` that only some hosts take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceFlag {
    /// `--reference-accepts`: what the host declares of itself.
    Accepts,
    /// `--reference-emits-outbound`: the host sends media back.
    EmitsOutbound,
}

impl ReferenceFlag {
    pub fn flag(self) -> &'static str {
        match self {
            ReferenceFlag::Accepts => "--reference-accepts",
            ReferenceFlag::EmitsOutbound => "--reference-emits-outbound",
        }
    }
}

/// The `--reference-*` options of a run (and what else of it a host needs), as the CLI
/// resolved them.
#[derive(Debug, Clone)]
pub struct ReferenceRequest {
    /// The run's profile (a host serving several doors starts the one it names).
    pub profile: &'static str,
    /// `--reference-modalities`.
    pub modalities: Vec<String>,
    /// `--reference-max-bytes-per-part` (0: none).
    pub max_bytes_per_part: u64,
    /// `--reference-fault`, as given.
    pub fault: Option<String>,
    /// `--reference-accepts`.
    pub accepts: Vec<String>,
    /// `--reference-emits-outbound`.
    pub emits_outbound: bool,
    /// `--reference-upstream`, checked (`upstream_url`).
    pub upstream: Option<url::Url>,
    /// The protocol's options (a model server serves the run `--model`'s model).
    pub options: crate::protocol::options::ProtocolOptions,
    /// `--accepts` or `--claims` were given: a host that declares itself refuses them.
    pub user_declared: bool,
}

/// What `--target reference` resolves to.
#[derive(Debug)]
pub enum ReferenceTarget {
    /// A host started in this process before the run.
    Embedded(Box<dyn EmbeddedHost>),
    /// A program (this binary's `serve-reference`), started by the run as any target
    /// of its protocol is.
    Command(Command),
}

/// A host to start in this process for a run (`--target reference`), not started yet.
pub trait EmbeddedHost: std::fmt::Debug + Send + Sync {
    /// What the host declares it accepts, when it declares itself (a protocol without
    /// discovery plans on it).
    fn claims(&self) -> Option<EmbeddedClaims> {
        None
    }

    /// Forwards to `url` (a run's witness) unless `--reference-upstream` named one.
    fn default_upstream(&mut self, url: url::Url);

    /// Starts the host and points `config` at it. `Err` is a tool problem (the host
    /// could not bind), never a verdict.
    fn start<'a>(
        self: Box<Self>,
        config: &'a mut RunConfig,
    ) -> BoxFuture<'a, Result<RunningReference, String>>;
}

/// The model base URL a reference host forwards to (`--upstream`,
/// `--reference-upstream`): an http(s) URL with a host and no credentials, query or
/// fragment, on loopback unless `allow_external` (`--allow-external-probe-urls`), so
/// that no run reaches past this machine by accident.
pub fn upstream_url(raw: &str, allow_external: bool, flag: &str) -> Result<url::Url, String> {
    let url =
        url::Url::parse(raw.trim()).map_err(|e| format!("{flag} `{raw}` is not a URL: {e}"))?;
    if !url.username().is_empty() || url.password().is_some() {
        // Not echoed: it holds a secret.
        return Err(format!("{flag} must not carry credentials"));
    }
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(format!("{flag} `{raw}` must be an http(s) URL with a host"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!("{flag} `{raw}` must not carry a query or fragment"));
    }
    if !allow_external && !reference_hosts::is_loopback(&url) {
        return Err(format!(
            "{flag} `{raw}` does not point at loopback (127.0.0.1, ::1, localhost); \
             pass --allow-external-probe-urls to forward there anyway"
        ));
    }
    Ok(url)
}

/// The fault `given` for `flag`: a typo gets the closest name rather than the whole
/// catalogue (`listing` shows that).
pub fn parse_fault<F>(
    flag: &str,
    given: Option<&str>,
    names: &[&str],
    listing: &str,
) -> Result<Option<F>, String>
where
    F: std::str::FromStr,
    F::Err: std::fmt::Display,
{
    let Some(given) = given else {
        return Ok(None);
    };
    given.parse::<F>().map(Some).map_err(|e| {
        match crate::suggest::closest(given, names.iter().copied()) {
            Some(name) => format!(
                "{flag}: unknown fault `{given}`; did you mean `{name}`? (`{listing}` lists them all)"
            ),
            None => format!("{flag}: {e}"),
        }
    })
}

/// The command that lists the faults of `form` (the first form is the default profile,
/// so its listing names none).
pub fn fault_listing(form: &ServeForm, default: bool) -> String {
    if default {
        "mmconform serve-reference --list-faults".to_string()
    } else {
        format!(
            "mmconform serve-reference --profile {} --list-faults",
            form.profile
        )
    }
}

/// The fault of this host that `fault` is (calibration hands the variant's fault to
/// every shape of its host), read back into the host's own table.
pub fn own_fault<F>(fault: Option<&'static dyn HostFault>) -> Result<Option<F>, String>
where
    F: std::str::FromStr,
    F::Err: std::fmt::Display,
{
    fault
        .map(|f| f.name().parse::<F>().map_err(|e| e.to_string()))
        .transpose()
}

/// Every fault of a table, as the trait the tool lists them through.
pub fn faults_of<F: HostFault>(all: &'static [F]) -> Vec<&'static dyn HostFault> {
    all.iter().map(|f| f as &'static dyn HostFault).collect()
}

/// `list` of modalities (`text,image`) checked against `allowed`, duplicates dropped.
pub fn parse_modalities(list: &[String], allowed: &[&str]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for m in list.iter().map(|m| m.trim()).filter(|m| !m.is_empty()) {
        if !allowed.contains(&m) {
            return Err(format!(
                "unknown modality `{m}` (use {}){}",
                allowed.join(", "),
                crate::suggest::hint(m, allowed.iter().copied())
            ));
        }
        if !out.iter().any(|o| o == m) {
            out.push(m.to_string());
        }
    }
    Ok(out)
}

/// Where an embedded host listens for a run: an ephemeral loopback port.
pub fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// Points `config` at the started host at `url`, shown as `label`.
pub fn point(config: &mut RunConfig, url: &str, label: String) -> Result<(), String> {
    let url = url::Url::parse(url)
        .map_err(|e| format!("the embedded host's URL `{url}` does not parse: {e}"))?;
    config.point_at_embedded(url, label);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstreams_stay_on_loopback_unless_allowed() {
        for ok in [
            "http://127.0.0.1:4010/v1",
            "http://localhost:4010/v1/",
            "http://[::1]:4010",
        ] {
            assert_eq!(
                upstream_url(ok, false, "--upstream")
                    .unwrap()
                    .as_str()
                    .trim_end_matches('/'),
                ok.trim_end_matches('/')
            );
        }
        let external = "https://api.example.com/v1";
        let err = upstream_url(external, false, "--upstream").unwrap_err();
        assert!(
            err.contains("loopback") && err.contains("--allow-external-probe-urls"),
            "{err}"
        );
        assert!(upstream_url(external, true, "--upstream").is_ok());
        for bad in [
            "ftp://127.0.0.1/v1",
            "127.0.0.1:4010",
            "http://127.0.0.1/v1?key=1",
            "http://127.0.0.1/v1#x",
        ] {
            assert!(upstream_url(bad, true, "--upstream").is_err(), "{bad}");
        }
        let err = upstream_url("http://me:s3cret@127.0.0.1/v1", true, "--upstream").unwrap_err();
        assert!(!err.contains("s3cret"), "{err}");
    }
}
