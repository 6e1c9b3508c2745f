//! An ACP exchange as a case's evidence: the frames in and out (clipped, first ones),
//! the updates and the agent's requests with our answers, lines that were no frame,
//! and the agent's stderr (bounded; the reporters redact it). `classification` is
//! `completed` for a turn that ended with `end_turn` (the witness step reads it).

use super::connection::Exchange;
use crate::outcome::{EvidenceView, ProtocolEvidence};
use serde_json::json;

pub fn of_exchange(command: &str, exchanges: &[&Exchange], stderr: &str) -> ProtocolEvidence {
    let last = exchanges.last();
    let classification = match last {
        None => "unsent",
        Some(ex) if ex.unanswered.is_some() => "unanswered",
        Some(ex) if ex.error().is_some() => "rejected",
        Some(ex) => match ex.result().and_then(|r| r.get("stopReason")) {
            Some(r) if r == "end_turn" => "completed",
            Some(_) => "stopped",
            None if ex.method == "initialize" => "initialized",
            None => "answered",
        },
    };
    let records: Vec<_> = exchanges
        .iter()
        .map(|ex| {
            json!({
                "method": ex.method,
                "answered": super::judge::answered(ex),
                "updates": ex.updates,
                "agentRequests": ex.agent_requests.iter().map(|(m, a)| json!({"method": m, "answer": a})).collect::<Vec<_>>(),
                "garbage": ex.garbage,
                "notKept": ex.not_kept,
                "frames": ex.frames,
                "elapsedMs": ex.elapsed.as_millis() as u64,
            })
        })
        .collect();
    let mut lines = Vec::new();
    for ex in exchanges {
        lines.extend(ex.frames.iter().take(40).cloned());
        for (method, answer) in &ex.agent_requests {
            lines.push(format!("agent asked {method}: answered {answer}"));
        }
    }
    if !stderr.is_empty() {
        lines.push(format!("stderr: {}", super::connection::clip(stderr)));
    }
    let summary = match last {
        Some(ex) => format!(
            "{} {}: {}",
            classification,
            ex.method,
            super::judge::answered(ex)
        ),
        None => classification.to_string(),
    };
    ProtocolEvidence {
        record: json!({
            "command": command,
            "classification": classification,
            "exchanges": records,
            "stderr": stderr,
        }),
        view: EvidenceView {
            summary,
            properties: vec![("acp.command".into(), command.to_string())],
            lines,
        },
    }
}
