//! The human-facing reporter: one line per case, details under failures, a summary.
//!
//! Lines come out in plan order whatever order cases finish in, so two runs against
//! the same host print the same text and a snapshot of the output is meaningful.

use super::causes::CauseGroups;
use super::evidence::{self, TERMINAL_BODY_LIMIT};
use super::{ReportError, Reporter, mode_label};
use crate::event::{DiscoverySnapshot, Event, RunInfo, RunSummary};
use crate::outcome::{CaseResult, Outcome};
use crate::stop::NEVER_RAN;
use colored::Colorize;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// How the terminal output looks; resolved by the CLI from flags, `NO_COLOR` and TTY checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerminalOptions {
    /// Colour outcome tags and the verdict. When false, no ANSI code is ever written.
    pub color: bool,
    /// Also print the redacted request and response of every case that did not pass.
    pub verbose: bool,
    /// Draw a live progress bar on stderr; true only when stderr is a TTY.
    pub progress: bool,
    /// `--quiet`: only the cases that need attention (fail, error, blocked), run-level
    /// warnings and the summary.
    pub quiet: bool,
}

/// Width of the longest tag (`BLOCKED`), so ids line up.
const TAG_WIDTH: usize = 7;
/// Details sit under the id column.
const INDENT: &str = "        ";

pub struct TerminalReporter {
    options: TerminalOptions,
    out: Box<dyn Write + Send>,
    /// Hidden until a plan arrives with `progress` on; a hidden bar still runs
    /// `suspend` closures, so printing goes through the bar either way.
    bar: ProgressBar,
    /// Cases that finished before an earlier one, waiting for their turn.
    pending: BTreeMap<usize, CaseResult>,
    next_index: usize,
    planned: Option<usize>,
    decided: usize,
    /// The reason every case blocked by an unusable target carries: those cases are
    /// counted, not listed (the JSON and JUnit reports list each one).
    unusable: Option<String>,
    blocked_by_target: usize,
    /// Ids of the cases that failed, errored, were blocked or warned, for the closing
    /// list, with their plan index.
    attention: Vec<(usize, Outcome, String)>,
    /// The run, for the rerun command it ends with.
    run: Option<RunInfo>,
    /// Ids of every failed, errored and blocked case (however shown): what the rerun
    /// command reruns, with their plan index.
    rerun: Vec<(usize, String)>,
    /// Cases with a systematic cause, held until the end to say each cause once.
    causes: CauseGroups,
    /// Per outcome: the cases said under a cause block, and how many causes.
    grouped: BTreeMap<Outcome, (usize, usize)>,
    /// Cases Ctrl-C left undecided: blocked in the reports, counted here once.
    never_ran: usize,
    /// Passing self-checks, rendered but held back: listed at the end only when the run
    /// selected no host case (`run --offline`), where they are the whole run.
    self_check_passes: String,
}

/// How the summary names the self-checks: what they are and why they stand apart.
const SELF_CHECKS: &str =
    "self-checks (mmconform's own schema files, offline; not counted for the host)";

#[derive(Debug, Clone, Copy)]
enum Paint {
    Green,
    Red,
    RedBold,
    Yellow,
    Cyan,
    Magenta,
    Dim,
}

impl TerminalReporter {
    pub fn new(options: TerminalOptions, out: Box<dyn Write + Send>) -> Self {
        TerminalReporter {
            options,
            out,
            bar: ProgressBar::hidden(),
            pending: BTreeMap::new(),
            next_index: 0,
            planned: None,
            decided: 0,
            unusable: None,
            blocked_by_target: 0,
            attention: Vec::new(),
            run: None,
            rerun: Vec::new(),
            causes: CauseGroups::default(),
            grouped: BTreeMap::new(),
            never_ran: 0,
            self_check_passes: String::new(),
        }
    }

    /// Colour only when enabled, so `color: false` can never leak an escape code
    /// whatever `colored`'s global override says.
    fn paint(&self, text: &str, paint: Paint) -> String {
        if !self.options.color {
            return text.to_string();
        }
        let styled = match paint {
            Paint::Green => text.green(),
            Paint::Red => text.red(),
            Paint::RedBold => text.red().bold(),
            Paint::Yellow => text.yellow(),
            Paint::Cyan => text.cyan().dimmed(),
            Paint::Magenta => text.magenta(),
            Paint::Dim => text.dimmed(),
        };
        styled.to_string()
    }

