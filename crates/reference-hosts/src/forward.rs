//! The forwarding mode of the openwop host (docs/wire.md, "Forwarding to a model"):
//! with an upstream configured, a call naming `provider: "compat"` (RFC 0108's
//! self-hosted OpenAI-compatible path) goes on to the model once validation accepted
//! it, mapped to the OpenAI wire by `openai_wire.rs`.
//!
//! A call without `provider: "compat"` (absent, or another provider) is answered by
//! the host itself as before: its other providers are stand-ins that call nothing. A
//! refused call is never forwarded (only `forward-then-refuses` does it). The twelve
//! forwarding faults act only here, so without an upstream they change nothing; the
//! ones that transform media (re-encode, scale, replace by text) are in
//! `forward_transform.rs`.

use serde_json::{Value, json};

use super::ai_call::AcceptedSummary;
use super::error_body::{ErrorCode, Rejection};
use super::forward_transform;
use super::media_ref::{blob, known_media_ref};
use super::modality::{self, PartKind};
use super::openai_wire::{Body, Distortion, Media, WireContent, WireMessage, WirePart};
use super::upstream::{Reply, Upstream};
use super::{Fault, ReferenceConfig};

/// The `provider` that selects the upstream.
pub const COMPAT_PROVIDER: &str = "compat";

/// True when `body` is a call for the upstream: the host has one and the call names
/// `provider: "compat"`.
pub fn selected(config: &ReferenceConfig, body: &Value) -> bool {
    config.upstream.is_some()
        && body.get("provider").and_then(Value::as_str) == Some(COMPAT_PROVIDER)
}

/// The seam's answer to a forwarded call that validation decided as `verdict`: the
/// accepted summary plus `provider`, `completion` and `upstream {status, text}`, or
/// 502 `upstream_unavailable` when the model cannot be reached or fails.
pub async fn forward(
    config: &ReferenceConfig,
    upstream: &Upstream,
    body: &Value,
    verdict: Result<AcceptedSummary, Rejection>,
) -> Result<Value, Rejection> {
    let summary = match verdict {
        Ok(summary) => summary,
        Err(rejection) => {
            if config.faulted(Fault::ForwardThenRefuses)
                && rejection.code == ErrorCode::UnsupportedModality
            {
                // The defect: the model saw the part before the host refused it. What
                // the model answered no longer matters to this host.
                let _ = upstream.complete(&wire_messages(config, body), None).await;
            }
            return Err(rejection);
        }
    };
    let reply = if config.faulted(Fault::ForwardSkipsModel) {
        Reply {
            status: 200,
            text: String::new(),
        }
    } else {
        upstream
            .complete(
                &forward_transform::apply(
                    wire_messages(config, body),
                    forward_transform::of_fault(config.fault),
                ),
                distortion(config.fault),
            )
            .await
            .map_err(|e| Rejection::new(ErrorCode::UpstreamUnavailable, e.0))?
    };
    let mut answer = summary.to_json();
    answer["provider"] = json!(COMPAT_PROVIDER);
    answer["completion"] = json!(reply.text);
    answer["upstream"] = json!({"status": reply.status, "text": reply.text});
    Ok(answer)
}

/// What each mapping fault does to the forwarded request.
fn distortion(fault: Option<Fault>) -> Option<Distortion> {
    Some(match fault? {
        Fault::ForwardDropsMedia => Distortion::DropsMedia,
        Fault::ForwardDropsAudio => Distortion::DropsAudio,
        Fault::ForwardDocumentAsImage => Distortion::DocumentAsImage,
        Fault::ForwardWrongMime => Distortion::WrongMime,
        Fault::ForwardTruncatesBytes => Distortion::TruncatesBytes,
        Fault::ForwardReordersParts => Distortion::ReordersParts,
        _ => return None,
    })
}

/// The call's messages as they go to the model: roles kept, string content a string,
/// parts in order. Total on anything a fault let through: what cannot be mapped (a
/// part with no usable source, a mediaRef the host never issued, a part a fault
/// drops) is left out.
pub fn wire_messages(config: &ReferenceConfig, body: &Value) -> Vec<WireMessage> {
    body.get("messages")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|m| wire_message(config, m))
                .collect()
        })
        .unwrap_or_default()
}

fn wire_message(config: &ReferenceConfig, message: &Value) -> Option<WireMessage> {
    let role = message.get("role")?.as_str()?.to_owned();
    let content = match message.get("content")? {
        Value::String(text) => WireContent::Text(text.clone()),
        Value::Array(parts) => {
            WireContent::Parts(parts.iter().filter_map(|p| wire_part(config, p)).collect())
        }
        _ => return None,
    };
    Some(WireMessage { role, content })
}

fn wire_part(config: &ReferenceConfig, part: &Value) -> Option<WirePart> {
    let part_type = part.get("type")?.as_str()?;
    if part_type == "text" {
        return Some(WirePart::Text(part.get("text")?.as_str()?.to_owned()));
    }
    if modality::classify(config, part_type) == Ok(PartKind::Drop) {
        return None;
    }
    let kind = modality::canonical(part_type);
    let declared = part.get("mimeType").and_then(Value::as_str);
    let (mime, body) = ["data", "dataBase64", "url", "mediaRef"]
        .into_iter()
        .find_map(|key| source(kind, declared, key, part.get(key)?.as_str()?))?;
    Some(WirePart::Media(Media {
        kind: kind.to_owned(),
        mime,
        body,
    }))
}

/// One source as the model gets it: inline data as it came, a URL as it is, a known
/// mediaRef resolved to the blob's bytes (and the blob's type).
fn source(kind: &str, declared: Option<&str>, key: &str, value: &str) -> Option<(String, Body)> {
    let mime = || {
        declared
            .unwrap_or(mmconform_media::default_mime(kind))
            .to_owned()
    };
    match key {
        "url" => Some((mime(), Body::Url(value.to_owned()))),
        "mediaRef" => (known_media_ref(kind) == Some(value)).then(|| {
            let (mime, bytes) = blob(kind, declared);
            (mime, Body::bytes(&bytes))
        }),
        _ => Some((mime(), Body::Base64(value.to_owned()))),
    }
}
