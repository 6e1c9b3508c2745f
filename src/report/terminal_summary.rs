//! The terminal's closing lines: each systematic cause once with its cases, the
//! counts, the ids to look at, the run's advice and the verdict.

use super::super::ReportError;
use super::super::causes::{Group, IDS_SHOWN};
use super::super::rerun;
use super::{
    INDENT, Paint, SELF_CHECKS, SUMMARY_ORDER, TAG_WIDTH, TerminalReporter, format_duration,
    printable, push_indented, tag,
};
use crate::event::RunSummary;
use crate::outcome::Outcome;

impl TerminalReporter {
    /// A cause said once for every case it decided: the cause, its fix, the shared
    /// requirement, and the ids (the first few; `-v`: every one, and the first case in
    /// full). Each case stays in the JSON and JUnit reports.
    pub(super) fn show_group(&mut self, group: &Group) -> Result<(), ReportError> {
        let first = &group.cases[0].1;
        let (tag, paint) = tag(group.outcome);
        let mut text = format!(
            "{} {} cases: {}\n",
            self.paint(&format!("{tag:<TAG_WIDTH$}"), paint),
            group.cases.len(),
            printable(&group.cause.what)
        );
        if let Some(fix) = &group.cause.fix {
            push_indented(&mut text, &format!("fix: {}", printable(fix)));
        }
        push_indented(
            &mut text,
            &format!("requirement: {}", printable(&group.requirement())),
        );
        let ids: Vec<String> = group.ids().map(printable).collect();
        if self.options.verbose {
            push_indented(&mut text, &format!("ids: {}", ids.join(" ")));
            push_indented(&mut text, "the first in full:");
            text.push_str(&self.render_case(first));
            self.attention.extend(
                (group.cases.iter()).map(|(index, case)| (*index, case.outcome, case.id.clone())),
            );
        } else {
            let more = ids.len().saturating_sub(IDS_SHOWN);
            let shown = ids[..ids.len().min(IDS_SHOWN)].join(" ");
            let line = match more {
                0 => format!("ids: {shown}"),
                _ => format!(
                    "ids: {shown} ... and {more} more (-v lists them; the JSON and JUnit reports hold each case)"
                ),
            };
            push_indented(&mut text, &line);
            let entry = self.grouped.entry(group.outcome).or_default();
            entry.0 += group.cases.len();
            entry.1 += 1;
        }
        self.emit(&text)
    }

