//! Markdown: a verdict and a line to paste into an RFC's `Updated:` field on top, then
//! what a pull request reviewer checks (criteria per host, hosts, requirements), the
//! full matrix folded in `<details>`, and the inputs with their digests.

use super::{cell_label, met_word, needs, short, symbol, updated_line};
use crate::evidence::cell::CellOutcome;
use crate::evidence::hosts::Host;
use crate::evidence::matrix::RequirementRow;
use crate::evidence::model::Merged;
use crate::evidence::verdict::Verdict;
use std::fmt::Write as _;

/// Text made safe for a table cell: no pipe ends the cell, no newline ends the row,
/// and no angle bracket becomes HTML in a renderer that allows it.
pub fn esc(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace(['\r', '\n'], " ")
}

/// An id in code style; backticks inside are dropped rather than breaking the span.
fn code(text: &str) -> String {
    format!("`{}`", esc(&text.replace('`', "'")))
}

pub fn render(merged: &Merged) -> String {
    let mut out = String::new();
    let title = merged
        .verdict
        .as_ref()
        .map_or("Conformance evidence", |v| v.title.as_str());
    let _ = writeln!(out, "# Evidence: {}\n", esc(title));
    if let Some(v) = &merged.verdict {
        let met = v.results.iter().filter(|r| r.met).count();
        let _ = writeln!(
            out,
            "**Verdict: {}** ({met} of {} criteria met), criteria {} (sha256 `{}`).\n",
            met_word(v.met),
            v.results.len(),
            code(&v.criteria),
            short(&v.sha256)
        );
    }
    let origins: std::collections::BTreeSet<&str> =
        merged.hosts.iter().map(|h| h.origin.as_str()).collect();
    let _ = writeln!(
        out,
        "Merged by mmconform {} on {} from {} verified report(s) of {} host(s) ({} origin(s)).\n",
        merged.tool_version,
        merged.merged_on,
        merged.inputs.len(),
        merged.hosts.len(),
        origins.len()
    );
    let _ = writeln!(
        out,
        "For the RFC's `Updated:` line:\n\n> {}\n",
        esc(&updated_line(merged))
    );
    if let Some(v) = &merged.verdict {
        criteria(&mut out, v);
    }
    hosts(&mut out, &merged.hosts);
    requirements(&mut out, &merged.requirements, &merged.hosts);
    matrix(&mut out, &merged.requirements, &merged.hosts);
    notes(&mut out, merged);
    inputs(&mut out, merged);
    out
}

fn criteria(out: &mut String, v: &Verdict) {
    let _ = writeln!(out, "## Criteria\n");
    for note in &v.notes {
        let _ = writeln!(out, "- {}", esc(note));
    }
    if !v.exclude_origins.is_empty() {
        let _ = writeln!(
            out,
            "- Excluded origins (judged, never counted): {}",
            v.exclude_origins
                .iter()
                .map(|o| code(o))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let _ = writeln!(
        out,
        "\n| | criterion | needs | satisfied by | missing |\n|---|---|---|---|---|"
    );
    for r in &v.results {
        let _ = writeln!(
            out,
            "| {} {} | {}: {} | {} | {} | {} |",
            if r.met { "✓" } else { "✗" },
            met_word(r.met),
            code(&r.id),
            esc(&r.text),
            needs(r),
            if r.satisfied_by.is_empty() {
                "—".to_string()
            } else {
                r.satisfied_by.join(", ")
            },
            esc(r.missing.as_deref().unwrap_or(""))
        );
    }
    let _ = writeln!(
        out,
        "\n<details><summary>Per host, and the RFC text each criterion encodes</summary>\n"
    );
    for r in &v.results {
        let _ = writeln!(out, "- {}", code(&r.id));
        if let Some(from) = &r.from {
            let _ = writeln!(out, "  - encodes: {}", esc(from));
        }
        for h in &r.hosts {
            let state = match (h.satisfied, h.excluded) {
                (true, false) => "✓ counts",
                (true, true) => "✓ satisfies, excluded origin",
                (false, true) => "✗ excluded origin",
                (false, false) => "✗",
            };
            let _ = writeln!(out, "  - {} {state}: {}", h.host, esc(&h.why.join("; ")));
        }
    }
    let _ = writeln!(out, "\n</details>\n");
}

fn hosts(out: &mut String, hosts: &[Host]) {
    let _ = writeln!(
        out,
        "## Hosts\n\n| host | origin | digest | advertises / declares | protocol | date | mmconform | mode | reports |\n|---|---|---|---|---|---|---|---|---|"
    );
    for h in hosts {
        let reports: Vec<String> = h.reports.iter().map(|r| format!("#{r}")).collect();
        let once = if h.reports.len() > 1 {
            " (counted once)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} {} | {} | {} | {} | {} | {} | {}{once} |",
            h.id,
            code(&h.origin),
            serde_json::to_value(h.digest_of)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            code(&h.short_digest()),
            esc(&h.advertised.join("; ")),
            esc(&h.protocols.join("; ")),
            esc(&h.dates.join(", ")),
            esc(&h.tool_versions.join(", ")),
            esc(&h.modes.join(", ")),
            reports.join(", ")
        );
    }
    out.push('\n');
}

fn requirements(out: &mut String, rows: &[RequirementRow], hosts: &[Host]) {
    let _ = writeln!(
        out,
        "## Requirements\n\nHosts that pass a requirement non-vacuously ran at least one of its cases with at least one assertion, and none of its cases failed, warned or was blocked; skipped cases never count.\n\n| level | source | requirement | cases | passing hosts | never exercised |\n|---|---|---|---|---|---|"
    );
    for row in rows {
        let offline = row.statuses.iter().all(|s| s.status.as_str() == "offline");
        let passing = if offline {
            "offline (schema files, not hosts)".to_string()
        } else {
            format!(
                "{} of {}: {}",
                row.passing_hosts.len(),
                hosts.len(),
                list(&row.passing_hosts)
            )
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            esc(&row.requirement.level),
            esc(&row.requirement.source),
            esc(&row.requirement.text),
            row.cases.len(),
            passing,
            if offline {
                "—".to_string()
            } else {
                list(&row.gap_hosts)
            }
        );
    }
    out.push('\n');
}

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        "—".to_string()
    } else {
        ids.join(", ")
    }
}

