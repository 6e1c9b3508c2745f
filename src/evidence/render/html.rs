//! One self-contained HTML page: inline style, no script, nothing fetched from
//! anywhere. The matrix is colour-coded and still reads without colour (every cell
//! says its outcome in words and a symbol); each cell's detail is in its `title`
//! (hover) and in a `<details>` element (click). Every value is escaped.

use super::{cell_detail, cell_label, met_word, needs, short, symbol, updated_line};
use crate::evidence::hosts::Host;
use crate::evidence::matrix::{CaseRow, RequirementRow};
use crate::evidence::model::Merged;
use crate::evidence::verdict::{CriterionResult, Verdict};
use std::fmt::Write as _;

const STYLE: &str = include_str!("style.css");

/// Text for an element's content or a quoted attribute value (one escaping for every
/// page mmconform writes).
pub use crate::report::html::esc;

fn list(ids: &[String]) -> String {
    if ids.is_empty() {
        "—".to_string()
    } else {
        ids.join(", ")
    }
}

pub fn render(merged: &Merged) -> String {
    let mut out = String::new();
    let title = merged
        .verdict
        .as_ref()
        .map_or("Conformance evidence".to_string(), |v| {
            format!("{} — {}", v.title, met_word(v.met))
        });
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Evidence: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        esc(&title)
    );
    header(&mut out, merged);
    out.push_str("<main>\n");
    if let Some(v) = &merged.verdict {
        criteria(&mut out, v);
    }
    hosts(&mut out, &merged.hosts);
    matrix(&mut out, &merged.requirements, &merged.hosts);
    notes(&mut out, merged);
    inputs(&mut out, merged);
    let _ = write!(
        out,
        "</main>\n<footer>Written by mmconform {} on {}. This page is self-contained: no script, no external resource.</footer>\n</body>\n</html>\n",
        esc(&merged.tool_version),
        esc(&merged.merged_on)
    );
    out
}

fn header(out: &mut String, merged: &Merged) {
    out.push_str("<header>\n");
    let heading = merged
        .verdict
        .as_ref()
        .map_or("Conformance evidence", |v| v.title.as_str());
    let _ = writeln!(out, "<h1>Evidence: {}</h1>", esc(heading));
    if let Some(v) = &merged.verdict {
        let met = v.results.iter().filter(|r| r.met).count();
        let _ = writeln!(
            out,
            "<p class=\"verdict {}\" id=\"verdict\"><strong>Verdict: {} {}</strong> ({met} of {} criteria met), criteria <code>{}</code> sha256 <code title=\"{}\">{}</code></p>",
            if v.met { "met" } else { "not-met" },
            if v.met { "✓" } else { "✗" },
            met_word(v.met),
            v.results.len(),
            esc(&v.criteria),
            esc(&v.sha256),
            esc(&short(&v.sha256))
        );
    }
    let _ = writeln!(
        out,
        "<p>Merged by mmconform {} on {} from {} verified report(s) of {} host(s).</p>",
        esc(&merged.tool_version),
        esc(&merged.merged_on),
        merged.inputs.len(),
        merged.hosts.len()
    );
    let _ = writeln!(
        out,
        "<blockquote class=\"updated\"><p><strong>For the RFC's <code>Updated:</code> line</strong></p><p id=\"updated-line\">{}</p></blockquote>\n</header>",
        esc(&updated_line(merged))
    );
}

