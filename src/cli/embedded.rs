//! `--target reference`: the hosts of the `reference_hosts` crate, started in this
//! process. The runner never sees them: once started, a host is a URL to reach, a label
//! to show, and what a run against it needs (the token it requires is the run's own, its
//! media base URL and media refs), handed on as configuration. `serve-reference` serves
//! the same hosts on their own.

use super::args::{ProfileArg, ReferenceArgs};
use super::embedded_anthropic::{self, AnthropicServer};
use super::embedded_openai::{self, OpenaiServer};
use super::resolve::parse_modalities;
use crate::config::RunConfig;
use crate::protocol::agui::Declaration;
use reference_hosts::agui::{self, AgentConfig, AguiFault, DEFAULT_ACCEPTS};
use reference_hosts::{Fault, ReferenceConfig, RunningReference};
use std::net::SocketAddr;

/// The modalities the openwop reference host can advertise.
pub const MODALITIES: [&str; 4] = ["text", "image", "audio", "document"];

/// The embedded host a run asked for (`--target reference`), not started yet.
#[derive(Debug, Clone)]
pub enum Embedded {
    /// The openwop reference host, shaped by `--reference-modalities` and friends.
    Host(ReferenceConfig),
    /// The AG-UI reference agent (`--profile agui`); runs go to its endpoint `/agui`.
    Agent(AgentConfig),
    /// The OpenAI-compatible reference server (`--profile openai`) and the model the run names.
    Openai(OpenaiServer),
    /// The Anthropic Messages reference server (`--profile anthropic`) and the model the run names.
    Anthropic(AnthropicServer),
}

impl Embedded {
    /// The host the `--reference-*` flags describe for `profile` (openai: serving
    /// `model`); `allow_external` lets `--reference-upstream` leave loopback.
    pub fn from_args(
        args: &ReferenceArgs,
        profile: ProfileArg,
        model: Option<&str>,
        allow_external: bool,
    ) -> Result<Embedded, String> {
        let upstream = args
            .reference_upstream
            .as_deref()
            .map(|raw| upstream_url(raw, allow_external, "--reference-upstream"))
            .transpose()?;
        if args.reference_emits_outbound && profile != ProfileArg::Agentruntime {
            return Err(
                "--reference-emits-outbound shapes the reference AgentRuntime: add --profile agentruntime"
                    .into(),
            );
        }
        match profile {
            ProfileArg::Agui => {
                agent_config(args).map(|agent| Embedded::Agent(agent.with_upstream(upstream)))
            }
            ProfileArg::Openai | ProfileArg::OpenaiResponses => {
                let responses = profile == ProfileArg::OpenaiResponses;
                embedded_openai::server(args, model, upstream, responses).map(Embedded::Openai)
            }
            ProfileArg::Anthropic => {
                embedded_anthropic::server(args, model, upstream).map(Embedded::Anthropic)
            }
            ProfileArg::Openwop => {
                host_config(args).map(|host| Embedded::Host(ReferenceConfig { upstream, ..host }))
            }
            // Started as a process per request, never embedded (cli/target_cmd.rs).
            ProfileArg::Agentruntime | ProfileArg::Acp => {
                Err("the reference runtime is a process: --target reference resolves it".into())
            }
        }
    }
}

impl Embedded {
    /// Forwards to `url` (a run's witness) unless `--reference-upstream` named an
    /// upstream already.
    pub fn default_upstream(&mut self, url: url::Url) {
        let upstream = match self {
            Embedded::Host(host) => &mut host.upstream,
            Embedded::Agent(agent) => &mut agent.upstream,
            Embedded::Openai(server) => &mut server.config.upstream,
            Embedded::Anthropic(server) => &mut server.config.upstream,
        };
        upstream.get_or_insert(url);
    }
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

pub fn fault_names() -> Vec<&'static str> {
    Fault::all().iter().map(|f| f.name()).collect()
}

pub fn agui_fault_names() -> Vec<&'static str> {
    AguiFault::all().iter().map(|f| f.name()).collect()
}

pub const FAULT_LISTING: &str = "mmconform serve-reference --list-faults";
pub const AGUI_FAULT_LISTING: &str = "mmconform serve-reference --profile agui --list-faults";

