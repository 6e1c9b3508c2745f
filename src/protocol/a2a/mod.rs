//! A2A (Agent2Agent; docs/guide/profiles/a2a.md): an agent declares in its agent card
//! what it accepts (`defaultInputModes`, skills' `inputModes`) and which interfaces it
//! offers; mmconform reads the card (`card.rs`, `declaration.rs`, `security.rs`), plans
//! every case on each interface it speaks (`interface.rs`: JSON-RPC and HTTP+JSON, at
//! 1.0 and 0.3; the first is the run's own context, the others variants tagged by what
//! differs), sends messages built in the interface's version (`request.rs`, `part.rs`),
//! reads the answers (`answer.rs`, `classify.rs`, `stream.rs`), follows tasks with
//! GetTask (`exchange.rs`), and judges them (`judge.rs`, `case.rs`; the card cases on
//! hand, `card_case.rs`). The run is `run.rs`.

pub mod answer;
pub mod card;
pub mod card_case;
pub mod case;
pub mod classify;
pub mod declaration;
pub mod discovery;
pub mod evidence;
pub mod exchange;
pub mod expect;
pub mod interface;
pub mod judge;
pub mod lint;
pub mod part;
pub mod probe;
pub mod request;
pub mod run;
pub mod security;
pub mod stream;
pub mod unadvertised;

use crate::config::RunConfig;
use crate::protocol::{
    Description, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind, UrlTarget,
};
use crate::scenario::model::CaseSpec;
use serde_json::Value;
use std::sync::Arc;

/// The protocol name scenario files use (`profile: a2a`).
pub const PROFILE: &str = "a2a";

/// A case judged on the agent card the run fetched.
pub const ENDPOINT_CARD: &str = "a2a-card";
/// A message sent with SendMessage (0.3 `message/send`).
pub const ENDPOINT_SEND: &str = "a2a-send";
/// A message sent with SendStreamingMessage (0.3 `message/stream`).
pub const ENDPOINT_STREAM: &str = "a2a-stream";

/// Where the agent card is (§8.2), below the target.
pub const CARD_PATH: &str = "/.well-known/agent-card.json";
/// Where drafts before 0.3 put it; read when the card is not at [`CARD_PATH`].
pub const OLD_CARD_PATH: &str = "/.well-known/agent.json";

/// Names available under `a2a.` in predicates and placeholders (checked by `lint`).
pub const FACT_NAMES: [&str; 18] = [
    "cardVersion",
    "cardPath",
    "interface",
    "version",
    "binding",
    "streaming",
    "securityRequired",
    "accepts",
    "acceptedMimes",
    "undeclaredMimes",
    "firstMime",
    "firstAccepted",
    "firstUndeclared",
    "otherKindMime",
    "declaredBy",
    "modesAreMediaTypes",
    "interfaces",
    "tag",
];

/// The A2A protocol, as the registry (`crate::registry`) lists it.
pub struct A2a;

static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "A2A agents (Agent2Agent 1.0 and 0.3): the agent card, and messages on every JSON-RPC and HTTP+JSON interface it declares",
    target: TargetKind::Url(UrlTarget {
        env: "A2A_TARGET_URL",
        what: Some("the agent's base URL, below which /.well-known/agent-card.json is served"),
        appended_path: Some(CARD_PATH),
        as_given: false,
    }),
    token_env: Some("A2A_TOKEN"),
    offline: false,
    planned_on: PlannedOn::Target,
    declaration: crate::protocol::UserDeclaration::AcceptsOnly {
        own: "the agent card's defaultInputModes",
    },
    example: Some("--profile a2a --target http://localhost:9999"),
    media_ref_kinds: &[],
    options: &[],
    run_facts: &[],
    expect_keys: &[&crate::protocol::description::STREAM, &expect::A2A],
};

impl Protocol for A2a {
    fn description(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        vec![(
            PROFILE.to_string(),
            Some(FACT_NAMES.iter().map(|s| s.to_string()).collect()),
        )]
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_case(case, raw, base)
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        if config.claims.file.is_some() {
            return Err(
                "--claims: an A2A agent declares what it accepts in its agent card; \
                 pass --accepts to judge it against other media types instead"
                    .into(),
            );
        }
        let overriding = (!config.claims.accepts.is_empty()).then(|| config.claims.accepts.clone());
        if let Some(list) = &overriding {
            declaration::Declaration::from_flag(list, None)?;
        }
        Ok(Box::new(run::A2aRun::new(config.clone(), overriding)))
    }
}
