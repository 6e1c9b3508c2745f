//! Anthropic Messages as a host profile (`--profile anthropic`): the front door
//! `POST {base}/messages` that gateways (LiteLLM and others) open to bridge any model,
//! answered with a `message` object or, with `stream: true`, events from
//! `message_start` to `message_stop` (Anthropic API reference, Messages and Streaming
//! Messages). Calls carry `anthropic-version` and a `max_tokens`; the token travels
//! as `x-api-key`.
//!
//! Everything but the door is the `openai` profile's, as for `openai-responses`
//! (`protocol::openai`, whose `wire.rs` describes a door): the declaration
//! (`--accepts`, `--claims`; facts under `openai.*`), the model pick, the request
//! bounds, the judging. This folder holds what the door changes: [`part`] renders
//! `$media` into `image` / `document` blocks, and [`classify`] buckets its answers.

pub mod classify;
pub mod part;

use crate::protocol::door::wire::{Wire, api_base_target};
use crate::protocol::door::{Door, MODEL_OPTION};
use crate::protocol::{Description, PlannedOn, TargetKind};
use serde_json::json;

/// The profile name (`profile: anthropic`, `--profile anthropic`).
pub const PROFILE: &str = "anthropic";

/// The scenario endpoint name of a Messages call.
pub const ENDPOINT: &str = "messages";

// Where it lives under the API base, the version every call names and the header the
// token travels in are the wire's (`src/wire/anthropic`), described once.
use crate::wire::anthropic::{API_KEY_HEADER, API_VERSION, PATH, VERSION_HEADER};

/// The `max_tokens` a case's call asks for unless its body sets one (the API requires it).
pub const MAX_TOKENS: u64 = 256;

/// The part kinds a Messages model may take: images and documents (no audio block).
pub const KINDS: [&str; 2] = ["image", "file"];

/// The Messages door.
pub static MESSAGES: Wire = Wire {
    profile: PROFILE,
    endpoint: ENDPOINT,
    path: PATH,
    headers: &[(VERSION_HEADER, API_VERSION)],
    defaults: &[("max_tokens", MAX_TOKENS)],
    render: part::render,
    probe_body: |model, nonce| {
        json!({
            "model": model,
            "max_tokens": MAX_TOKENS,
            "messages": [{"role": "user", "content": format!("mmconform endpoint probe {nonce}")}],
        })
    },
    stream_classifier: || Box::new(classify::EventClassifier::default()),
    classify_body: classify::classify_body,
};

/// The Messages protocol, as the registry (`crate::registry`) lists it.
pub static ANTHROPIC: Door = Door {
    description: &DESCRIPTION,
    wire: &MESSAGES,
    api_key_header: Some(API_KEY_HEADER),
};

/// What the Messages profile says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "Anthropic Messages (`POST {base}/messages`) of gateways and model servers",
    target: TargetKind::Url(crate::protocol::UrlTarget {
        env: "ANTHROPIC_BASE_URL",
        ..api_base_target(PATH)
    }),
    token_env: Some("ANTHROPIC_API_KEY"),
    offline: false,
    example: None,
    declaration: crate::protocol::UserDeclaration::AcceptsOrClaims,
    planned_on: PlannedOn::DeclarationOrTextOnly,
    media_ref_kinds: &KINDS,
    options: &[&MODEL_OPTION],
    run_facts: &[],
    expect_keys: &crate::protocol::door::DOOR_KEYS,
};
