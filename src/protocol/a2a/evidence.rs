//! What an A2A run adds to the evidence, in the protocol-neutral form reporters show:
//! each answer's reading (its bucket, objects, error, spelling).

use super::classify::Reading;
use crate::outcome::{EvidenceView, ProtocolEvidence};

/// An answer's reading.
pub fn of_reading(reading: &Reading) -> ProtocolEvidence {
    let mut lines = vec![format!("answer: {}", reading.line())];
    if !reading.objects.is_empty() {
        lines.push(format!("objects: {}", reading.objects.join(" → ")));
    }
    if reading.followed > 0 {
        lines.push(format!(
            "followed with {} GetTask call(s)",
            reading.followed
        ));
    }
    lines.extend(reading.spelling.iter().map(|s| format!("spelling: {s}")));
    lines.extend(reading.problems.iter().map(|p| format!("problem: {p}")));
    ProtocolEvidence {
        // Plain data with string keys: serialising it cannot fail.
        record: serde_json::to_value(reading).unwrap_or_default(),
        view: EvidenceView {
            summary: reading.line(),
            properties: vec![
                (
                    "stream.classification".into(),
                    reading.classification.as_str().into(),
                ),
                ("stream.status".into(), reading.status.to_string()),
                ("stream.summary".into(), reading.summary.clone()),
            ],
            lines,
        },
    }
}
