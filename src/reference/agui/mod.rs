//! The AG-UI reference agent (`reference_hosts::agui`): started in this process for
//! `--target reference --profile agui` (runs go to its endpoint `/agui`), served by
//! `serve-reference --profile agui`, and calibrated in the shapes of [`shapes`].

mod shapes;

use super::serve::{self, ServeFlag, ServeForm, ServeRequest};
use super::{EmbeddedHost, ReferenceFlag, ReferenceHost, ReferenceRequest, ReferenceTarget, Shape};
use crate::config::{EmbeddedClaims, RunConfig};
use crate::exit::Ending;
use crate::protocol::agui::Declaration;
use futures_util::future::BoxFuture;
use reference_hosts::agui::{self, AgentConfig, AguiFault, DEFAULT_ACCEPTS};
use reference_hosts::{HostFault, RunningReference};

/// The AG-UI reference agent, as the registry lists it.
pub static HOST: AguiHost = AguiHost;

pub struct AguiHost;

static FORMS: [ServeForm; 1] = [ServeForm {
    profile: "agui",
    help: "The AG-UI reference agent (run endpoint `/agui`)",
    door: "",
    takes: &[ServeFlag::Accepts],
}];

fn parse(flag: &str, given: Option<&str>) -> Result<Option<AguiFault>, String> {
    let names: Vec<&str> = AguiFault::all().iter().map(|f| f.name()).collect();
    let listing = super::fault_listing(&FORMS[0], false);
    super::parse_fault::<AguiFault>(flag, given, &names, &listing)
}

/// The agent declaring `accepts` (its default when empty), broken by `fault`.
fn agent(accepts: &[String], fault: Option<AguiFault>) -> Result<AgentConfig, String> {
    let accepts: Vec<String> = if accepts.is_empty() {
        DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect()
    } else {
        accepts.to_vec()
    };
    AgentConfig::new(&accepts, fault)
}

/// What the reference agent declares of itself, as a run records a declaration.
fn claims(agent: &AgentConfig) -> EmbeddedClaims {
    EmbeddedClaims {
        accepts: agent.accepts.prefixes().to_vec(),
        sources: agent.sources().iter().map(|s| s.to_string()).collect(),
        echo: agent.echoes(),
        detail: false,
        streaming: false,
        by: "reference agent".into(),
    }
}

impl ReferenceHost for AguiHost {
    fn name(&self) -> &'static str {
        "agui"
    }

    /// Some names exist in other tables too (`refuses-string-content`).
    fn variant_prefix(&self) -> &'static str {
        "agui:"
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(AguiFault::all())
    }

    fn takes(&self) -> &'static [ReferenceFlag] {
        &[ReferenceFlag::Accepts]
    }

    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let fault = parse("--reference-fault", request.fault.as_deref())?;
        let agent = agent(&request.accepts, fault)
            .map_err(|e| format!("--reference-accepts: {e}"))?
            .with_upstream(request.upstream.clone());
        if request.user_declared {
            return Err(
                "the reference agent declares itself: use --reference-accepts, \
                        not --accepts/--claims"
                    .into(),
            );
        }
        Ok(ReferenceTarget::Embedded(Box::new(EmbeddedAgent(agent))))
    }

    fn serve_forms(&self) -> &'static [ServeForm] {
        &FORMS
    }

    fn serve(&self, form: &ServeForm, request: &ServeRequest) -> Result<Ending, Ending> {
        if request.list_faults {
            return Ok(serve::list_faults(&self.faults(), form.door));
        }
        let fault = parse("--fault", request.fault.as_deref()).map_err(Ending::Usage)?;
        let config = agent(&request.accepts, fault)
            .map_err(|e| Ending::Usage(format!("--accepts: {e}")))?
            .with_upstream(request.upstream()?)
            .with_token(request.token()?);
        let declaration =
            declaration(&config).map_err(|e| Ending::Usage(format!("--accepts: {e}")))?;
        let addr = request.addr;
        serve::runtime()?.block_on(async move {
            let running = agui::spawn_with_service_time(config.clone(), addr, request.delay).await;
            serve::until_interrupted(running, addr, |running| {
                format!(
                    "mmconform AG-UI reference agent listening on {} ({}{}{}{})",
                    agui::endpoint_url(running),
                    declaration.summary(),
                    ServeRequest::upstream_banner(config.upstream.as_ref()),
                    request.service_time_banner(),
                    serve::fault_banner(config.fault.as_ref().map(|f| f as &dyn HostFault)),
                )
            })
            .await
        })
    }

    fn shapes(&self) -> Vec<Shape> {
        shapes::shapes()
    }
}

/// What the reference agent declares of itself, as mmconform records a declaration.
fn declaration(agent: &AgentConfig) -> Result<Declaration, String> {
    let sources: Vec<String> = agent.sources().iter().map(|s| s.to_string()).collect();
    Declaration::new(
        agent.accepts.prefixes(),
        &sources,
        agent.echoes(),
        "reference agent",
    )
}

/// The agent a run asked for, not started yet.
#[derive(Debug)]
struct EmbeddedAgent(AgentConfig);

/// The agent plans the run with its own declaration, serves the media url sources point
/// at, holds a file for each kind it declares, and requires the run's token (so the
/// auth case can run); `--media-base-url` and `--media-ref` still win.
async fn start_agent(
    agent: AgentConfig,
    config: &mut RunConfig,
) -> Result<RunningReference, String> {
    for kind in agent.accepts.kinds() {
        if let Some(id) = agui::known_file_id(kind) {
            config.media_refs.entry(kind.clone()).or_insert(id);
        }
    }
    let running = agui::spawn(agent, super::loopback())
        .await
        .map_err(|e| format!("cannot start the AG-UI reference agent: {e}"))?;
    let endpoint = agui::endpoint_url(&running);
    config
        .media_base_url
        .get_or_insert_with(|| agui::media_base_url(&endpoint));
    super::point(config, &endpoint, format!("reference agent ({endpoint})"))?;
    Ok(running)
}

impl EmbeddedHost for EmbeddedAgent {
    fn claims(&self) -> Option<EmbeddedClaims> {
        Some(claims(&self.0))
    }

    fn default_upstream(&mut self, url: url::Url) {
        self.0.upstream.get_or_insert(url);
    }

    fn start<'a>(
        self: Box<Self>,
        config: &'a mut RunConfig,
    ) -> BoxFuture<'a, Result<RunningReference, String>> {
        let agent = self
            .0
            .with_token(config.token.as_ref().map(|t| t.value.clone()));
        Box::pin(start_agent(agent, config))
    }
}
