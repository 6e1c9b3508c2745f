//! The run's verdict as Markdown for a CI job's summary page: `--github-summary FILE`,
//! and `$GITHUB_STEP_SUMMARY` when GitHub Actions sets it (appended to, as GitHub asks,
//! since other steps write there too). Like every reporter it only consumes events.
//!
//! The page says what a reviewer needs first: the verdict and exit code, the counts, and
//! each case that failed, errored or was blocked with the requirement and the first
//! failed check. The full detail stays in the JUnit and JSON reports.

use super::evidence::failure_summary;
use super::{ReportError, Reporter, mode_label};
pub use crate::config::SummaryWrite;
use crate::event::{Event, RunInfo, RunSummary};
use crate::outcome::{CaseResult, Outcome};
use std::io::Write;
use std::path::PathBuf;

/// Cases listed in full; a run failing more than this lists the rest by count (a step
/// summary is capped at 1 MiB by GitHub).
const LISTED: usize = 100;

pub struct GithubSummaryReporter {
    path: PathBuf,
    write: SummaryWrite,
    run: Option<RunInfo>,
    attention: Vec<CaseResult>,
}

impl GithubSummaryReporter {
    pub fn new(path: PathBuf, write: SummaryWrite) -> Self {
        GithubSummaryReporter {
            path,
            write,
            run: None,
            attention: Vec::new(),
        }
    }

    fn write(&self, text: &str) -> std::io::Result<()> {
        match self.write {
            SummaryWrite::Replace => super::write_atomically(&self.path, text.as_bytes()),
            SummaryWrite::Append => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)?
                .write_all(text.as_bytes()),
        }
    }
}

impl Reporter for GithubSummaryReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        match event {
            Event::RunStarted(run) => self.run = Some(run.as_ref().clone()),
            Event::CaseFinished { result, .. }
                if matches!(
                    result.outcome,
                    Outcome::Fail | Outcome::Error | Outcome::Blocked
                ) =>
            {
                self.attention.push(result.as_ref().clone());
            }
            Event::RunFinished(summary) => {
                let text = render(self.run.as_ref(), &self.attention, summary);
                self.write(&text).map_err(|source| ReportError {
                    kind: "GitHub summary",
                    path: self.path.clone(),
                    source,
                })?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// The Markdown page.
pub fn render(run: Option<&RunInfo>, attention: &[CaseResult], summary: &RunSummary) -> String {
    let mark = if summary.exit_code == 0 { "✅" } else { "❌" };
    let mut text = format!(
        "### {mark} mmconform: {} (exit {})\n\n",
        summary.verdict, summary.exit_code
    );
    if let Some(run) = run {
        text.push_str(&format!(
            "{}, profile `{}`, mode `{}`, mmconform {}\n\n",
            code(&run.target),
            run.profile,
            mode_label(run.strict, run.require),
            run.tool_version
        ));
    }
    text.push_str(&format!("{}\n\n", cell(&summary.explanation)));
    let outcomes = super::terminal::SUMMARY_ORDER;
    let heads: Vec<&str> = outcomes.iter().map(|o| o.as_str()).collect();
    let counts: Vec<String> = outcomes
        .iter()
        .map(|o| summary.count(*o).to_string())
        .collect();
    text.push_str(&format!(
        "| {} |\n|{}|\n| {} |\n\n",
        heads.join(" | "),
        "---|".repeat(outcomes.len()),
        counts.join(" | ")
    ));
    for drift in &summary.baseline_drift {
        text.push_str(&format!("- baseline drift: {}\n", cell(drift)));
    }
    if !summary.baseline_drift.is_empty() {
        text.push('\n');
    }
    if !attention.is_empty() {
        text.push_str("| outcome | case | requirement | what happened |\n|---|---|---|---|\n");
        for case in attention.iter().take(LISTED) {
            let req = &case.requirement;
            text.push_str(&format!(
                "| {} | {} | {} {} | {} |\n",
                case.outcome,
                code(&case.id),
                req.level,
                cell(&req.source),
                cell(&failure_summary(case).unwrap_or_default())
            ));
        }
        if attention.len() > LISTED {
            text.push_str(&format!(
                "\n…and {} more (see the JUnit and JSON reports).\n",
                attention.len() - LISTED
            ));
        }
        text.push('\n');
    }
    text
}

/// Host-controlled text in one table cell: one line, no table or HTML breakout.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
        .replace('<', "&lt;")
}

/// Inline code that a backtick in the text cannot end.
fn code(text: &str) -> String {
    format!("`` {} ``", cell(text).replace('`', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;

    fn rendered(events: &[Event]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("summary.md");
        let mut reporter = GithubSummaryReporter::new(path.clone(), SummaryWrite::Replace);
        fixtures::feed(&mut reporter, events);
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn the_summary_has_the_verdict_the_counts_and_each_case_to_look_at() {
        let events = fixtures::events();
        let text = rendered(&events);
        let Some(Event::RunFinished(summary)) = events.last() else {
            panic!("the fixture ends with RunFinished");
        };
        assert!(
            text.starts_with(&format!(
                "### ❌ mmconform: {} (exit {})",
                summary.verdict, summary.exit_code
            )),
            "{text}"
        );
        for (outcome, n) in &summary.counts {
            assert!(text.contains(outcome.as_str()), "{outcome}");
            assert!(text.contains(&n.to_string()));
        }
        let failed: Vec<&CaseResult> = events
            .iter()
            .filter_map(|e| match e {
                Event::CaseFinished { result, .. } if result.outcome == Outcome::Fail => {
                    Some(result.as_ref())
                }
                _ => None,
            })
            .collect();
        assert!(!failed.is_empty(), "the fixture has a failure");
        for case in failed {
            assert!(
                text.contains(&format!("| fail | `` {} `` |", case.id)),
                "{text}"
            );
        }
    }

    #[test]
    fn appending_keeps_what_other_steps_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("step-summary.md");
        std::fs::write(&path, "## build\n").unwrap();
        let mut reporter = GithubSummaryReporter::new(path.clone(), SummaryWrite::Append);
        fixtures::feed(&mut reporter, &fixtures::events());
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.starts_with("## build\n### "), "{text}");
    }

    #[test]
    fn host_text_cannot_break_the_table_or_inject_html() {
        assert_eq!(cell("a|b\n<script>"), "a\\|b &lt;script>");
        assert_eq!(code("x`y"), "`` x'y ``");
    }
}
