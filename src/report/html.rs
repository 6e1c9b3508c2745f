//! `run --html FILE`: one run as a page a reviewer reads in a browser. Self-contained
//! (inline style, no script, nothing fetched), readable without colour (every outcome
//! is a word), every value escaped: bodies, reasons and headers come from the target.
//!
//! The page: the verdict and its explanation, the counts, the command that reruns the
//! failed and blocked cases, each systematic cause once with its cases, then each
//! failed, errored, blocked and warned case with its requirement, every check (expected
//! and got), the witness's view of what reached the model, the answer, and how to
//! replay its request. Like every reporter it only consumes events.

use super::causes::{CauseGroups, Group};
use super::evidence::{compact_curl, model_call_lines, truncate_body};
use super::terminal::SUMMARY_ORDER;
use super::{ReportError, Reporter, mode_label};
use crate::event::{Event, RunInfo, RunSummary};
use crate::outcome::{CaseResult, Exchange, Outcome};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The stylesheet the evidence page uses, and the few rules of this page.
const STYLE: &str = concat!(
    include_str!("../evidence/render/style.css"),
    include_str!("html.css")
);

/// Longest response body shown per exchange; the JSON report has it whole.
const BODY_LIMIT: usize = 8 * 1024;

/// Text for an element's content or a quoted attribute value.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' => out.push_str("&#10;"),
            c if c.is_control() && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

pub struct HtmlReporter {
    path: PathBuf,
    run: Option<RunInfo>,
    /// The failed, errored, blocked and warned cases, with their plan index.
    cases: Vec<(usize, CaseResult)>,
}

impl HtmlReporter {
    pub fn new(path: PathBuf) -> Self {
        HtmlReporter {
            path,
            run: None,
            cases: Vec::new(),
        }
    }
}

impl Reporter for HtmlReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        match event {
            Event::RunStarted(run) => self.run = Some(run.as_ref().clone()),
            Event::CaseFinished { index, result } if shown(result.outcome) => {
                self.cases.push((*index, result.as_ref().clone()));
            }
            Event::RunFinished(summary) => {
                self.cases.sort_by_key(|(index, _)| *index);
                let page = render(self.run.as_ref(), &self.cases, summary);
                super::write_atomically(&self.path, page.as_bytes()).map_err(|source| {
                    ReportError {
                        kind: "HTML",
                        path: self.path.clone(),
                        source,
                    }
                })?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// The outcomes the page shows case by case.
fn shown(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Fail | Outcome::Error | Outcome::Blocked | Outcome::Warn
    )
}

/// The page.
pub fn render(
    run: Option<&RunInfo>,
    cases: &[(usize, CaseResult)],
    summary: &RunSummary,
) -> String {
    let mut out = String::new();
    let verdict = format!("{} (exit {})", summary.verdict, summary.exit_code);
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mmconform: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        esc(&verdict)
    );
    header(&mut out, run, summary);
    out.push_str("<main>\n");
    counts(&mut out, summary);
    let ids: Vec<String> = (cases.iter())
        .filter(|(_, c)| c.outcome != Outcome::Warn)
        .map(|(_, c)| c.id.clone())
        .collect();
    if let Some(command) = run.and_then(|run| super::rerun::command(run, &ids)) {
        let _ = write!(
            out,
            "<section id=\"rerun\">\n<h2>Rerun the {} failed and blocked cases</h2>\n<pre><code>{}</code></pre>\n</section>\n",
            ids.len(),
            esc(&command)
        );
    }
    let mut held = CauseGroups::default();
    let own: Vec<&(usize, CaseResult)> = cases.iter().filter(|(i, c)| !held.hold(*i, c)).collect();
    let (groups, single) = held.split();
    if !groups.is_empty() {
        out.push_str("<section id=\"causes\">\n<h2>One cause, many cases</h2>\n");
        for group in &groups {
            cause(&mut out, group);
        }
        out.push_str("</section>\n");
    }
    let mut listed: Vec<&(usize, CaseResult)> = own.into_iter().chain(single.iter()).collect();
    listed.sort_by_key(|(index, _)| *index);
    if !listed.is_empty() {
        out.push_str("<section id=\"cases\">\n<h2>Cases to look at</h2>\n");
        for (index, result) in listed {
            case(&mut out, *index, result, run);
        }
        out.push_str("</section>\n");
    }
    let version = run.map_or("", |r| r.tool_version.as_str());
    let _ = write!(
        out,
        "</main>\n<footer>Written by mmconform {} at {}. Self-contained: no script, no external resource. Every case is in the JSON report and JUnit.</footer>\n</body>\n</html>\n",
        esc(version),
        esc(&summary.finished_at)
    );
    out
}

