//! The A2A reference agent (`reference_hosts::a2a`): started in this process for
//! `--target reference --profile a2a` (the run's target is its base URL, where its
//! card is), served by `serve-reference --profile a2a`, and calibrated in the shapes
//! of [`shapes`]. It declares itself in its card: a run reads what it accepts there.

mod shapes;

use super::serve::{self, ServeFlag, ServeForm, ServeRequest};
use super::{EmbeddedHost, ReferenceFlag, ReferenceHost, ReferenceRequest, ReferenceTarget, Shape};
use crate::config::RunConfig;
use crate::exit::Ending;
use futures_util::future::BoxFuture;
use reference_hosts::a2a::{self, A2aFault, AgentConfig, Binding, DEFAULT_ACCEPTS, Version};
use reference_hosts::{HostFault, RunningReference};

/// The A2A reference agent, as the registry lists it.
pub static AGENT: A2aAgent = A2aAgent;

pub struct A2aAgent;

static FORMS: [ServeForm; 1] = [ServeForm {
    profile: "a2a",
    help: "The A2A reference agent (its card at /.well-known/agent-card.json)",
    door: "",
    takes: &[ServeFlag::Accepts],
}];

/// The interfaces `--target reference` and `serve-reference` declare: JSON-RPC and
/// HTTP+JSON at 1.0, and JSON-RPC at 0.3 (so a run sees both versions).
pub const INTERFACES: [(Binding, Version); 3] = [
    (Binding::JsonRpc, Version::V1),
    (Binding::HttpJson, Version::V1),
    (Binding::JsonRpc, Version::V03),
];

fn parse(flag: &str, given: Option<&str>) -> Result<Option<A2aFault>, String> {
    let names: Vec<&str> = A2aFault::all().iter().map(|f| f.name()).collect();
    let listing = super::fault_listing(&FORMS[0], false);
    super::parse_fault::<A2aFault>(flag, given, &names, &listing)
}

/// The agent accepting `accepts` (its default when empty), broken by `fault`.
fn agent(accepts: &[String], fault: Option<A2aFault>) -> Result<AgentConfig, String> {
    let accepts: Vec<String> = if accepts.is_empty() {
        DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect()
    } else {
        accepts.to_vec()
    };
    Ok(AgentConfig::new(&accepts, fault)?.with_interfaces(INTERFACES.to_vec()))
}

impl ReferenceHost for A2aAgent {
    fn name(&self) -> &'static str {
        "a2a"
    }

    fn variant_prefix(&self) -> &'static str {
        "a2a:"
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(A2aFault::all())
    }

    fn takes(&self) -> &'static [ReferenceFlag] {
        &[ReferenceFlag::Accepts]
    }

    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let fault = parse("--reference-fault", request.fault.as_deref())?;
        let agent = agent(&request.accepts, fault)
            .map_err(|e| format!("--reference-accepts: {e}"))?
            .with_upstream(request.upstream.clone());
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
        let addr = request.addr;
        serve::runtime()?.block_on(async move {
            let running = a2a::spawn_with_service_time(config.clone(), addr, request.delay).await;
            serve::until_interrupted(running, addr, |running| {
                format!(
                    "mmconform A2A reference agent listening on {} (card {}{}; accepts {}{}{}{})",
                    running.base_url(),
                    running.base_url(),
                    a2a::CARD_PATH,
                    config.accepts.prefixes().join(", "),
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

/// The agent a run asked for, not started yet.
#[derive(Debug)]
struct EmbeddedAgent(AgentConfig);

/// Starts the agent (requiring the run's token, so the authentication case can run)
/// and points the run at it.
async fn start_agent(
    agent: AgentConfig,
    config: &mut RunConfig,
) -> Result<RunningReference, String> {
    let running = a2a::spawn(agent, super::loopback())
        .await
        .map_err(|e| format!("cannot start the A2A reference agent: {e}"))?;
    let base = running.base_url();
    super::point(config, &base, format!("reference agent ({base})"))?;
    Ok(running)
}

impl EmbeddedHost for EmbeddedAgent {
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
