//! One folder per model wire the witness hears beyond the two it started with: each
//! holds the wire's shapes (part types, data URLs, error envelope, stream events) in
//! its `mod.rs`, usable to encode a request as well as to read one, its decoder
//! (`decode.rs`: a request body to the parts of a [`ModelCall`](super::ModelCall)) and
//! its answers (`answer.rs`). A new wire is one more folder here, one [`Wire`](super::Wire)
//! value, its routes in `routes.rs` and its arms in `decode.rs` and `answer.rs`.
//!
//! OpenAI Chat Completions and Anthropic Messages are still decoded in `openai.rs` and
//! `anthropic.rs` one level up (they share the `messages` shape in `decode.rs`).

pub mod gemini;
pub mod responses;

#[cfg(test)]
mod routes_tests;
