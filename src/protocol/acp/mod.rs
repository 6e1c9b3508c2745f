//! The Agent Client Protocol (agentclientprotocol.com, protocol version 1): JSON-RPC 2.0
//! as newline-delimited JSON on an agent's stdin/stdout. mmconform is the client: ONE
//! agent process per run ([`agent`], on [`crate::process::Peer`]), `initialize` once (its
//! `promptCapabilities` are the declaration the pack is planned on, [`declaration`]),
//! then per case a fresh `session/new` and a `session/prompt` whose `ContentBlock`s come
//! from the case's template ([`part`] renders `$media`), read until its `stopReason`
//! ([`connection`]). The protocol's own crate (`agent-client-protocol-schema`) reads the
//! answers; requests are built from templates, because a tester must also send what the
//! types cannot express (malformed blocks).

pub mod agent;
pub mod case;
pub mod connection;
pub mod declaration;
pub mod evidence;
pub mod expect;
pub mod gateway;
pub mod judge;
pub mod lint;
pub mod part;
pub mod run;
pub mod unadvertised;

use crate::config::{RunConfig, Target};
use crate::process::LineLimits;
use crate::protocol::{Description, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind};
use crate::scenario::model::CaseSpec;
use serde_json::Value;
use std::sync::Arc;

/// The protocol name scenario files use (`profile: acp`).
pub const PROFILE: &str = "acp";
/// The scenario endpoint of the `initialize` case (decided on the run's one initialize).
pub const INITIALIZE: &str = "initialize";
/// The scenario endpoint of a prompt case (`session/new`, then `session/prompt`).
pub const PROMPT: &str = "session/prompt";
pub const ENDPOINTS: [&str; 2] = [INITIALIZE, PROMPT];

/// The ACP profile, as the registry (`crate::registry`) lists it.
pub struct Acp;

/// What the ACP profile says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "Agent Client Protocol agents (JSON-RPC on stdio): one agent process per run, `--target-cmd`",
    target: TargetKind::Command {
        program: "an ACP agent",
        project_section: None,
    },
    token_env: None,
    offline: false,
    example: None,
    declaration: crate::protocol::UserDeclaration::None {
        own: "the agent's initialize (promptCapabilities)",
    },
    planned_on: PlannedOn::Target,
    media_ref_kinds: &crate::protocol::MEDIA_MODALITIES,
    options: &[&agent::AUTH_OPTION],
    run_facts: &[],
    expect_keys: &[&expect::ACP],
};

impl Protocol for Acp {
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
            _ => {
                return Err(
                    "an acp run starts the agent: pass --target-cmd 'CMD ARGS' (or --target reference)"
                        .into(),
                );
            }
        };
        let agent = agent::Agent {
            command,
            witness_url: config.witness_url.clone(),
            settings: config.agent.clone(),
            auth: config
                .options
                .value(agent::AUTH_OPTION.name)
                .map(String::from),
            limits: LineLimits::for_body_cap(config.max_response_bytes),
            timeout: config.timeout,
            grace: agent::GRACE.min(config.timeout),
        };
        Ok(Box::new(run::AcpRun::new(agent)))
    }
}
