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

use crate::protocol::door::wire::{Wire, api_base_target};
use crate::protocol::door::{Door, MODEL_OPTION};
use crate::protocol::{Description, PlannedOn, TargetKind};
use serde_json::json;

/// The profile name (`profile: openai-responses`, `--profile openai-responses`).
pub const PROFILE: &str = "openai-responses";

/// The scenario endpoint name of a Responses call.
pub const ENDPOINT: &str = "responses";

// Where it lives under the API base: the wire's path (`src/wire/responses`).
use crate::wire::responses::PATH;

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
pub static OPENAI_RESPONSES: Door = Door {
    description: &DESCRIPTION,
    wire: &RESPONSES,
    api_key_header: None,
};

/// What the Responses profile says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "The OpenAI Responses API (`POST {base}/responses`) of gateways and model servers",
    target: TargetKind::Url(api_base_target(PATH)),
    token_env: Some(crate::protocol::door::wire::API_KEY_ENV),
    offline: false,
    example: None,
    declaration: crate::protocol::UserDeclaration::AcceptsOrClaims,
    planned_on: PlannedOn::DeclarationOrTextOnly,
    media_ref_kinds: &crate::protocol::door::KINDS,
    options: &[&MODEL_OPTION],
    run_facts: &[],
    expect_keys: &crate::protocol::door::DOOR_KEYS,
};