    /// Write a block of text (events arrive redacted), printed around the progress bar.
    fn emit(&mut self, text: &str) -> Result<(), ReportError> {
        let out = &mut self.out;
        self.bar
            .suspend(|| {
                out.write_all(text.as_bytes())?;
                out.flush()
            })
            .map_err(|source| ReportError {
                kind: "terminal",
                path: PathBuf::from("<terminal>"),
                source,
            })
    }

    fn run_started(&mut self, run: &RunInfo) -> Result<(), ReportError> {
        self.run = Some(run.clone());
        // The protocol's own options (openwop: the part-spelling dialect), if any.
        let options = if run.protocol_view.summary.is_empty() {
            String::new()
        } else {
            format!(", {}", printable(&run.protocol_view.summary))
        };
        let line = format!(
            "mmconform {} testing {} (profile {}{options}, mode {})\n",
            printable(&run.tool_version),
            printable(&run.target),
            printable(&run.profile),
            mode_label(run.strict, run.require),
        );
        let mut text = if self.options.quiet {
            String::new()
        } else {
            line
        };
        if let Some(declared) = run.declared.as_ref().filter(|_| !self.options.quiet) {
            // No discovery: the declaration is what this run was planned on.
            text.push_str(&format!("{}\n", printable(&declared.view.summary)));
        }
        if let Some(witness) = run.witness.as_ref().filter(|_| !self.options.quiet) {
            text.push_str(&format!(
                "witness: {} (model calls carrying each case's nonce are recorded, and expect.witness judged on them)\n",
                printable(witness)
            ));
        }
        for warning in &run.warnings {
            let warning = format!("warning: {}", printable(warning));
            text.push_str(&format!("{}\n", self.paint(&warning, Paint::Yellow)));
        }
        self.emit(&text)
    }

    fn discovery(&mut self, snapshot: &DiscoverySnapshot) -> Result<(), ReportError> {
        self.discovery_line("discovery", snapshot)?;
        for (tag, variant) in &snapshot.variants {
            self.discovery_line(&format!("discovery@{tag}"), variant)?;
        }
        if self.options.quiet {
            return Ok(());
        }
        for note in &snapshot.notes {
            self.emit(&format!("note: {}\n", printable(note)))?;
        }
        Ok(())
    }

    fn discovery_line(
        &mut self,
        name: &str,
        snapshot: &DiscoverySnapshot,
    ) -> Result<(), ReportError> {
        let status = match snapshot.status {
            Some(code) => code.to_string(),
            None => "no response".to_string(),
        };
        if self.options.quiet && snapshot.problem.is_none() {
            return Ok(());
        }
        let mut line = format!("{name}: {} -> {status}", printable(&snapshot.url));
        if let Some(problem) = &snapshot.problem {
            let problem = format!("problem: {}", printable(problem));
            line.push_str(&format!(" ({})", self.paint(&problem, Paint::Red)));
        }
        line.push('\n');
        if self.options.verbose && !snapshot.facts.is_null() {
            line.push_str(&format!(
                "{INDENT}facts: {}\n",
                printable(&snapshot.facts.to_string())
            ));
        }
        self.emit(&line)
    }

