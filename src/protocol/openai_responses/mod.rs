//! The OpenAI Responses wire as a host profile (`--profile openai-responses`): the
//! front door `POST {base}/responses` that gateways and model servers open beside
//! Chat Completions, answered with a `response` object or, with `stream: true`,
//! `response.*` events ending in `response.completed` (OpenAI API reference,
//! "Responses").
//!
//! Everything but the door is the `openai` profile's (`protocol::openai`): the
//! declaration (`--accepts`, `--claims`; facts under `openai.*`), the model pick, the
//! request bounds, the judging. This folder holds what the door changes: [`part`]
//! renders `$media` into `input_image` / `input_file` / `input_audio` parts, and
//! [`classify`] buckets its answers.

pub mod classify;
pub mod part;

use crate::config::RunConfig;
use crate::protocol::openai::wire::Wire;
use crate::protocol::openai::{Declaration, lint, run};
use crate::protocol::{Description, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind};
use crate::scenario::model::CaseSpec;
use serde_json::{Value, json};
use std::sync::Arc;

/// The profile name (`profile: openai-responses`, `--profile openai-responses`).
pub const PROFILE: &str = "openai-responses";

/// The scenario endpoint name of a Responses call.
pub const ENDPOINT: &str = "responses";

/// Where it lives under the API base.
pub const PATH: &str = "/responses";

/// The Responses door.
pub static RESPONSES: Wire = Wire {
    profile: PROFILE,
    endpoint: ENDPOINT,
    path: PATH,
    headers: &[],
    defaults: &[],
    render: part::render,
    probe_body: |model, nonce| json!({"model": model, "input": format!("mmconform endpoint probe {nonce}")}),
    stream_classifier: || Box::new(classify::EventClassifier::default()),
    classify_body: classify::classify_body,
};

/// The Responses protocol, as the registry (`crate::registry`) lists it.
pub struct OpenaiResponses;

/// What the Responses profile says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "The OpenAI Responses API (`POST {base}/responses`) of gateways and model servers",
    target: TargetKind::Url(crate::protocol::openai::wire::api_base_target(PATH)),
    token_env: Some(crate::protocol::openai::TOKEN_ENV),
    offline: false,
    planned_on: PlannedOn::DeclarationOrTextOnly,
    media_ref_kinds: &crate::protocol::openai::KINDS,
    options: &[&crate::protocol::openai::MODEL_OPTION],
    run_facts: &[],
};

impl Protocol for OpenaiResponses {
    fn description(&self) -> &'static Description {
        &DESCRIPTION
    }

    /// The declaration's facts are `openai.*`, registered by the `openai` profile.
    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        Vec::new()
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_door(ENDPOINT, PROFILE, case, raw, base)
    }

    fn check_options(
        &self,
        options: &crate::protocol::options::ProtocolOptions,
    ) -> Result<Vec<String>, String> {
        crate::protocol::openai::check_model(options)
    }

    fn prepare<'a>(
        &'a self,
        config: &'a mut RunConfig,
        client: &'a crate::protocol::ClientMaker,
    ) -> futures_util::future::BoxFuture<'a, Result<(), String>> {
        crate::protocol::openai::models::prepare(&RESPONSES, config, client)
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        let declaration = Declaration::from_claims(&config.claims)?;
        Ok(Box::new(run::OpenaiRun::new(
            &RESPONSES,
            config.clone(),
            declaration,
        )))
    }
}
