//! `mmconform list`'s output: every planned case with its requirement and, when the
//! plan was made against a target's context, what a run would do with it.

use crate::plan::{Disposition, PlannedCase};
use crate::scenario::suite::Suite;
use serde_json::{Value, json};

/// One row per planned case. `planned_on_context` is false when there was nothing to
/// plan against (no target, no declaration): every case is then only `selected`.
pub fn rows(suite: &Suite, planned: &[PlannedCase], planned_on_context: bool) -> Vec<Value> {
    planned
        .iter()
        .map(|p| {
            let case = &suite.cases[p.case];
            let (disposition, reason) = match (&p.disposition, planned_on_context) {
                (Disposition::Excluded(r), _) => ("excluded", Some(r.clone())),
                (_, false) => ("selected", None),
                (Disposition::Run, true) => ("will-run", None),
                (Disposition::Skip(r), true) => ("skip", Some(r.clone())),
                (Disposition::Error(r), true) => ("error", Some(r.clone())),
            };
            json!({
                "id": p.id,
                "case_id": case.spec.id,
                "title": p.title,
                "level": case.spec.requirement.level,
                "source": case.spec.requirement.source,
                "requirement": case.spec.requirement.text,
                "file": case.file,
                "disposition": disposition,
                "reason": reason,
                "decided_on": p.decided_on,
            })
        })
        .collect()
}

pub fn json(note: &str, rows: &[Value]) -> String {
    let doc = json!({"note": note, "cases": rows});
    // A JSON value of strings and arrays always serialises.
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

pub fn human(note: &str, rows: &[Value]) -> String {
    let mut text = format!("{note}\n");
    for row in rows {
        let reason = row["reason"]
            .as_str()
            .map(|r| format!("  ({r})"))
            .unwrap_or_default();
        text.push_str(&format!(
            "{:9} {:6} {:16} {}{reason}\n",
            row["disposition"].as_str().unwrap_or(""),
            row["level"].as_str().unwrap_or(""),
            row["source"].as_str().unwrap_or(""),
            row["id"].as_str().unwrap_or(""),
        ));
    }
    text.push_str(&format!("{} case(s)", rows.len()));
    text
}