    pub(super) fn render_summary(&self, summary: &RunSummary) -> String {
        let counts: Vec<String> = SUMMARY_ORDER
            .iter()
            .map(|&outcome| {
                let n = summary.count(outcome);
                let word = format!("{n} {outcome}");
                match (n, outcome) {
                    (0, _) => word,
                    (_, Outcome::Pass) => self.paint(&word, Paint::Green),
                    (_, Outcome::Fail | Outcome::Error) => self.paint(&word, Paint::Red),
                    (_, Outcome::Warn | Outcome::Xfail) => self.paint(&word, Paint::Yellow),
                    (_, Outcome::Blocked) => self.paint(&word, Paint::Magenta),
                    (_, Outcome::Skip | Outcome::Excluded) => word,
                }
            })
            .collect();
        let mut text = format!("\nsummary: {}\n", counts.join(", "));
        // Only the self-checks that were selected: an excluded one said nothing.
        let self_checks: Vec<String> = SUMMARY_ORDER
            .iter()
            .filter(|o| **o != Outcome::Excluded)
            .filter_map(|o| Some((o, *summary.self_checks.get(o).filter(|n| **n > 0)?)))
            .map(|(o, n)| format!("{n} {o}"))
            .collect();
        if !self_checks.is_empty() {
            let counts = self_checks;
            text.push_str(&format!("{SELF_CHECKS}: {}\n", counts.join(", ")));
        }
        // The ids to look at, in plan order, one line per outcome: what a CI log reader
        // searches for without scrolling back through every case.
        text.push_str(&self.closing_lists());
        if self.blocked_by_target > 0 {
            let line = format!(
                "blocked: {} case(s) by the unusable target, not listed above",
                self.blocked_by_target
            );
            text.push_str(&format!("{}\n", self.paint(&line, Paint::Magenta)));
        }
        if summary.flaky > 0 {
            let line = format!(
                "flaky: {} case(s) needed a retry (no answer, or 429/503 with Retry-After); see their notes",
                summary.flaky
            );
            text.push_str(&format!("{}\n", self.paint(&line, Paint::Yellow)));
        }
        for advice in &summary.advice {
            text.push_str(&format!(
                "{}\n",
                self.paint(&printable(advice), Paint::Yellow)
            ));
        }
        if summary.deadline_reached {
            let line = "deadline reached (--deadline): cases undecided then are blocked";
            text.push_str(&format!("{}\n", self.paint(line, Paint::Yellow)));
        }
        if summary.incomplete {
            let ran = self.decided - self.never_ran;
            let decided = match self.planned {
                Some(planned) => format!("{ran} of {planned} planned cases"),
                None => format!("{ran} cases"),
            };
            let line = format!(
                "incomplete: the run stopped after {decided} were decided; {} are blocked as never run (in the reports, not listed above)",
                self.never_ran
            );
            text.push_str(&format!("{}\n", self.paint(&line, Paint::Yellow)));
        }
        let verdict = format!(
            "verdict: {} (exit {})",
            printable(&summary.verdict),
            summary.exit_code
        );
        let paint = match summary.exit_code {
            0 => Paint::Green,
            3 => Paint::Yellow,
            _ => Paint::Red,
        };
        text.push_str(&format!("{}\n", self.paint(&verdict, paint)));
        text.push_str(&format!("{INDENT}{}\n", printable(&summary.explanation)));
        for drift in &summary.baseline_drift {
            let line = format!("baseline drift: {}", printable(drift));
            text.push_str(&format!("{INDENT}{}\n", self.paint(&line, Paint::Red)));
        }
        text.push_str(&format!(
            "duration: {}\n",
            format_duration(summary.duration_ms)
        ));
        let mut rerun = self.rerun.clone();
        rerun.sort();
        let ids: Vec<String> = rerun.into_iter().map(|(_, id)| id).collect();
        if let Some(command) = (self.run.as_ref()).and_then(|run| rerun::command(run, &ids)) {
            let line = format!(
                "rerun the {} failed/blocked: {}",
                ids.len(),
                printable(&command)
            );
            text.push_str(&format!("{}\n", self.paint(&line, Paint::Dim)));
        }
        text
    }

    /// The ids to look at, in plan order, one line per outcome: what a CI log reader
    /// searches for without scrolling back through every case. Cases a cause was said
    /// for above are counted there, not repeated (`-v` lists them here too).
    fn closing_lists(&self) -> String {
        let mut text = String::new();
        let mut attention = self.attention.clone();
        attention.sort_by_key(|(index, _, _)| *index);
        for (outcome, word) in [
            (Outcome::Fail, "failed"),
            (Outcome::Error, "errored"),
            (Outcome::Blocked, "blocked"),
            (Outcome::Warn, "warned"),
        ] {
            let ids: Vec<String> = (attention.iter())
                .filter(|(_, o, _)| *o == outcome)
                .map(|(_, _, id)| printable(id))
                .collect();
            let (cases, causes) = self.grouped.get(&outcome).copied().unwrap_or((0, 0));
            let total = ids.len() + cases;
            if total == 0 {
                continue;
            }
            let by_cause = match causes {
                1 => format!("{cases} by the cause above"),
                n => format!("{cases} by {n} causes above"),
            };
            let listed = match (ids.is_empty(), cases) {
                (_, 0) => ids.join(" "),
                (true, _) => by_cause,
                (false, _) => format!("{} (and {by_cause})", ids.join(" ")),
            };
            text.push_str(&format!("{word} ({total}): {listed}\n"));
        }
        text
    }
}