    fn planned(&mut self, total: usize) {
        self.planned = Some(total);
        if self.options.progress {
            let bar = ProgressBar::new(total as u64);
            // A count, never a percentage: a percentage of cases says nothing about
            // conformance and invites reading it as a score.
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} cases {elapsed}")
            {
                bar.set_style(style);
            }
            self.bar = bar;
        }
    }

    fn case_finished(&mut self, index: usize, result: &CaseResult) -> Result<(), ReportError> {
        self.decided += 1;
        self.bar.inc(1);
        if index < self.next_index {
            // A duplicate or late index cannot be put back in order; show it rather than lose it.
            return self.print_case(index, result);
        }
        self.pending.insert(index, result.clone());
        while let Some(case) = self.pending.remove(&self.next_index) {
            self.next_index += 1;
            self.print_case(self.next_index - 1, &case)?;
        }
        Ok(())
    }

    fn print_case(&mut self, index: usize, case: &CaseResult) -> Result<(), ReportError> {
        if case.outcome == Outcome::Excluded {
            return Ok(());
        }
        if matches!(
            case.outcome,
            Outcome::Fail | Outcome::Error | Outcome::Blocked
        ) {
            self.rerun.push((index, case.id.clone()));
        }
        // A passing self-check says nothing about the host: the summary counts it on
        // its own line, and only -v (or a run of self-checks alone) lists it.
        if case.self_check && case.outcome == Outcome::Pass && !self.options.verbose {
            if !self.options.quiet {
                let text = self.render_case(case);
                self.self_check_passes.push_str(&text);
            }
            return Ok(());
        }
        if case.outcome == Outcome::Blocked && case.reason.as_deref() == Some(NEVER_RAN) {
            self.never_ran += 1;
            return Ok(());
        }
        if case.outcome == Outcome::Blocked
            && self.unusable.is_some()
            && case.reason == self.unusable
        {
            self.blocked_by_target += 1;
            return Ok(());
        }
        if self.causes.hold(index, case) {
            return Ok(());
        }
        self.show_case(index, case)
    }

    /// One case on its own line(s), as its outcome and `--quiet` want it.
    fn show_case(&mut self, index: usize, case: &CaseResult) -> Result<(), ReportError> {
        let needs_attention = matches!(
            case.outcome,
            Outcome::Fail | Outcome::Error | Outcome::Blocked
        );
        // A warned case is listed at the end under --quiet too: the summary counts it,
        // so its id must be findable without a run of its own.
        if needs_attention || case.outcome == Outcome::Warn {
            self.attention.push((index, case.outcome, case.id.clone()));
        }
        if !needs_attention && self.options.quiet {
            return Ok(());
        }
        let text = self.render_case(case);
        self.emit(&text)
    }

    fn render_case(&self, case: &CaseResult) -> String {
        let (tag, paint) = tag(case.outcome);
        // Pad before painting: escape codes would count towards the width.
        let mut text = format!(
            "{} {}",
            self.paint(&format!("{tag:<TAG_WIDTH$}"), paint),
            printable(&case.id)
        );
        let reason_in_line = matches!(
            case.outcome,
            Outcome::Skip | Outcome::Blocked | Outcome::Error | Outcome::Xfail
        );
        if reason_in_line && let Some(reason) = &case.reason {
            text.push_str(&format!(" ({})", printable(reason)));
        }
        // How the protocol classified the answer, for every case that got one: what
        // the target did is worth seeing on passing lines too (rejected or converted).
        if let Some(evidence) = &case.stream
            && case.reason.as_deref() != Some(evidence.view.summary.as_str())
        {
            text.push_str(&format!(" -> {}", printable(&evidence.view.summary)));
        }
        if executed(case.outcome) {
            let duration = format!("[{}]", format_duration(case.duration_ms));
            text.push_str(&format!(" {}", self.paint(&duration, Paint::Dim)));
        }
        text.push('\n');
        // A part that arrived transformed, altered or as text is worth seeing on a
        // passing line too.
        for line in evidence::delivery_lines(case) {
            push_indented(&mut text, &printable(&line));
        }
        if self.options.verbose {
            for line in evidence::model_call_lines(case) {
                push_indented(&mut text, &printable(&line));
            }
        }
        if shows_details(case.outcome) {
            for line in evidence::detail_lines(case, true) {
                push_indented(&mut text, &printable(&line));
            }
            if self.options.verbose {
                if !case.decided_on.is_empty() {
                    let facts = case.decided_on.join("; ");
                    push_indented(&mut text, &format!("decided on: {}", printable(&facts)));
                }
                if let Some(evidence) = &case.stream {
                    for line in &evidence.view.lines {
                        push_indented(&mut text, &printable(line));
                    }
                }
                for exchange in &case.exchanges {
                    for line in evidence::exchange_lines(exchange, TERMINAL_BODY_LIMIT) {
                        push_indented(&mut text, &printable(&line));
                    }
                }
            }
        }
        text
    }

    fn target_unusable(&mut self, reason: &str, hint: &str) -> Result<(), ReportError> {
        self.unusable = Some(reason.to_string());
        let text = format!(
            "{}\n{INDENT}{}\n{INDENT}every case that needs the target is blocked with this reason (the JSON and JUnit reports list each one)\n",
            self.paint(&printable(hint), Paint::Red),
            printable(reason),
        );
        self.emit(&text)
    }

    fn run_finished(&mut self, summary: &RunSummary) -> Result<(), ReportError> {
        // Whatever is still buffered waits behind a case that never finished
        // (interrupted run): print it in order rather than drop it.
        let rest = std::mem::take(&mut self.pending);
        for (index, case) in &rest {
            self.print_case(*index, case)?;
        }
        let (groups, single) = std::mem::take(&mut self.causes).split();
        for (index, case) in &single {
            self.show_case(*index, case)?;
        }
        for group in &groups {
            self.show_group(group)?;
        }
        let host_selected = (summary.counts.iter()).any(|(o, n)| *o != Outcome::Excluded && *n > 0);
        if !host_selected {
            let held = std::mem::take(&mut self.self_check_passes);
            self.emit(&held)?;
        }
        self.bar.finish_and_clear();
        let text = self.render_summary(summary);
        self.emit(&text)
    }
}

