//! The AI Envelope accept seam (RFC 0021, RFC 0033; docs/wire.md, "AI envelopes").
//!
//! `accept_envelope` is the whole seam minus HTTP: a request body in, a status and a
//! JSON body out, so every stage is testable without a server. A body without an
//! envelope is a malformed request (400); every other request gets HTTP 200 with an
//! outcome (`outcome.rs`) decided by the pipeline: top-level schema, correlation dedup
//! (`dedup.rs`), meta.ts, host kind gate, payload schema, node allowlist
//! (`pipeline.rs`), caps (`caps.rs`), trust. `schemas.rs` holds the compiled schemas,
//! `kinds.rs` the universal kinds.

mod caps;
mod dedup;
mod kinds;
mod outcome;
mod pipeline;
mod schemas;

#[cfg(test)]
mod pipeline_tests;

use axum::http::StatusCode;
use serde_json::{Value, json};

use super::error_body::{ErrorCode, Rejection};
use super::{Fault, ReferenceConfig};

pub use dedup::EnvelopeState;
pub use kinds::UNIVERSAL_ENVELOPES;

/// Runs the accept pipeline on one request body and renders the answer.
pub fn accept_envelope(
    config: &ReferenceConfig,
    body: &Value,
    state: &EnvelopeState,
) -> (StatusCode, Value) {
    // A null envelope is treated as missing: callers written in JS test `body.envelope
    // == null`, and a null is no more an envelope than an absent key.
    let envelope = body
        .as_object()
        .and_then(|object| object.get("envelope"))
        .filter(|envelope| !envelope.is_null());
    let Some(envelope) = envelope else {
        if config.faulted(Fault::EnvelopeMissingAccepted) {
            return (StatusCode::OK, json!({"status": "accepted"}));
        }
        let message = if body.is_object() {
            "request body has no `envelope`"
        } else {
            "request body must be a JSON object with an `envelope`"
        };
        let rejection = Rejection::new(ErrorCode::InvalidRequest, message);
        return (
            rejection.status(),
            rejection.body(config.faulted(Fault::NestedErrorBody)),
        );
    };
    decide(config, envelope, body, state).render(config)
}

fn decide(
    config: &ReferenceConfig,
    envelope: &Value,
    body: &Value,
    state: &EnvelopeState,
) -> outcome::Outcome {
    if let Err(invalid) = pipeline::check_shape(config, envelope) {
        // Not remembered: a replay of a malformed envelope is judged the same anyway.
        return invalid;
    }
    let decide_rest = || pipeline::decide_rest(config, envelope, body);
    match dedup::key(envelope) {
        Some(key) => state.replay_or(key, decide_rest),
        None => decide_rest(),
    }
}
