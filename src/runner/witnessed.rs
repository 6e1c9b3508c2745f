//! What reached the model (`run --witness`): after a case, the model calls carrying
//! the case's nonce, as the witness recorded them, attached to the case's result.
//! Recorded evidence only: no outcome depends on them yet.

use crate::outcome::{CaseResult, EvidenceView, ProtocolEvidence};
use crate::witness::{ModelCall, Part, PartKind, RunningWitness, SourceKind};
use std::time::Duration;

/// Attaches to `result` the calls carrying `nonce`. A case that sent nothing gets none
/// (and no field); a case whose request was accepted and carried its nonce waits up to
/// `wait` for its first call (not at all when one arrived already); any other case takes
/// what arrived, without waiting.
pub async fn record(
    witness: &RunningWitness,
    wait: Duration,
    nonce: &str,
    result: &mut CaseResult,
) {
    if result.exchanges.is_empty() {
        return;
    }
    let calls = if worth_waiting(result, nonce) {
        witness.wait_for(nonce, wait).await
    } else {
        witness.calls_carrying(nonce)
    };
    result.model_calls = Some(calls.iter().map(evidence).collect());
}

/// The last request was answered 2xx and held the case's nonce: a host may have
/// passed it on to its model.
fn worth_waiting(result: &CaseResult, nonce: &str) -> bool {
    result.exchanges.last().is_some_and(|e| {
        e.response
            .as_ref()
            .is_some_and(|r| (200..300).contains(&r.status))
            && e.request.body.as_deref().is_some_and(|b| b.contains(nonce))
    })
}

/// A call as a case's evidence: the witness's record, a one-line summary
/// (`model received: image/png 1234 B (image_url), text`) and the call's header line.
pub fn evidence(call: &ModelCall) -> ProtocolEvidence {
    let mut parts: Vec<String> = call.parts.iter().map(part).collect();
    let unkept = call.parts_total.saturating_sub(call.parts.len());
    if unkept > 0 {
        parts.push(format!("+{unkept} part(s)"));
    }
    let received = if parts.is_empty() {
        "no parts".to_string()
    } else {
        parts.join(", ")
    };
    let header = format!(
        "call {}: {} {} -> {}, model {}",
        call.seq,
        call.wire.as_str(),
        call.path,
        call.status,
        call.model.as_deref().unwrap_or("(none)")
    );
    ProtocolEvidence {
        // Plain data with string keys: serialising it cannot fail.
        record: serde_json::to_value(call).unwrap_or_default(),
        view: EvidenceView {
            summary: format!("model received: {received}"),
            properties: Vec::new(),
            lines: vec![header],
        },
    }
}

/// `image/png 1234 B (image_url)`, `text`, `image/png url (image_url)`.
fn part(part: &Part) -> String {
    let what = match part.kind {
        PartKind::Text => return "text".to_string(),
        PartKind::Unknown => return format!("unknown ({})", part.wire_form),
        kind => part
            .mime
            .clone()
            .or_else(|| part.sniffed.clone())
            .unwrap_or_else(|| kind.as_str().to_string()),
    };
    let size = match (part.source, part.bytes) {
        (Some(SourceKind::Url), _) => "url".to_string(),
        (Some(SourceKind::FileId), _) => "file_id".to_string(),
        (_, Some(bytes)) => format!("{bytes} B"),
        (_, None) => "undecoded".to_string(),
    };
    format!("{what} {size} ({})", part.wire_form)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::{Limits, Wire, decode_call};
    use base64::Engine as _;

    #[test]
    fn a_call_is_summarised_part_by_part_with_its_record_kept() {
        let png = mmconform_media::generate("image/png", "n-c1");
        let data = base64::engine::general_purpose::STANDARD.encode(&png);
        let body = serde_json::json!({"model": "m", "messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{data}")}},
            {"type": "text", "text": "mmconform n-c1"}
        ]}]});
        let call = decode_call(
            Wire::OpenaiChat,
            "/v1/chat/completions",
            body.to_string().as_bytes(),
            &Limits::default(),
            4,
        );
        let evidence = evidence(&call);
        assert_eq!(
            evidence.view.summary,
            format!(
                "model received: image/png {} B (image_url), text",
                png.len()
            )
        );
        assert_eq!(evidence.record["seq"], 4);
        assert_eq!(evidence.record["parts"][0]["stamps"][0], "n-c1");
        assert!(evidence.view.lines[0].starts_with("call 4: openai.chat /v1/chat/completions"));
    }
}
