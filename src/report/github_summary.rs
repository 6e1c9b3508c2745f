//! The run's verdict as Markdown for a CI job's summary page: `--github-summary FILE`,
//! and `$GITHUB_STEP_SUMMARY` when GitHub Actions sets it (appended to, as GitHub asks,
//! since other steps write there too). Like every reporter it only consumes events.
//!
//! The page says what a reviewer needs first: the verdict and exit code, the counts, and
//! each case that failed, errored, was blocked or warned with the requirement and the
//! first failed check. The full detail stays in the JUnit and JSON reports.

use super::causes::{CauseGroups, IDS_SHOWN};
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
                    Outcome::Fail | Outcome::Error | Outcome::Blocked | Outcome::Warn
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
    // The delimiter row has exactly one `---|` per column after its leading pipe: a
    // cell more than the header and GitHub renders no table at all.
    text.push_str(&format!(
        "| {} |\n|{}\n| {} |\n\n",
        heads.join(" | "),
        "---|".repeat(outcomes.len()),
        counts.join(" | ")
    ));
    let self_checks: usize = (summary.self_checks.iter())
        .filter(|(o, _)| **o != Outcome::Excluded)
        .map(|(_, n)| n)
        .sum();
    if self_checks > 0 {
        let passed = summary
            .self_checks
            .get(&Outcome::Pass)
            .copied()
            .unwrap_or(0);
        text.push_str(&format!(
            "Self-checks (mmconform's own schema files, offline; not counted above): {passed} of {self_checks} passed.\n\n"
        ));
    }
    for drift in &summary.baseline_drift {
        text.push_str(&format!("- baseline drift: {}\n", cell(drift)));
    }
    if !summary.baseline_drift.is_empty() {
        text.push('\n');
    }
    if !attention.is_empty() {
        text.push_str("| outcome | case | requirement | what happened |\n|---|---|---|---|\n");
        text.push_str(&case_rows(attention));
        text.push('\n');
    }
    text
}

