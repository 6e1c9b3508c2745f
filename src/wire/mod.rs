//! One description per model wire: what a request to a model endpoint may hold and how
//! an answer is shaped, written once and used in both directions. The profiles that
//! send a wire build their parts, check their answers' error envelopes and read their
//! stream events with it (`protocol::{openai,openai_responses,anthropic}`); the witness
//! that receives a wire reads the same parts and answers in the same shapes
//! (`witness::wire`).
//!
//! A wire is one folder: `mod.rs` names its path, part types and the wire forms the
//! witness records, the values its fields allow, its stream events in order and its
//! error envelope, and has small part builders. Nothing here speaks HTTP, records or
//! judges. `data_url.rs` is the inline source the URL-taking wires share.

pub mod anthropic;
pub mod chat;
pub mod data_url;
pub mod gemini;
pub mod responses;

/// The error envelopes an answer may be judged to have (`expect.error_shape`), by the
/// name a scenario gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorEnvelope {
    /// The canonical flat envelope `{error, message, details?}`.
    Flat,
    /// The OpenAI error envelope `{error: {message, type, param?, code?}}` (`chat::error`).
    Openai,
    /// Anthropic's error envelope `{type: "error", error: {type, message}}`
    /// (`anthropic::error`).
    Anthropic,
}