fn header(out: &mut String, run: Option<&RunInfo>, summary: &RunSummary) {
    let class = if summary.exit_code == 0 {
        "met"
    } else {
        "not-met"
    };
    let _ = write!(
        out,
        "<header>\n<h1>mmconform: <span id=\"verdict\" class=\"verdict {class}\">{}</span> (exit {})</h1>\n<p id=\"explanation\">{}</p>\n",
        esc(&summary.verdict),
        summary.exit_code,
        esc(&summary.explanation)
    );
    if let Some(run) = run {
        out.push_str("<dl class=\"run\">\n");
        for (term, value) in [
            ("target", run.target.as_str()),
            ("profile", run.profile.as_str()),
            ("mode", mode_label(run.strict, run.require)),
            ("mmconform", run.tool_version.as_str()),
            ("started", run.started_at.as_str()),
            (
                "witness",
                run.witness
                    .as_deref()
                    .unwrap_or("none (what reached the model is not seen)"),
            ),
        ] {
            let _ = writeln!(out, "<dt>{term}</dt><dd><code>{}</code></dd>", esc(value));
        }
        out.push_str("</dl>\n");
        list(out, "warnings", &run.warnings);
    }
    let mut notes: Vec<String> = summary.advice.clone();
    notes.extend(
        summary
            .baseline_drift
            .iter()
            .map(|d| format!("baseline drift: {d}")),
    );
    list(out, "advice", &notes);
    out.push_str("</header>\n");
}

fn list(out: &mut String, class: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "<ul class=\"{class}\">");
    for item in items {
        let _ = writeln!(out, "<li>{}</li>", esc(item));
    }
    out.push_str("</ul>\n");
}

fn counts(out: &mut String, summary: &RunSummary) {
    out.push_str("<section id=\"counts\">\n<h2>Counts</h2>\n<table class=\"counts\">\n<thead><tr>");
    for outcome in SUMMARY_ORDER {
        let _ = write!(out, "<th scope=\"col\">{outcome}</th>");
    }
    out.push_str("</tr></thead>\n<tbody><tr>");
    for outcome in SUMMARY_ORDER {
        let n = summary.count(outcome);
        let class = if n > 0 {
            format!(" class=\"o-{outcome}\"")
        } else {
            String::new()
        };
        let _ = write!(out, "<td{class}>{n}</td>");
    }
    out.push_str("</tr></tbody>\n</table>\n</section>\n");
}

fn cause(out: &mut String, group: &Group) {
    let _ = write!(
        out,
        "<article class=\"cause o-{}\">\n<h3><span class=\"badge\">{}</span> {} cases: {}</h3>\n",
        group.outcome,
        group.outcome,
        group.cases.len(),
        esc(&group.cause.what)
    );
    if let Some(fix) = &group.cause.fix {
        let _ = writeln!(out, "<p class=\"fix\">Fix: {}</p>", esc(fix));
    }
    let _ = write!(
        out,
        "<p class=\"requirement\">{}</p>\n<details><summary>The {} case ids</summary>\n<ul class=\"ids\">\n",
        esc(&group.requirement()),
        group.cases.len()
    );
    for id in group.ids() {
        let _ = writeln!(out, "<li><code>{}</code></li>", esc(id));
    }
    out.push_str("</ul>\n</details>\n</article>\n");
}

