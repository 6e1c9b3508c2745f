//! A bridge run as a case's evidence: what was started, how it ended, the lines it
//! printed (the first ones, clipped, as `event.rs` kept them), its stderr (bounded; the
//! reporters redact it), and the bucket it fell in.

use super::classify::{BridgeRun, Observed};
use super::event::SHOWN_LINES;
use crate::outcome::{EvidenceView, ProtocolEvidence};
use serde_json::json;

pub fn of_run(command: &str, op: &str, finished: &BridgeRun) -> ProtocolEvidence {
    let run = Observed::new(finished);
    // A describe prints a declaration, not events: its bucket says whether it answered.
    let classification = match op {
        _ if run.unfinished().is_some() => "unfinished",
        "describe" if run.exited_zero() && finished.lines.len() == 1 => "described",
        "describe" => "broken",
        _ => run.classification(),
    };
    let lines: Vec<String> = finished
        .lines
        .iter()
        .take(SHOWN_LINES)
        .map(|l| l.shown.clone().unwrap_or_default())
        .collect();
    let record = json!({
        "command": command,
        "op": op,
        "classification": classification,
        "ending": run.ending(),
        "endedBy": finished.ended_by.map(|e| format!("{e:?}")),
        "readEnd": finished.read_end.describe(),
        "lineCount": finished.lines.len(),
        "lines": lines,
        "doneCount": run.dones().len(),
        "errorEvents": run.errors().len(),
        "mediaEvents": run.media().len(),
        "abort": finished.abort.map(|a| json!({"afterLines": a.after_lines, "exitedWithinGrace": a.exited_within_grace})),
        "stderr": finished.stderr.shown(),
        "elapsedMs": finished.elapsed.as_millis() as u64,
    });
    let summary = format!(
        "{classification} ({}, {} line(s), {} done)",
        run.ending(),
        finished.lines.len(),
        run.dones().len()
    );
    let mut shown: Vec<String> = lines.iter().map(|l| format!("stdout: {l}")).collect();
    if !finished.stderr.text.is_empty() {
        shown.push(format!(
            "stderr: {}",
            super::event::clip(&finished.stderr.shown(), super::event::SHOWN_CHARS)
        ));
    }
    ProtocolEvidence {
        record,
        view: EvidenceView {
            summary,
            properties: vec![
                ("agentruntime.command".into(), command.to_string()),
                ("agentruntime.op".into(), op.to_string()),
            ],
            lines: shown,
        },
    }
}
