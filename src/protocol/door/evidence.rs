//! What an OpenAI run adds to the evidence, in the protocol-neutral form reporters show
//! ([`ProtocolEvidence`]): each answer's classification, and the declaration the run
//! was planned on (and the model it named).

use super::{CompletionEvidence, Declaration, FACTS_ROOT};
use crate::outcome::{EvidenceView, ProtocolEvidence};

fn record<T: serde::Serialize>(value: &T) -> serde_json::Value {
    // Plain data with string keys: serialising it cannot fail.
    serde_json::to_value(value).unwrap_or_default()
}

/// An answer's classification and what it rests on.
pub fn of_answer(answer: &CompletionEvidence) -> ProtocolEvidence {
    let summary = answer.summary();
    let mut lines = vec![format!("answer: {summary}")];
    lines.extend(answer.problems.iter().map(|p| format!("problem: {p}")));
    ProtocolEvidence {
        record: record(answer),
        view: EvidenceView {
            properties: vec![
                (
                    "stream.classification".into(),
                    answer.classification.as_str().into(),
                ),
                ("stream.status".into(), answer.status.to_string()),
                ("stream.summary".into(), summary.clone()),
            ],
            summary,
            lines,
        },
    }
}

/// The declaration a run was planned on, with the model it names.
pub fn of_declaration(declared: &Declaration, model: Option<&str>) -> ProtocolEvidence {
    let mut record = record(declared);
    if let Some(map) = record.as_object_mut() {
        map.insert("model".into(), serde_json::json!(model));
    }
    let model_shown = model.unwrap_or("(none)");
    ProtocolEvidence {
        record,
        view: EvidenceView {
            summary: format!(
                "model {model_shown}, declared ({}): {}",
                declared.declared_by,
                declared.summary()
            ),
            properties: vec![
                (format!("{FACTS_ROOT}.model"), model_shown.to_string()),
                (format!("{FACTS_ROOT}.accepts"), declared.accepts.join(",")),
                (format!("{FACTS_ROOT}.sources"), declared.sources.join(",")),
                (format!("{FACTS_ROOT}.detail"), declared.detail.to_string()),
                (
                    format!("{FACTS_ROOT}.streaming"),
                    declared.streaming.to_string(),
                ),
                (format!("{FACTS_ROOT}.kinds"), declared.kinds.join(",")),
                (
                    format!("{FACTS_ROOT}.undeclared-kinds"),
                    declared.undeclared_kinds.join(","),
                ),
                (
                    format!("{FACTS_ROOT}.declared-by"),
                    declared.declared_by.clone(),
                ),
            ],
            lines: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::openai::classify::classify_body;
    use crate::protocol::sse_read::ReadEnd;

    #[test]
    fn answers_and_declarations_are_recorded_and_shown() {
        let answer = classify_body(503, None, false, b"", ReadEnd::Eof);
        let e = of_answer(&answer);
        assert_eq!(e.record["classification"], "crashed");
        assert_eq!(e.view.lines, ["answer: crashed: HTTP 503"]);
        assert_eq!(
            e.view.properties[0],
            ("stream.classification".into(), "crashed".into())
        );
        let d = of_declaration(&Declaration::text_only(), Some("gpt-x"));
        assert_eq!(d.record["model"], "gpt-x");
        assert_eq!(
            d.record["undeclared_kinds"],
            serde_json::json!(["image", "audio", "file"])
        );
        assert!(
            d.view
                .summary
                .starts_with("model gpt-x, declared (no declaration"),
            "{}",
            d.view.summary
        );
    }
}
