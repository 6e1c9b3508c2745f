//! The accept pipeline's stages (docs/wire.md, "AI envelopes"), one function each, in order. A stage
//! answers `Err(outcome)` when it decides; the first stage that decides wins. Stage 2
//! (correlation dedup) sits between `check_shape` and `decide_rest`, in `mod.rs`.

use serde_json::Value;

use super::caps::check_caps;
use super::kinds::{UNIVERSAL_ENVELOPES, is_namespaced, is_universal, string_list};
use super::outcome::{Detail, Outcome};
use super::schemas::{envelope_violations, payload_details, ts_detail};
use crate::{Fault, ReferenceConfig};

/// The official suite looks for "ISO 8601" in the reason for `meta.ts: "tomorrow"`,
/// whichever stage catches it.
pub const TS_REASON: &str = "meta.ts is not an ISO 8601 / RFC 3339 date-time";

fn is_ts_format(detail: &Detail) -> bool {
    detail.keyword == "format" && detail.instance_path == "/meta/ts"
}

/// Stage 1: the envelope against `ai-envelope.schema.json`, formats asserted.
pub fn check_shape(config: &ReferenceConfig, envelope: &Value) -> Result<(), Outcome> {
    let details: Vec<Detail> = envelope_violations(envelope)
        .into_iter()
        .filter(|v| {
            !(config.faulted(Fault::EnvelopeAcceptsMissingMeta)
                && v.detail.instance_path.is_empty()
                && v.missing.as_deref() == Some("meta"))
        })
        .filter(|v| !(config.faulted(Fault::EnvelopeTsUnchecked) && is_ts_format(&v.detail)))
        .filter(|v| {
            !config.faulted(Fault::EnvelopeChecksRequiredOnly) || v.detail.keyword == "required"
        })
        .map(|v| v.detail)
        .collect();
    if details.is_empty() {
        return Ok(());
    }
    let count = match details.len() {
        1 => "1 violation".to_owned(),
        n => format!("{n} violations"),
    };
    let reason = if details.iter().all(is_ts_format) {
        TS_REASON.to_owned()
    } else if details.iter().any(is_ts_format) {
        format!("envelope does not match the ai-envelope schema ({count}); {TS_REASON}")
    } else {
        format!("envelope does not match the ai-envelope schema ({count})")
    };
    Err(Outcome::Invalid { reason, details })
}

/// Stages 3 to 8, for an envelope that passed stage 1 and is not a replay.
pub fn decide_rest(config: &ReferenceConfig, envelope: &Value, body: &Value) -> Outcome {
    // Stage 1 guarantees a string `type`; the default only keeps this panic-free.
    let kind = envelope.get("type").and_then(Value::as_str).unwrap_or("");
    let gates = check_ts(config, envelope)
        .and_then(|()| host_gate(config, kind, body))
        .and_then(|()| check_payload(config, kind, envelope))
        .and_then(|()| node_gate(config, kind, body))
        .and_then(|()| check_caps(config, kind, body));
    match gates {
        Ok(()) => normalize_trust(config, envelope, body),
        Err(outcome) => outcome,
    }
}

/// Stage 3: `meta.ts` is an RFC 3339 date-time. Stage 1 already asserts the format, so
/// this only decides when the schema's format check is bypassed; it stays because the
/// pipeline must not depend on a schema option to enforce a MUST.
pub fn check_ts(config: &ReferenceConfig, envelope: &Value) -> Result<(), Outcome> {
    if config.faulted(Fault::EnvelopeTsUnchecked) {
        return Ok(());
    }
    // No meta at all only gets this far under `envelope-accepts-missing-meta`.
    let Some(ts) = envelope.get("meta").and_then(|meta| meta.get("ts")) else {
        return Ok(());
    };
    match ts_detail(ts) {
        None => Ok(()),
        Some(detail) => Err(Outcome::Invalid {
            reason: TS_REASON.to_owned(),
            details: vec![detail],
        }),
    }
}