fn host_config(args: &ReferenceArgs) -> Result<ReferenceConfig, String> {
    let fault = parse_fault::<Fault>(
        "--reference-fault",
        args.reference_fault.as_deref(),
        &fault_names(),
        FAULT_LISTING,
    )?;
    Ok(ReferenceConfig {
        modalities: parse_modalities(&args.reference_modalities, &MODALITIES)
            .map_err(|e| format!("--reference-modalities: {e}"))?,
        max_bytes_per_part: (args.reference_max_bytes_per_part > 0)
            .then_some(args.reference_max_bytes_per_part),
        fault,
        ..ReferenceConfig::default()
    })
}

/// The AG-UI reference agent's shape: `--reference-accepts` (its own declaration) and
/// `--reference-fault`, read as an AG-UI fault.
fn agent_config(args: &ReferenceArgs) -> Result<AgentConfig, String> {
    let fault = parse_fault::<AguiFault>(
        "--reference-fault",
        args.reference_fault.as_deref(),
        &agui_fault_names(),
        AGUI_FAULT_LISTING,
    )?;
    let accepts: Vec<String> = if args.reference_accepts.is_empty() {
        DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.reference_accepts.clone()
    };
    AgentConfig::new(&accepts, fault).map_err(|e| format!("--reference-accepts: {e}"))
}

/// What the reference agent declares of itself, as mmconform records a declaration.
pub fn agent_declaration(agent: &AgentConfig) -> Result<Declaration, String> {
    let sources: Vec<String> = agent.sources().iter().map(|s| s.to_string()).collect();
    Declaration::new(
        agent.accepts.prefixes(),
        &sources,
        agent.echoes(),
        "reference agent",
    )
}

/// Where an embedded host listens for a run: an ephemeral loopback port.
pub(super) fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// Starts `embedded` and points `config` at it. `Err` is a tool problem (the host could
/// not bind), never a verdict.
pub async fn start(embedded: Embedded, config: &mut RunConfig) -> Result<RunningReference, String> {
    match embedded {
        Embedded::Host(host) => start_host(host, config).await,
        Embedded::Agent(agent) => start_agent(agent, config).await,
        Embedded::Openai(server) => embedded_openai::start(server, config).await,
        Embedded::Anthropic(server) => embedded_anthropic::start(server, config).await,
    }
}

/// The openwop host requires the run's token (so the auth case can run) and offers its
/// own mediaRefs (so the mediaRef positives run without flags).
async fn start_host(
    mut host: ReferenceConfig,
    config: &mut RunConfig,
) -> Result<RunningReference, String> {
    host.token = config.token.as_ref().map(|t| t.value.clone());
    for modality in &host.modalities {
        if let Some(media_ref) = reference_hosts::known_media_ref(modality) {
            config
                .media_refs
                .entry(modality.clone())
                .or_insert_with(|| media_ref.to_string());
        }
    }
    let running = reference_hosts::spawn(host, loopback())
        .await
        .map_err(|e| format!("cannot start the reference host: {e}"))?;
    let base_url = running.base_url();
    point(config, &base_url, format!("reference ({base_url})"))?;
    Ok(running)
}

/// The agent requires the run's token (so the auth case can run), serves the media a
/// url source points at, and holds a file for each kind it declares;
/// `--media-base-url` and `--media-ref` still win.
async fn start_agent(
    agent: AgentConfig,
    config: &mut RunConfig,
) -> Result<RunningReference, String> {
    let agent = agent.with_token(config.token.as_ref().map(|t| t.value.clone()));
    for kind in agent.accepts.kinds() {
        if let Some(id) = agui::known_file_id(kind) {
            config.media_refs.entry(kind.clone()).or_insert(id);
        }
    }
    let running = agui::spawn(agent, loopback())
        .await
        .map_err(|e| format!("cannot start the AG-UI reference agent: {e}"))?;
    let endpoint = agui::endpoint_url(&running);
    config
        .media_base_url
        .get_or_insert_with(|| agui::media_base_url(&endpoint));
    point(config, &endpoint, format!("reference agent ({endpoint})"))?;
    Ok(running)
}

pub(super) fn point(config: &mut RunConfig, url: &str, label: String) -> Result<(), String> {
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