fn case(out: &mut String, index: usize, case: &CaseResult, run: Option<&RunInfo>) {
    let req = &case.requirement;
    let _ = write!(
        out,
        "<article class=\"case o-{}\" id=\"case-{index}\">\n<h3><span class=\"badge\">{}</span> <code>{}</code></h3>\n<p class=\"requirement\"><strong>{}</strong> {}: {}</p>\n",
        case.outcome,
        case.outcome,
        esc(&case.id),
        req.level,
        esc(&req.source),
        esc(&req.text)
    );
    if let Some(reason) = &case.reason {
        let _ = writeln!(out, "<p class=\"reason\">{}</p>", esc(reason));
    }
    if !case.assertions.is_empty() {
        out.push_str("<table class=\"checks\">\n<thead><tr><th scope=\"col\">check</th><th scope=\"col\">expected</th><th scope=\"col\">got</th><th scope=\"col\">held</th></tr></thead>\n<tbody>\n");
        for a in &case.assertions {
            let (class, word) = if a.passed {
                ("o-pass", "yes")
            } else {
                ("o-fail", "no")
            };
            let _ = writeln!(
                out,
                "<tr class=\"{class}\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{word}</td></tr>",
                esc(&a.check),
                esc(&a.expected),
                esc(&a.actual)
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    witness(out, case);
    answer(out, case);
    list(out, "notes", &case.notes);
    replay(out, case, run);
    out.push_str("</article>\n");
}

/// What reached the model, as the witness recorded it, or why it is not known.
fn witness(out: &mut String, case: &CaseResult) {
    out.push_str("<div class=\"witness\">\n<h4>What reached the model</h4>\n");
    let lines = model_call_lines(case);
    if lines.is_empty() {
        out.push_str("<p>Not seen: the run had no witness (<code>--witness</code>), or the case sent nothing.</p>\n");
    } else {
        list(out, "calls", &lines);
    }
    out.push_str("</div>\n");
}

/// How the protocol read the answer, and each request with its answer.
fn answer(out: &mut String, case: &CaseResult) {
    let own: Vec<&Exchange> = case.exchanges.iter().filter(|e| !e.cached).collect();
    if case.stream.is_none() && own.is_empty() {
        return;
    }
    out.push_str("<div class=\"answer\">\n<h4>The answer</h4>\n");
    if let Some(stream) = &case.stream {
        let _ = writeln!(out, "<p>{}</p>", esc(&stream.view.summary));
    }
    for exchange in own {
        let request = &exchange.request;
        let status = exchange
            .response
            .as_ref()
            .map_or("no answer".to_string(), |r| {
                format!("answered {}", r.status)
            });
        let _ = writeln!(
            out,
            "<p><code>{} {}</code> {}</p>",
            esc(&request.method),
            esc(&request.url),
            esc(&status)
        );
        if let Some(response) = &exchange.response {
            let _ = write!(
                out,
                "<details><summary>Response body ({} bytes)</summary>\n<pre>{}</pre>\n</details>\n",
                response.body.len(),
                esc(&truncate_body(&response.body, BODY_LIMIT))
            );
        }
    }
    out.push_str("</div>\n");
}

/// How to send the case's request again: `mmconform replay` on the run's report, else
/// its curl line (media shortened).
fn replay(out: &mut String, case: &CaseResult, run: Option<&RunInfo>) {
    let Some(exchange) = case.exchanges.iter().rev().find(|e| !e.cached) else {
        return;
    };
    let command = match run.and_then(|r| r.report_file.as_deref()) {
        Some(report) => {
            shlex::try_join(["mmconform", "replay", report, case.id.as_str()]).unwrap_or_default()
        }
        None => compact_curl(&exchange.curl),
    };
    let _ = write!(
        out,
        "<div class=\"replay\">\n<h4>Replay</h4>\n<pre><code>{}</code></pre>\n</div>\n",
        esc(&command)
    );
}

#[cfg(test)]
#[path = "html_tests.rs"]
mod tests;