/// Stage 4: the kind is universal or the host supports it. Without
/// `hostSupportedEnvelopes` the host's own discovery list applies: the universals.
pub fn host_gate(config: &ReferenceConfig, kind: &str, body: &Value) -> Result<(), Outcome> {
    if is_universal(kind) && !config.faulted(Fault::EnvelopeGatesUniversalKinds) {
        return Ok(());
    }
    let listed = if config.faulted(Fault::EnvelopeIgnoresHostSupported) {
        Vec::new()
    } else {
        string_list(body, "hostSupportedEnvelopes").unwrap_or_default()
    };
    if listed.iter().any(|k| k == kind) {
        return Ok(());
    }
    let mut allowed: Vec<String> = UNIVERSAL_ENVELOPES
        .iter()
        .map(|k| (*k).to_owned())
        .collect();
    for k in listed {
        if !allowed.contains(&k) {
            allowed.push(k);
        }
    }
    Err(Outcome::Gated {
        reason: format!("envelope kind `{kind}` is not supported by this host"),
        allowed_kinds: allowed,
    })
}

/// Stage 5: a universal kind's payload against its closed schema. Namespaced kinds
/// (`vendor.`, `private.`, `x-`) belong to their owner; other kinds have no schema here.
pub fn check_payload(
    config: &ReferenceConfig,
    kind: &str,
    envelope: &Value,
) -> Result<(), Outcome> {
    if config.faulted(Fault::EnvelopePayloadUnchecked) || is_namespaced(kind) {
        return Ok(());
    }
    let payload = envelope.get("payload").unwrap_or(&Value::Null);
    match payload_details(kind, payload) {
        Some(details) if !details.is_empty() => Err(Outcome::Invalid {
            reason: format!("payload does not match the {kind} schema"),
            details,
        }),
        _ => Ok(()),
    }
}

/// Stage 6: the node's allowlist, when given. Universal kinds are exempt: a node cannot
/// stop the model from asking for clarification or reporting an error.
pub fn node_gate(config: &ReferenceConfig, kind: &str, body: &Value) -> Result<(), Outcome> {
    let Some(allowed) = string_list(body, "nodeAllowedKinds") else {
        return Ok(());
    };
    let exempt = is_universal(kind) && !config.faulted(Fault::EnvelopeUniversalNodeGated);
    if exempt || allowed.iter().any(|k| k == kind) {
        return Ok(());
    }
    Err(Outcome::Gated {
        reason: format!("envelope kind `{kind}` is not in this node's allowed kinds"),
        allowed_kinds: allowed,
    })
}

/// The run's boundary, when the caller names one. Anything but `"trusted"` reads as
/// untrusted: an unrecognised boundary must not upgrade content to trusted.
fn run_boundary(body: &Value) -> Option<&'static str> {
    match body.get("runTrustBoundary") {
        None | Some(Value::Null) => None,
        Some(value) if value == "trusted" => Some("trusted"),
        Some(_) => Some("untrusted"),
    }
}

/// Stage 8: accepted, with `contentTrust = meta.contentTrust ?? runTrustBoundary ??
/// "trusted"` (RFC 0021 §E): the envelope's own label is the most specific.
pub fn normalize_trust(config: &ReferenceConfig, envelope: &Value, body: &Value) -> Outcome {
    let mut meta = envelope
        .get("meta")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let own = meta
        .get("contentTrust")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let run = run_boundary(body)
        .filter(|_| !config.faulted(Fault::EnvelopeIgnoresRunBoundary))
        .map(str::to_owned);
    let chosen = if config.faulted(Fault::EnvelopeRunBoundaryWins) {
        run.or(own)
    } else {
        own.or(run)
    };
    let default = if config.faulted(Fault::EnvelopeDefaultUntrusted) {
        "untrusted"
    } else {
        "trusted"
    };
    let trust = chosen.unwrap_or_else(|| default.to_owned());
    meta.insert("contentTrust".into(), Value::String(trust));
    Outcome::Accepted {
        normalized_meta: meta,
    }
}