impl Reporter for TerminalReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        match event {
            Event::RunStarted(run) => self.run_started(run),
            Event::Discovery(snapshot) => self.discovery(snapshot),
            Event::Planned { total } => {
                self.planned(*total);
                Ok(())
            }
            Event::CaseFinished { index, result } => self.case_finished(*index, result),
            Event::TargetUnusable { reason, hint } => self.target_unusable(reason, hint),
            // The request list is for the JSON report; each case shows its own.
            Event::Wire(_) => Ok(()),
            Event::RunFinished(summary) => self.run_finished(summary),
        }
    }
}

/// The order the summary lists outcomes in: what passed, what is wrong, what was not
/// observed, what was not asked for.
pub(super) const SUMMARY_ORDER: [Outcome; 8] = [
    Outcome::Pass,
    Outcome::Fail,
    Outcome::Xfail,
    Outcome::Warn,
    Outcome::Skip,
    Outcome::Blocked,
    Outcome::Error,
    Outcome::Excluded,
];

/// An outcome's tag and colour.
fn tag(outcome: Outcome) -> (&'static str, Paint) {
    match outcome {
        Outcome::Pass => ("PASS", Paint::Green),
        Outcome::Fail => ("FAIL", Paint::Red),
        Outcome::Warn => ("WARN", Paint::Yellow),
        Outcome::Skip => ("SKIP", Paint::Cyan),
        Outcome::Excluded => ("EXCLUDED", Paint::Dim),
        Outcome::Blocked => ("BLOCKED", Paint::Magenta),
        Outcome::Error => ("ERROR", Paint::RedBold),
        Outcome::Xfail => ("XFAIL", Paint::Yellow),
    }
}

/// Whether a case got as far as running (and so has a meaningful duration).
fn executed(outcome: Outcome) -> bool {
    !matches!(outcome, Outcome::Skip | Outcome::Excluded)
}

/// Whether a case gets indented details: everything a reader may need to act on.
fn shows_details(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Fail | Outcome::Xfail | Outcome::Warn | Outcome::Blocked | Outcome::Error
    )
}

fn format_duration(ms: u64) -> String {
    humantime::format_duration(Duration::from_millis(ms)).to_string()
}

fn push_indented(text: &mut String, line: &str) {
    for part in line.lines() {
        text.push_str(INDENT);
        text.push_str(part);
        text.push('\n');
    }
}

/// Host-controlled text (bodies, reasons, headers) is shown with control characters
/// escaped, so a hostile or broken host cannot move the cursor, recolour or clear the
/// user's terminal. Newlines and tabs are layout and kept.
fn printable(text: &str) -> String {
    if !text.chars().any(is_unprintable) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if is_unprintable(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn is_unprintable(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

#[path = "terminal_summary.rs"]
mod summary;

#[cfg(test)]
#[path = "terminal_tests.rs"]
mod tests;