fn matrix(out: &mut String, rows: &[RequirementRow], hosts: &[Host]) {
    let cases: usize = rows.iter().map(|r| r.cases.len()).sum();
    let _ = writeln!(
        out,
        "<details><summary>Matrix: {cases} cases × {} hosts</summary>\n",
        hosts.len()
    );
    let _ = write!(out, "| requirement / case |");
    for h in hosts {
        let _ = write!(out, " {} |", h.id);
    }
    let _ = write!(out, "\n|---|");
    for _ in hosts {
        let _ = write!(out, "---|");
    }
    out.push('\n');
    for row in rows {
        let _ = write!(
            out,
            "| **{} {}** {} |",
            esc(&row.requirement.level),
            esc(&row.requirement.source),
            esc(&row.requirement.text)
        );
        for s in &row.statuses {
            let _ = write!(out, " **{}** |", s.status.as_str());
        }
        out.push('\n');
        for case in &row.cases {
            let _ = write!(out, "| {} |", code(&case.id));
            for hc in &case.cells {
                // The fact behind a skip or block, or the first failed assertion; the
                // HTML page has every detail.
                let reason = match (&hc.cell.reason, hc.cell.failed.first(), hc.cell.outcome) {
                    (_, Some(first), _) => format!(": {first}"),
                    (
                        Some(r),
                        None,
                        CellOutcome::Skip | CellOutcome::Blocked | CellOutcome::Error,
                    ) => {
                        format!(": {r}")
                    }
                    _ => String::new(),
                };
                let _ = write!(
                    out,
                    " {} {}{} |",
                    symbol(hc.cell.outcome),
                    esc(&cell_label(&hc.cell)),
                    esc(&reason)
                );
            }
            out.push('\n');
        }
    }
    let _ = writeln!(
        out,
        "\nCells: outcome and assertions executed (`fail 1/3`: 1 of 3 failed); `offline`: judges schema files, not the host; `(--require)`: a skip or block that --require had failed; `≠`: the host's reports disagree (the worse is shown).\n\n</details>\n"
    );
}

fn notes(out: &mut String, merged: &Merged) {
    let lines: Vec<&String> = merged
        .counted_once
        .iter()
        .chain(&merged.conflicts)
        .chain(&merged.differences)
        .collect();
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Notes\n");
    for line in lines {
        let _ = writeln!(out, "- {}", esc(line));
    }
    out.push('\n');
}

fn inputs(out: &mut String, merged: &Merged) {
    let _ = writeln!(
        out,
        "## Inputs\n\nEach was verified before merging; re-verify with `mmconform verify FILE` (report digest) and `sha256sum FILE` (file digest).\n\n| # | file | host | report digest (integrity) | file sha256 | run |\n|---|---|---|---|---|---|"
    );
    for i in &merged.inputs {
        let _ = writeln!(
            out,
            "| {} | {} | {} | `{}` | `{}` | {} {} exit {}{}{} |",
            i.index,
            code(&i.file),
            i.host,
            i.integrity_sha256,
            i.file_sha256,
            esc(&i.started_at),
            esc(&i.mode),
            i.exit_code,
            if i.incomplete { " (incomplete)" } else { "" },
            if i.witnessed { ", witnessed" } else { "" }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{code, esc};

    #[test]
    fn table_cells_cannot_be_broken_out_of() {
        assert_eq!(esc("a | b\nc <script> \\"), "a \\| b c &lt;script&gt; \\\\");
        assert_eq!(code("x`y|z"), "`x'y\\|z`");
    }
}