fn criteria(out: &mut String, v: &Verdict) {
    out.push_str("<section id=\"criteria\">\n<h2>Criteria</h2>\n<ul class=\"notes\">\n");
    for note in &v.notes {
        let _ = writeln!(out, "<li>{}</li>", esc(note));
    }
    if !v.exclude_origins.is_empty() {
        let _ = writeln!(
            out,
            "<li>Excluded origins (judged, never counted): {}</li>",
            esc(&v.exclude_origins.join(", "))
        );
    }
    out.push_str("</ul>\n<table class=\"criteria\">\n<thead><tr><th scope=\"col\">status</th><th scope=\"col\">criterion</th><th scope=\"col\">needs</th><th scope=\"col\">satisfied by</th><th scope=\"col\">missing</th></tr></thead>\n<tbody>\n");
    for r in &v.results {
        criterion_row(out, r);
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

fn criterion_row(out: &mut String, r: &CriterionResult) {
    let _ = write!(
        out,
        "<tr class=\"{}\" id=\"criterion-{}\"><td><span class=\"badge\">{} {}</span></td><td><details><summary><code>{}</code>: {}</summary>",
        if r.met { "met" } else { "not-met" },
        esc(&r.id),
        if r.met { "✓" } else { "✗" },
        met_word(r.met),
        esc(&r.id),
        esc(&r.text)
    );
    if let Some(from) = &r.from {
        let _ = write!(out, "<p>Encodes: {}</p>", esc(from));
    }
    out.push_str("<ul class=\"why\">");
    for h in &r.hosts {
        let state = match (h.satisfied, h.excluded) {
            (true, false) => "✓ counts",
            (true, true) => "✓ satisfies, excluded origin",
            (false, true) => "✗ excluded origin",
            (false, false) => "✗",
        };
        let _ = write!(
            out,
            "<li>{} {}: {}</li>",
            esc(&h.host),
            state,
            esc(&h.why.join("; "))
        );
    }
    let _ = writeln!(
        out,
        "</ul></details></td><td>{}</td><td>{}</td><td>{}</td></tr>",
        esc(&needs(r)),
        esc(&list(&r.satisfied_by)),
        esc(r.missing.as_deref().unwrap_or(""))
    );
}

fn hosts(out: &mut String, hosts: &[Host]) {
    out.push_str("<section id=\"hosts\">\n<h2>Hosts</h2>\n<table class=\"hosts\">\n<thead><tr><th scope=\"col\">host</th><th scope=\"col\">origin</th><th scope=\"col\">digest</th><th scope=\"col\">advertises / declares</th><th scope=\"col\">protocol</th><th scope=\"col\">date</th><th scope=\"col\">mmconform</th><th scope=\"col\">mode</th><th scope=\"col\">reports</th></tr></thead>\n<tbody>\n");
    for h in hosts {
        let reports: Vec<String> = h.reports.iter().map(|r| format!("#{r}")).collect();
        let once = if h.reports.len() > 1 {
            " (counted once)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "<tr id=\"host-{}\"><th scope=\"row\">{}</th><td><code>{}</code></td><td><code title=\"{}\">{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}{once}</td></tr>",
            esc(&h.id),
            esc(&h.id),
            esc(&h.origin),
            esc(h.digest.as_deref().unwrap_or("no digest")),
            esc(&h.short_digest()),
            esc(&h.advertised.join("; ")),
            esc(&h.protocols.join("; ")),
            esc(&h.dates.join(", ")),
            esc(&h.tool_versions.join(", ")),
            esc(&h.modes.join(", ")),
            esc(&reports.join(", "))
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

const LEGEND: &[(&str, &str)] = &[
    ("pass", "✓ pass N: N assertions ran, all held"),
    ("fail", "✗ fail F/N: F of N failed"),
    ("warn", "! warn: a SHOULD not met"),
    (
        "skip",
        "– skip: not applicable (the discovery fact says why)",
    ),
    ("blocked", "⊘ blocked: could not be observed"),
    ("xfail", "✗ xfail: a known failure (baseline)"),
    ("error", "‼ error: a defect in mmconform or a scenario"),
    ("absent", "· absent: not in this host's reports"),
];

fn matrix(out: &mut String, rows: &[RequirementRow], hosts: &[Host]) {
    out.push_str("<section id=\"matrix\">\n<h2>Matrix</h2>\n<p class=\"legend\">");
    for (class, text) in LEGEND {
        let _ = write!(out, "<span class=\"o-{class}\">{}</span>", esc(text));
    }
    out.push_str("<span>offline: judges schema files, not the host</span><span class=\"conflict\">≠ the host's reports disagree</span></p>\n<p>Click a cell for its detail (or hover).</p>\n<table class=\"matrix\">\n<thead><tr><th scope=\"col\">requirement / case</th>");
    for h in hosts {
        let _ = write!(
            out,
            "<th scope=\"col\" title=\"{}\">{}<br><code>{}</code><br><code>{}</code></th>",
            esc(&format!("{}\n{}", h.label(), h.advertised.join("\n"))),
            esc(&h.id),
            esc(&h.origin),
            esc(&h.short_digest())
        );
    }
    out.push_str("</tr></thead>\n");
    for row in rows {
        requirement_group(out, row, hosts.len());
    }
    out.push_str("</table>\n</section>\n");
}

fn requirement_group(out: &mut String, row: &RequirementRow, hosts: usize) {
    let offline = row.statuses.iter().all(|s| s.status.as_str() == "offline");
    let summary = if offline {
        "offline cases: they judge schema files, not hosts".to_string()
    } else {
        format!(
            "passing non-vacuously: {} of {hosts} ({}) · never exercised: {}",
            row.passing_hosts.len(),
            list(&row.passing_hosts),
            list(&row.gap_hosts)
        )
    };
    let _ = write!(
        out,
        "<tbody class=\"requirement\">\n<tr class=\"req\"><th scope=\"rowgroup\">{} {} — {}<span class=\"summary\">{}</span></th>",
        esc(&row.requirement.level),
        esc(&row.requirement.source),
        esc(&row.requirement.text),
        esc(&summary)
    );
    for s in &row.statuses {
        let _ = write!(
            out,
            "<td class=\"status s-{}\">{}</td>",
            s.status.as_str(),
            s.status.as_str()
        );
    }
    out.push_str("</tr>\n");
    for case in &row.cases {
        case_row(out, case);
    }
    out.push_str("</tbody>\n");
}

fn case_row(out: &mut String, case: &CaseRow) {
    let _ = write!(
        out,
        "<tr class=\"case\"><th scope=\"row\" title=\"{}\"><code>{}</code></th>",
        esc(&case.title),
        esc(&case.id)
    );
    for hc in &case.cells {
        let cell = &hc.cell;
        let detail = cell_detail(cell);
        let _ = write!(
            out,
            "<td class=\"cell o-{}{}\" title=\"{}\"><details><summary>{} {}</summary><ul>",
            cell.outcome.as_str(),
            if cell.conflict { " conflict" } else { "" },
            esc(&format!("{} · {}\n{}", hc.host, case.id, detail.join("\n"))),
            symbol(cell.outcome),
            esc(&cell_label(cell))
        );
        for line in &detail {
            let _ = write!(out, "<li>{}</li>", esc(line));
        }
        out.push_str("</ul></details></td>");
    }
    out.push_str("</tr>\n");
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
    out.push_str("<section id=\"notes\">\n<h2>Notes</h2>\n<ul class=\"notes\">\n");
    for line in lines {
        let _ = writeln!(out, "<li>{}</li>", esc(line));
    }
    out.push_str("</ul>\n</section>\n");
}

fn inputs(out: &mut String, merged: &Merged) {
    out.push_str("<section id=\"inputs\">\n<h2>Inputs</h2>\n<p>Each was verified before merging; re-verify with <code>mmconform verify FILE</code> (report digest) and <code>sha256sum FILE</code> (file digest).</p>\n<table class=\"inputs\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">file</th><th scope=\"col\">host</th><th scope=\"col\">report digest (integrity)</th><th scope=\"col\">file sha256</th><th scope=\"col\">run</th></tr></thead>\n<tbody>\n");
    for i in &merged.inputs {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{} {} exit {} ({}){}{}</td></tr>",
            i.index,
            esc(&i.file),
            esc(&i.host),
            esc(&i.integrity_sha256),
            esc(&i.file_sha256),
            esc(&i.started_at),
            esc(&i.mode),
            i.exit_code,
            esc(&i.verdict),
            if i.incomplete { " incomplete" } else { "" },
            if i.witnessed { ", witnessed" } else { "" }
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escapes_markup_quotes_and_control_characters() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"y\"\nz\u{1b}"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;y&quot;&#10;z\u{fffd}"
        );
    }
}
