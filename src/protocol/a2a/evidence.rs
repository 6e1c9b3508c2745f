//! What an A2A run adds to the evidence, in the protocol-neutral form reporters show:
//! each answer's reading (its bucket, objects, error, spelling), and the card the run
//! was planned on with the declaration read from it.

use super::card::Card;
use super::classify::Reading;
use super::declaration::Declaration;
use crate::outcome::{EvidenceView, ProtocolEvidence};
use serde_json::json;

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

/// The card and the declaration the run was planned on.
pub fn of_card(card: &Card, declaration: &Declaration) -> ProtocolEvidence {
    let interfaces: Vec<String> = card.interfaces.iter().map(|i| i.describe()).collect();
    let mut lines = vec![
        format!("interfaces: {}", interfaces.join("; ")),
        format!("accepts: {}", declaration.summary()),
        format!("streaming: {}", card.streaming),
        format!("security: {}", card.security.summary()),
    ];
    lines.extend(card.unspoken.iter().map(|u| format!("not spoken: {u}")));
    lines.extend(
        declaration
            .not_media_types
            .iter()
            .map(|m| format!("not a media type: {m}")),
    );
    lines.extend(declaration.skills.iter().map(|s| format!("skill {s}")));
    lines.extend(card.notes.iter().cloned());
    ProtocolEvidence {
        record: json!({"card": card, "declaration": declaration}),
        view: EvidenceView {
            summary: format!(
                "agent card ({}): {}",
                card_version(card),
                declaration.summary()
            ),
            properties: vec![
                ("a2a.interfaces".into(), interfaces.join("; ")),
                ("a2a.accepts".into(), declaration.accepts.join(",")),
                ("a2a.declaredBy".into(), declaration.declared_by.clone()),
            ],
            lines,
        },
    }
}

fn card_version(card: &Card) -> &'static str {
    match card.version {
        super::card::CardVersion::V1 => "1.0",
        super::card::CardVersion::V03 => "0.3",
    }
}
