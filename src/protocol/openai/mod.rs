//! The OpenAI-compatible Chat Completions wire (docs/wire.md, "OpenAI-compatible"), the
//! wire llm-provider 0015 maps content blocks onto, and the one most model servers,
//! gateways and proxies speak: `POST {base}/chat/completions`, answered with a
//! `chat.completion` or, with `stream: true`, a chunk stream ending in `data: [DONE]`.
//!
//! There is no capability discovery, so what the model takes is declared
//! ([`declaration`]; none means text-only). [`part`] renders `$media` into
//! `image_url` / `input_audio` / `file` parts, [`read`] POSTs a case and reads the
//! answer within bounds, [`classify`] puts it into one bucket, [`judge`] judges the
//! stream expectations on it, and [`models`] picks the model when `--model` is absent.

pub mod case;
pub mod classify;
pub mod declaration;
pub mod evidence;
pub mod judge;
pub mod lint;
pub mod models;
pub mod part;
pub mod probe_hint;
pub mod read;
pub mod run;
pub mod stream_reading;
pub mod usage;
pub mod wire;

pub use classify::CompletionEvidence;
pub use declaration::Declaration;

use crate::config::RunConfig;
use crate::protocol::options::{OptionSpec, ProtocolOptions};
use crate::protocol::{Description, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind};
use crate::scenario::model::CaseSpec;
use serde_json::Value;
use std::sync::Arc;

/// The scenario endpoint name of a Chat Completions call.
pub const ENDPOINT: &str = "chat-completions";

/// Where it lives under the API base.
pub const PATH: &str = "/chat/completions";

/// The protocol name scenario files use (`profile: openai`).
pub const PROFILE: &str = "openai";

/// The Chat Completions door.
pub static CHAT: wire::Wire = wire::Wire {
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

/// The part kinds a model may take, named for the Chat Completions part each travels in
/// (`image_url`, `input_audio`, `file`).
pub const KINDS: [&str; 3] = ["image", "audio", "file"];

/// How media may be given: a data URL (or base64), an http(s) URL, a file id.
pub const SOURCE_KINDS: [&str; 3] = ["data", "http", "file_id"];

/// The part kind a MIME type travels in.
pub fn kind_of_mime(mime: &str) -> &'static str {
    let essence = mime.split(';').next().unwrap_or("").trim();
    match essence
        .split('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
        .as_str()
    {
        "image" => "image",
        "audio" => "audio",
        _ => "file",
    }
}

/// The OpenAI-compatible protocol, as the registry (`crate::registry`) lists it.
pub struct Openai;

/// What the Chat Completions profile says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "OpenAI-compatible Chat Completions endpoints (model servers, gateways, proxies)",
    target: TargetKind::Url(wire::api_base_target(PATH)),
    token_env: Some(TOKEN_ENV),
    offline: false,
    planned_on: PlannedOn::DeclarationOrTextOnly,
    media_ref_kinds: &KINDS,
    options: &[&MODEL_OPTION],
    run_facts: &[],
};

/// The variable the token of an OpenAI-compatible endpoint is read from.
pub const TOKEN_ENV: &str = "OPENAI_API_KEY";

/// The option naming the model every request names.
pub const MODEL: &str = "model";

/// `--model` (project file: `model`), the option every model door takes.
pub static MODEL_OPTION: OptionSpec = OptionSpec {
    project_key: Some("model"),
    ..OptionSpec::flag(
        MODEL,
        "NAME",
        "openai: the model every request names; when absent, the one model `GET {base}/models` lists (more or fewer is a usage error naming them).",
    )
};

/// The model the run names: `--model`, the one `GET {base}/models` listed, or the
/// reference server's.
pub fn model(options: &ProtocolOptions) -> Option<&str> {
    options.value(MODEL).map(str::trim)
}

/// `--model` must name a model when given.
pub fn check_model(options: &ProtocolOptions) -> Result<Vec<String>, String> {
    match model(options) {
        Some("") => Err("--model must name a model".into()),
        _ => Ok(Vec::new()),
    }
}

impl Protocol for Openai {
    fn description(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        vec![(
            PROFILE.to_string(),
            Some(
                declaration::FACT_NAMES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        )]
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_case(case, raw, base)
    }

    fn check_options(
        &self,
        options: &crate::protocol::options::ProtocolOptions,
    ) -> Result<Vec<String>, String> {
        check_model(options)
    }

    fn prepare<'a>(
        &'a self,
        config: &'a mut RunConfig,
        client: &'a crate::protocol::ClientMaker,
    ) -> futures_util::future::BoxFuture<'a, Result<(), String>> {
        models::prepare(&CHAT, config, client)
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        let declaration = Declaration::from_claims(&config.claims)?;
        Ok(Box::new(run::OpenaiRun::new(
            &CHAT,
            config.clone(),
            declaration,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_types_map_to_the_part_they_travel_in() {
        assert_eq!(kind_of_mime("image/webp"), "image");
        assert_eq!(kind_of_mime("Audio/mpeg"), "audio");
        assert_eq!(kind_of_mime("application/pdf"), "file");
        assert_eq!(kind_of_mime("text/plain; charset=utf-8"), "file");
    }
}
