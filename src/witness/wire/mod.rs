//! The witness's side of each model wire, one folder per wire (its description, the
//! names and shapes both directions use, is `crate::wire::<name>`): `decode.rs` turns
//! a request body into the parts of a [`ModelCall`](super::ModelCall) through the
//! shared `Collector` (`super::decode`) and `super::part` helpers, and `answer.rs`
//! answers in the wire's shape. A new wire is one folder here and one in `crate::wire`,
//! one [`Wire`](super::Wire) value, its routes in `routes.rs` and its arms in
//! `decode.rs` and `answer.rs`.

pub mod anthropic;
pub mod chat;
pub mod gemini;
pub mod responses;

#[cfg(test)]
mod routes_tests;

/// The `data:` payloads of an SSE body, in order (the answers' tests).
#[cfg(test)]
fn data_lines(body: &str) -> Vec<&str> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect()
}
