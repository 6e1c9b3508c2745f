//! The model-API front doors (`--profile openai`, `openai-responses`, `anthropic`):
//! what every door shares, so that each door's folder holds only what it changes (its
//! [`wire::Wire`]: endpoint, path, headers, part spelling, answer reading). There is no
//! capability discovery, so what the model takes is declared ([`declaration`]; none
//! means text-only; its facts are the doors' one root, [`FACTS_ROOT`]); [`run`] probes
//! the door with a plain-text call and sends each case ([`case`]) naming the run's
//! model (`--model`, or the one [`models`] finds), [`read`] reads the answer within
//! bounds, [`classify`] and [`stream_reading`] bucket it, [`judge`] judges the stream
//! expectations on it and [`usage`] `expect.usage`.

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
use crate::protocol::{ClientMaker, Description, LintFinding, Protocol, ProtocolRun};
use crate::scenario::model::CaseSpec;
use futures_util::future::BoxFuture;
use serde_json::Value;
use std::sync::Arc;

/// The planning-context root every door's declaration facts live under (`openai.kinds`,
/// ...): the doors share one vocabulary, so a pack reads the same facts at each.
pub const FACTS_ROOT: &str = "openai";

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

/// The keys of `expect:` every door reads: the stream and `usage`.
pub static DOOR_KEYS: [&crate::protocol::ExpectKey; 2] =
    [&crate::protocol::description::STREAM, &usage::USAGE];

/// The option naming the model every request names.
pub const MODEL: &str = "model";

/// `--model` (project file: `model`), the option every door takes.
pub static MODEL_OPTION: OptionSpec = OptionSpec {
    project_key: Some("model"),
    ..OptionSpec::flag(
        MODEL,
        "NAME",
        "the model every request names; when absent, the one model `GET {base}/models` lists (more or fewer is a usage error naming them).",
    )
};

/// The model the run names: `--model`, the one `GET {base}/models` listed, or the
/// reference server's.
pub fn model(options: &ProtocolOptions) -> Option<&str> {
    options.value(MODEL).map(str::trim)
}

/// A door as a protocol: its description and [`wire::Wire`]; the rest is the doors'.
pub struct Door {
    pub description: &'static Description,
    pub wire: &'static wire::Wire,
    /// The header the token travels in (`x-api-key`); `None`: a bearer token.
    pub api_key_header: Option<&'static str>,
}

impl Protocol for Door {
    fn description(&self) -> &'static Description {
        self.description
    }

    /// The declaration's facts, `openai.*`, the same at every door.
    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        let names = declaration::FACT_NAMES.iter().map(|s| s.to_string());
        vec![(FACTS_ROOT.to_string(), Some(names.collect()))]
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_door(self.wire.endpoint, self.wire.profile, case, raw, base)
    }

    /// `--model` must name a model when given.
    fn check_options(&self, options: &ProtocolOptions) -> Result<Vec<String>, String> {
        match model(options) {
            Some("") => Err("--model must name a model".into()),
            _ => Ok(Vec::new()),
        }
    }

    fn prepare<'a>(
        &'a self,
        config: &'a mut RunConfig,
        client: &'a ClientMaker,
    ) -> BoxFuture<'a, Result<(), String>> {
        models::prepare(self.wire, config, client)
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        let declaration = Declaration::from_claims(&config.claims)?;
        Ok(Box::new(run::DoorRun::new(
            self.wire,
            config.clone(),
            declaration,
        )))
    }

    fn api_key_header(&self) -> Option<&'static str> {
        self.api_key_header
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
