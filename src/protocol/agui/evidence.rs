//! What an AG-UI run adds to the evidence, in the protocol-neutral form reporters show
//! ([`ProtocolEvidence`]): each answer's stream classification, and the declaration the
//! run was planned on (AG-UI has no discovery).

use super::{Declaration, StreamEvidence};
use crate::outcome::{EvidenceView, ProtocolEvidence};

fn record<T: serde::Serialize>(value: &T) -> serde_json::Value {
    // Plain data with string keys: serialising it cannot fail.
    serde_json::to_value(value).unwrap_or_default()
}

/// An answer's classification and what it rests on.
pub fn of_stream(stream: &StreamEvidence) -> ProtocolEvidence {
    let summary = stream.summary();
    let mut lines = vec![format!("stream: {summary}")];
    if !stream.events.is_empty() {
        let more = stream.events_total.saturating_sub(stream.events.len());
        let tail = if more > 0 {
            format!(" (+{more} more)")
        } else {
            String::new()
        };
        lines.push(format!("events: {}{tail}", stream.events.join(" ")));
    }
    lines.extend(stream.problems.iter().map(|p| format!("problem: {p}")));
    if let Some(echo) = &stream.echo {
        lines.push(format!("echo: {echo}"));
    }
    ProtocolEvidence {
        record: record(stream),
        view: EvidenceView {
            properties: vec![
                (
                    "stream.classification".into(),
                    stream.classification.as_str().into(),
                ),
                ("stream.status".into(), stream.status.to_string()),
                ("stream.summary".into(), summary.clone()),
            ],
            summary,
            lines,
        },
    }
}

/// The declaration a run was planned on.
pub fn of_declaration(declared: &Declaration) -> ProtocolEvidence {
    ProtocolEvidence {
        record: record(declared),
        view: EvidenceView {
            summary: format!(
                "declared ({}): {}",
                declared.declared_by,
                declared.summary()
            ),
            properties: vec![
                ("agui.accepts".into(), declared.accepts.join(",")),
                ("agui.sources".into(), declared.sources.join(",")),
                ("agui.echo".into(), declared.echo.to_string()),
                ("agui.kinds".into(), declared.kinds.join(",")),
                (
                    "agui.undeclared-kinds".into(),
                    declared.undeclared_kinds.join(","),
                ),
                ("agui.declared-by".into(), declared.declared_by.clone()),
            ],
            lines: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::agui::classify::{Classifier, ReadEnd};
    use serde_json::json;

    #[test]
    fn a_stream_is_recorded_verbatim_and_shown_in_lines() {
        let mut c = Classifier::default();
        for e in [
            json!({"type": "RUN_STARTED"}),
            json!({"type": "RUN_FINISHED"}),
        ] {
            c.on_data(&e.to_string());
        }
        let stream = c.finish(200, Some("text/event-stream".into()), true, ReadEnd::Eof, 1);
        let evidence = of_stream(&stream);
        assert_eq!(evidence.record["classification"], "completed");
        assert_eq!(
            evidence.view.lines,
            [
                "stream: completed: RUN_FINISHED after 2 events",
                "events: RUN_STARTED RUN_FINISHED"
            ]
        );
        assert_eq!(evidence.view.properties[0].1, "completed");
    }

    #[test]
    fn a_declaration_names_who_declared_it() {
        let d = Declaration::new(&["image/".into()], &["data".into()], false, "--accepts").unwrap();
        let evidence = of_declaration(&d);
        assert_eq!(evidence.record["declared_by"], "--accepts");
        assert!(
            evidence
                .view
                .summary
                .starts_with("declared (--accepts): accepts image/")
        );
    }
}
