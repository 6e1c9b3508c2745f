//! Renderings of the merged evidence: Markdown for an RFC's `Updated:` line or a pull
//! request, one self-contained HTML page, and JSON (`schemas/evidence.schema.json`).
//! Every rendering cites each input report by its digests.

pub mod html;
pub mod markdown;

use super::cell::{Cell, CellOutcome};
use super::model::Merged;
use super::verdict::CriterionResult;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
    Json,
}

/// The whole document in `format`, ending with a newline.
pub fn render(merged: &Merged, format: Format) -> String {
    match format {
        Format::Markdown => markdown::render(merged),
        Format::Html => html::render(merged),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(merged).expect("the model serialises");
            text.push('\n');
            text
        }
    }
}

/// A symbol per outcome, so the matrix reads without colour.
pub fn symbol(outcome: CellOutcome) -> &'static str {
    match outcome {
        CellOutcome::Pass => "✓",
        CellOutcome::Fail | CellOutcome::Xfail => "✗",
        CellOutcome::Warn => "!",
        CellOutcome::Skip | CellOutcome::Excluded => "–",
        CellOutcome::Blocked => "⊘",
        CellOutcome::Error => "‼",
        CellOutcome::Absent => "·",
    }
}

/// A cell in a few words: `pass 3`, `fail 1/3`, `skip`, with markers for an offline
/// case, a skip that `--require` had failed, and reports that disagree.
pub fn cell_label(cell: &Cell) -> String {
    let mut text = match cell.outcome {
        CellOutcome::Pass | CellOutcome::Warn => {
            format!("{} {}", cell.outcome.as_str(), cell.assertions_executed)
        }
        CellOutcome::Fail | CellOutcome::Xfail if cell.assertions_executed > 0 => format!(
            "{} {}/{}",
            cell.outcome.as_str(),
            cell.assertions_failed,
            cell.assertions_executed
        ),
        other => other.as_str().to_string(),
    };
    if cell.offline {
        text.push_str(" offline");
    }
    if cell.under_require {
        text.push_str(" (--require)");
    }
    if cell.conflict {
        text.push_str(" ≠");
    }
    text
}

/// Every detail of a cell, one line each, for hover/click detail and footnotes.
pub fn cell_detail(cell: &Cell) -> Vec<String> {
    let mut lines = vec![format!(
        "{} — {} assertion(s) executed, {} failed",
        cell.outcome.as_str(),
        cell.assertions_executed,
        cell.assertions_failed
    )];
    if let Some(reason) = &cell.reason {
        lines.push(format!("reason: {reason}"));
    }
    lines.extend(cell.failed.iter().map(|f| format!("failed: {f}")));
    lines.extend(cell.deliveries.iter().map(|d| format!("delivery: {d}")));
    lines.extend(cell.decided_on.iter().map(|f| format!("decided on: {f}")));
    if cell.offline {
        lines.push("offline: judges schema files, not the host; never host evidence".into());
    }
    if cell.under_require {
        lines.push("--require had made this a failure; nothing was exercised".into());
    }
    if !cell.seen.is_empty() {
        let seen: Vec<String> = cell
            .seen
            .iter()
            .map(|s| {
                format!(
                    "#{} {} ({} assertion(s))",
                    s.report,
                    s.outcome.as_str(),
                    s.assertions_executed
                )
            })
            .collect();
        lines.push(format!("reports: {}", seen.join(", ")));
    }
    if cell.conflict {
        lines.push("the host's reports disagree; the worse outcome is shown".into());
    }
    lines
}

/// `MET` / `NOT MET`.
pub fn met_word(met: bool) -> &'static str {
    if met { "MET" } else { "NOT MET" }
}

/// `1 host`, `2 origins`, `1 report`.
pub fn needs(result: &CriterionResult) -> String {
    let unit = match (result.counts, result.at_least) {
        ("hosts", 1) => "host",
        ("origins", 1) => "origin",
        ("reports", 1) => "report",
        (other, _) => other,
    };
    format!("≥ {} {unit}", result.at_least)
}

/// The first 12 hex digits of a digest.
pub fn short(digest: &str) -> String {
    digest.chars().take(12).collect()
}

/// The one-paragraph line a steward pastes after the date in an RFC's `Updated:` field.
pub fn updated_line(merged: &Merged) -> String {
    let reports: Vec<String> = merged
        .inputs
        .iter()
        .map(|i| format!("#{} {}", i.index, short(&i.integrity_sha256)))
        .collect();
    let evidence = format!(
        "merged by mmconform {} from {} verified report(s) of {} host(s) (report sha256 {})",
        merged.tool_version,
        merged.inputs.len(),
        merged.hosts.len(),
        reports.join(", ")
    );
    let Some(v) = &merged.verdict else {
        return format!("{} ({evidence})", merged.merged_on);
    };
    let met = v.results.iter().filter(|r| r.met).count();
    let judged = if v.met {
        format!("met on the evidence of {}", evidence_hosts(merged, v))
    } else {
        let unmet: Vec<String> = v
            .results
            .iter()
            .filter(|r| !r.met)
            .map(|r| format!("{}: {}", r.id, r.missing.as_deref().unwrap_or("not met")))
            .collect();
        format!("NOT MET, {}", unmet.join("; "))
    };
    format!(
        "{} ({}: criteria {} {met}/{} {judged}; {evidence})",
        merged.merged_on,
        v.title,
        v.criteria,
        v.results.len()
    )
}

/// The hosts counted by every criterion, with what they advertised; when the criteria
/// were met by different hosts, every counted host and a word saying so.
fn evidence_hosts(merged: &Merged, v: &super::verdict::Verdict) -> String {
    let counted = |id: &String| {
        v.results
            .iter()
            .filter(|r| r.satisfied_by.contains(id))
            .count()
    };
    let describe = |ids: Vec<&String>| -> String {
        ids.iter()
            .filter_map(|id| merged.hosts.iter().find(|h| &h.id == *id))
            .map(|h| format!("{} {} ({})", h.id, h.origin, h.advertised.join("; ")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ids: Vec<&String> = merged.hosts.iter().map(|h| &h.id).collect();
    let in_all: Vec<&String> = ids
        .iter()
        .copied()
        .filter(|id| counted(id) == v.results.len())
        .collect();
    if !in_all.is_empty() {
        return describe(in_all);
    }
    let any: Vec<&String> = ids.into_iter().filter(|id| counted(id) > 0).collect();
    format!("{} (each criterion by some of them)", describe(any))
}