/// One row per systematic cause shared by several cases (the cause once, its cases
/// by id), then one per other case, at most [`LISTED`].
fn case_rows(attention: &[CaseResult]) -> String {
    let mut causes = CauseGroups::default();
    let mut own: Vec<(usize, &CaseResult)> = Vec::new();
    for (index, case) in attention.iter().enumerate() {
        if !causes.hold(index, case) {
            own.push((index, case));
        }
    }
    let (groups, single) = causes.split();
    own.extend(single.iter().map(|(index, case)| (*index, case)));
    own.sort_by_key(|(index, _)| *index);
    let mut text = String::new();
    for group in &groups {
        let ids: Vec<String> = group.ids().take(IDS_SHOWN).map(code).collect();
        let more = group.cases.len().saturating_sub(IDS_SHOWN);
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let fix = (group.cause.fix.as_deref()).map_or(String::new(), |f| format!("; fix: {f}"));
        text.push_str(&format!(
            "| {} | {} cases: {}{more} | {} | {} |\n",
            group.outcome,
            group.cases.len(),
            ids.join(", "),
            cell(&group.requirement()),
            cell(&format!("{}{fix}", group.cause.what)),
        ));
    }
    for (_, case) in own.iter().take(LISTED) {
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
    if own.len() > LISTED {
        text.push_str(&format!(
            "\n…and {} more (see the JUnit and JSON reports).\n",
            own.len() - LISTED
        ));
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

    /// Every GFM table in `markdown`, as a real Markdown parser reads it: the number of
    /// columns its delimiter row declares, and its rows (header first) as cell texts.
    fn tables(markdown: &str) -> Vec<(usize, Vec<Vec<String>>)> {
        use pulldown_cmark::{Event as Md, Options, Parser, Tag, TagEnd};
        let mut tables = Vec::new();
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut columns = 0;
        for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
            match event {
                Md::Start(Tag::Table(alignments)) => {
                    columns = alignments.len();
                    rows.clear();
                }
                Md::Start(Tag::TableHead | Tag::TableRow) => rows.push(Vec::new()),
                Md::Start(Tag::TableCell) => rows.last_mut().unwrap().push(String::new()),
                Md::Text(t) | Md::Code(t) => {
                    if let Some(cell) = rows.last_mut().and_then(|r| r.last_mut()) {
                        cell.push_str(&t);
                    }
                }
                Md::End(TagEnd::Table) => tables.push((columns, std::mem::take(&mut rows))),
                _ => {}
            }
        }
        tables
    }

    /// Runs of several shapes: failing, passing, warned only, host text with pipes.
    fn several_runs() -> Vec<Vec<Event>> {
        let mut warned_only = fixtures::events();
        warned_only.retain(|e| match e {
            Event::CaseFinished { result, .. } => {
                matches!(result.outcome, Outcome::Pass | Outcome::Warn)
            }
            _ => true,
        });
        let mut piped = fixtures::events();
        for event in &mut piped {
            if let Event::CaseFinished { result, .. } = event {
                result.reason = Some("a | b || c\nnext line <b>".into());
                result.requirement.source = "RFC | 0091".into();
            }
        }
        vec![
            fixtures::events(),
            fixtures::events_finishing_in(&[0]),
            warned_only,
            piped,
            fixtures::agui_events("s3"),
        ]
    }

    #[test]
    fn every_table_parses_as_gfm_with_its_header_s_number_of_columns() {
        for events in several_runs() {
            let text = rendered(&events);
            let Some(Event::RunFinished(summary)) = events.last() else {
                panic!("each run ends with RunFinished");
            };
            let found = tables(&text);
            let (columns, rows) = found
                .first()
                .unwrap_or_else(|| panic!("no table parsed in:\n{text}"));
            let heads: Vec<&str> = super::super::terminal::SUMMARY_ORDER
                .iter()
                .map(|o| o.as_str())
                .collect();
            assert_eq!(*columns, heads.len(), "{text}");
            assert_eq!(rows[0], heads, "{text}");
            let counts: Vec<String> = super::super::terminal::SUMMARY_ORDER
                .iter()
                .map(|o| summary.count(*o).to_string())
                .collect();
            assert_eq!(rows[1], counts, "{text}");
            for (columns, rows) in &found {
                for row in rows {
                    assert_eq!(row.len(), *columns, "{row:?} in\n{text}");
                }
            }
            let listed = events
                .iter()
                .filter(|e| matches!(e, Event::CaseFinished { result, .. } if matches!(result.outcome, Outcome::Fail | Outcome::Error | Outcome::Blocked | Outcome::Warn)))
                .count();
            if listed > 0 {
                let (columns, rows) = &found[1];
                assert_eq!(*columns, 4, "{text}");
                assert_eq!(rows.len(), listed + 1, "{text}");
            }
        }
    }

    #[test]
    fn a_cause_shared_by_many_cases_is_one_row() {
        let mut events = fixtures::events();
        let template = fixtures::cases()
            .into_iter()
            .find(|c| c.outcome == Outcome::Blocked)
            .unwrap();
        let Some(Event::RunFinished(_)) = events.pop() else {
            panic!("the fixture ends with RunFinished");
        };
        let mut added = Vec::new();
        for i in 0..40 {
            let mut case = template.clone();
            case.id = format!("blocked.by.auth[{i}]");
            case.cause = Some(crate::outcome::Cause {
                what: "authentication refused: the host answered HTTP 401".into(),
                fix: Some("set OPENWOP_API_KEY".into()),
            });
            added.push(case.clone());
            events.push(Event::CaseFinished {
                index: 100 + i,
                result: Box::new(case),
            });
        }
        let mut all = fixtures::cases();
        all.extend(added);
        events.push(Event::RunFinished(fixtures::summary(&all, false)));
        let text = rendered(&events);
        let rows: Vec<&str> = (text.lines())
            .filter(|l| l.contains("authentication refused"))
            .collect();
        assert_eq!(rows.len(), 1, "{text}");
        assert!(
            rows[0].starts_with("| blocked | 40 cases: `` blocked.by.auth[0] ``"),
            "{text}"
        );
        assert!(rows[0].contains("and 37 more"), "{text}");
        assert!(rows[0].contains("fix: set OPENWOP_API_KEY"), "{text}");
        let tables = tables(&text);
        for row in &tables[1].1 {
            assert_eq!(row.len(), 4, "{row:?}");
        }
    }

    #[test]
    fn warned_cases_are_listed_with_the_failed_ones() {
        let events = fixtures::events();
        let text = rendered(&events);
        for event in &events {
            if let Event::CaseFinished { result, .. } = event
                && result.outcome == Outcome::Warn
            {
                assert!(
                    text.contains(&format!("| warn | `` {} `` |", result.id)),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn host_text_cannot_break_the_table_or_inject_html() {
        assert_eq!(cell("a|b\n<script>"), "a\\|b &lt;script>");
        assert_eq!(code("x`y"), "`` x'y ``");
    }
}
