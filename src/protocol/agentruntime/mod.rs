//! AgentRuntime (RemoteClaw #385) through **bridge protocol v1**: the runtime's author
//! runs a small adapter process, the bridge, that mmconform starts once per request
//! (`--target-cmd`), writes one JSON line to and reads `AgentEvent` lines from. The
//! process is run by the generic client in `crate::process` (the peer of
//! `crate::http`); this folder frames the requests ([`bridge`]), reads the
//! declaration ([`describe`], [`declaration`]; `--accepts` overrides it), renders
//! `$media` as attachments ([`part`]), runs a case ([`case`]), buckets a run
//! ([`classify`]) and judges it ([`judge`]).

pub mod attachment;
pub mod bridge;
pub mod case;
pub mod classify;
pub mod declaration;
pub mod describe;
pub mod event;
pub mod evidence;
pub mod expect;
pub mod judge;
pub mod lint;
pub mod outbound;
pub mod outbound_file;
pub mod part;
pub mod run;
pub mod startup;

use crate::config::{RunConfig, Target};
use crate::process::LineLimits;
use crate::protocol::{Description, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind};
use crate::scenario::model::CaseSpec;
use serde_json::Value;
use std::sync::Arc;

/// The protocol name scenario files use (`profile: agentruntime`).
pub const PROFILE: &str = "agentruntime";
/// The scenario endpoint of a `describe` (decided on the run's one describe).
pub const DESCRIBE: &str = "describe";
/// The scenario endpoint of an `execute` (one bridge process each).
pub const EXECUTE: &str = "execute";
pub const ENDPOINTS: [&str; 2] = [DESCRIBE, EXECUTE];

/// The AgentRuntime protocol, as the registry (`crate::registry`) lists it.
pub struct Agentruntime;

/// What the AgentRuntime protocol says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "AgentRuntimes (RemoteClaw #385) through a bridge process: `--target-cmd`",
    target: TargetKind::Command {
        program: "a bridge",
        project_section: Some("agentruntime"),
    },
    token_env: None,
    offline: false,
    example: None,
    declaration: crate::protocol::UserDeclaration::AcceptsOnly {
        own: "the runtime's describe (--accepts overrides it)",
    },
    planned_on: PlannedOn::Target,
    media_ref_kinds: &crate::protocol::MEDIA_MODALITIES,
    options: &[],
    run_facts: &[],
    expect_keys: &[&expect::RUN],
};

impl Protocol for Agentruntime {
    fn description(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        let names = declaration::FACT_NAMES
            .iter()
            .map(|s| s.to_string())
            .collect();
        vec![(PROFILE.to_string(), Some(names))]
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_case(case, raw, base)
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        let command = match &config.target {
            Target::Command(command) => command.clone(),
            Target::Url(url) => {
                return Err(format!(
                    "an agentruntime run starts a bridge process: pass --target-cmd 'CMD ARGS', not the URL {url}"
                ));
            }
            Target::Offline => {
                return Err(
                    "an agentruntime run needs --target-cmd 'CMD ARGS' (or --target reference)"
                        .into(),
                );
            }
        };
        let bridge = bridge::Bridge {
            command,
            environment: config.agent.environment(),
            witness_url: config.witness_url.clone(),
            limits: LineLimits::for_body_cap(config.max_response_bytes),
            timeout: config.timeout,
            grace: bridge::GRACE.min(config.timeout),
        };
        Ok(Box::new(run::AgentruntimeRun::new(config.clone(), bridge)))
    }
}
