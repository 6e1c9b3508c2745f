//! What differs between the model-API front doors this folder runs: Chat Completions
//! (`--profile openai`), Responses (`--profile openai-responses`,
//! `protocol::openai_responses`) and Anthropic Messages (`--profile anthropic`,
//! `protocol::anthropic`). The declaration, the model pick, the request bounds and the
//! judging are the same; a door names its endpoint and path, the headers and body
//! fields it requires, renders `$media` in its spelling, says how the probe asks, and
//! classifies its answers.

use super::CompletionEvidence;
use super::part::PartInputs;
use crate::protocol::sse_read::{EventSink, ReadEnd};
use crate::scenario::model::MediaSpec;
use serde_json::Value;

/// One door's classifier of a streamed answer.
pub trait StreamClassifier: EventSink + Send {
    /// The evidence for the answer, once its stream has ended.
    fn finish(
        self: Box<Self>,
        status: u16,
        content_type: Option<String>,
        event_stream: bool,
        ended_by: ReadEnd,
        bytes: usize,
    ) -> CompletionEvidence;
}

impl EventSink for Box<dyn StreamClassifier> {
    fn on_data(&mut self, data: &str) {
        (**self).on_data(data)
    }
    fn framing(&mut self, problem: String) {
        (**self).framing(problem)
    }
    fn terminal_seen(&self) -> bool {
        (**self).terminal_seen()
    }
}

/// Renders one `$media` into a content part of the door's spelling.
pub type RenderPart =
    fn(&MediaSpec, &dyn Fn(&str) -> Option<Value>, &PartInputs) -> Result<Value, String>;

/// Classifies an answer not read as an event stream: status, content type, whether a
/// stream was asked for, the body, how reading ended.
pub type ClassifyBody = fn(u16, Option<String>, bool, &[u8], ReadEnd) -> CompletionEvidence;

pub use crate::protocol::UrlTarget;

/// The variable an OpenAI-compatible endpoint's token is read from.
pub const API_KEY_ENV: &str = "OPENAI_API_KEY";

/// A door's target: the API base (`http://host:port/v1`), or `OPENAI_BASE_URL` when
/// `--target` is absent; a target already ending with the door's `path` is refused.
pub const fn api_base_target(path: &'static str) -> UrlTarget {
    UrlTarget {
        env: "OPENAI_BASE_URL",
        what: Some("the API base, http://host:port/v1"),
        appended_path: Some(path),
        as_given: false,
    }
}

/// One OpenAI front door.
pub struct Wire {
    /// The profile name (`profile:`, `--profile`, the reports).
    pub profile: &'static str,
    /// The scenario endpoint name.
    pub endpoint: &'static str,
    /// Where it lives under the API base.
    pub path: &'static str,
    /// Headers every call carries (Anthropic's `anthropic-version`).
    pub headers: &'static [(&'static str, &'static str)],
    /// Body fields the door requires, added where a scenario does not set them
    /// (Anthropic's `max_tokens`).
    pub defaults: &'static [(&'static str, u64)],
    pub render: RenderPart,
    /// The plain-text probe body for a model and a nonce.
    pub probe_body: fn(&str, &str) -> Value,
    pub stream_classifier: fn() -> Box<dyn StreamClassifier>,
    pub classify_body: ClassifyBody,
}
