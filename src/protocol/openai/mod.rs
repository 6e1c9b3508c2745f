//! The OpenAI-compatible Chat Completions wire (docs/wire.md, "OpenAI-compatible"), the
//! wire llm-provider 0015 maps content blocks onto, and the one most model servers,
//! gateways and proxies speak: `POST {base}/chat/completions`, answered with a
//! `chat.completion` or, with `stream: true`, a chunk stream ending in `data: [DONE]`.
//!
//! What every model door shares (the declaration, the model pick, the request bounds,
//! the judging) is `protocol::door`'s; this folder holds the Chat door: [`part`]
//! renders `$media` into `image_url` / `input_audio` / `file` parts and [`classify`]
//! buckets its answers.

pub mod classify;
pub mod part;

use crate::protocol::door::wire::{Wire, api_base_target};
use crate::protocol::door::{DOOR_KEYS, Door, KINDS, MODEL_OPTION};
use crate::protocol::{Description, PlannedOn, TargetKind};

/// The scenario endpoint name of a Chat Completions call.
pub const ENDPOINT: &str = "chat-completions";

// Where it lives under the API base: the wire's path (`src/wire/chat`).
use crate::wire::chat::PATH;

/// The protocol name scenario files use (`profile: openai`).
pub const PROFILE: &str = "openai";

/// The Chat Completions door.
pub static CHAT: Wire = Wire {
    profile: PROFILE,
    endpoint: ENDPOINT,
    path: PATH,
    headers: &[],
    defaults: &[],
    render: part::render,
    probe_body: |model, nonce| {
        serde_json::json!({
            "model": model,
            "messages": [{"role": "user", "content": format!("mmconform endpoint probe {nonce}")}],
        })
    },
    stream_classifier: || Box::new(classify::ChunkClassifier::default()),
    classify_body: classify::classify_body,
};

/// The OpenAI-compatible protocol, as the registry (`crate::registry`) lists it.
pub static OPENAI: Door = Door {
    description: &DESCRIPTION,
    wire: &CHAT,
    api_key_header: None,
};

/// What the Chat Completions profile says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "OpenAI-compatible Chat Completions endpoints (model servers, gateways, proxies)",
    target: TargetKind::Url(api_base_target(PATH)),
    token_env: Some(crate::protocol::door::wire::API_KEY_ENV),
    offline: false,
    example: Some(
        "--profile openai --target http://localhost:8000/v1 --model llava --accepts image/",
    ),
    declaration: crate::protocol::UserDeclaration::AcceptsOrClaims,
    planned_on: PlannedOn::DeclarationOrTextOnly,
    media_ref_kinds: &KINDS,
    options: &[&MODEL_OPTION],
    run_facts: &[],
    expect_keys: &DOOR_KEYS,
};
