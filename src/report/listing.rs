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

/// One line per case, its columns aligned on the widest value of each (a long
/// requirement source widens its column rather than pushing the id out of line).
pub fn human(note: &str, rows: &[Value]) -> String {
    let field = |row: &Value, key: &str| row[key].as_str().unwrap_or("").to_string();
    let width = |key: &str| {
        rows.iter()
            .map(|r| field(r, key).chars().count())
            .max()
            .unwrap_or(0)
    };
    let (d, l, s) = (width("disposition"), width("level"), width("source"));
    let mut text = format!("{note}\n");
    for row in rows {
        let reason = row["reason"]
            .as_str()
            .map(|r| format!("  ({r})"))
            .unwrap_or_default();
        text.push_str(&format!(
            "{:d$} {:l$} {:s$} {}{reason}\n",
            field(row, "disposition"),
            field(row, "level"),
            field(row, "source"),
            field(row, "id"),
        ));
    }
    text.push_str(&format!("{} case(s)", rows.len()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_on_the_longest_source() {
        let row = |source: &str, id: &str| json!({"disposition": "will-run", "level": "MUST", "source": source, "id": id});
        let rows = [
            row("RFC 0091 §A", "a"),
            row("AG-UI multimodal proposal (legacy binary)", "b"),
        ];
        let text = human("note", &rows);
        let columns: Vec<usize> = text
            .lines()
            .skip(1)
            .take(2)
            .map(|line| line.chars().count() - 1)
            .collect();
        assert_eq!(columns[0], columns[1], "{text}");
    }
}
