//! The exit code, decided in exactly one place from the run's outcomes.
//! The contract (README, "Exit codes") is stable: scripts rely on it.

use crate::outcome::Outcome;
use crate::scenario::diagnostic::Diagnostic;
use std::collections::BTreeMap;

pub const PASSED: i32 = 0;
pub const CONFORMANCE_FAILURE: i32 = 1;
pub const USAGE: i32 = 2;
pub const INSUFFICIENT_EVIDENCE: i32 = 3;
pub const UNREACHABLE: i32 = 4;
pub const BASELINE_DRIFT: i32 = 5;
pub const INTERNAL: i32 = 70;
pub const INTERRUPTED: i32 = 130;

/// The contract as `--help` and the man page state it, one short line each (the
/// README's table says the same at more length).
pub const CONTRACT: [(i32, &str); 8] = [
    (PASSED, "passed: every selected case that applies passed"),
    (
        CONFORMANCE_FAILURE,
        "a MUST not met (a SHOULD with --strict, a skip with --require)",
    ),
    (
        USAGE,
        "usage, configuration or scenario error; nothing was sent",
    ),
    (
        INSUFFICIENT_EVIDENCE,
        "insufficient evidence: nothing selected, all skipped, or blocked",
    ),
    (UNREACHABLE, "target unreachable or discovery unusable"),
    (
        BASELINE_DRIFT,
        "baseline drift: an entry now passes, matches nothing or expired",
    ),
    (
        INTERNAL,
        "internal error, or a report that could not be written",
    ),
    (
        INTERRUPTED,
        "interrupted (Ctrl-C); reports written, marked incomplete",
    ),
];

/// What the other commands' codes mean, and how a run's codes combine.
pub const OTHER_COMMANDS: &str = "Precedence: 130, 70, 4, 1, 5, 3, 0. Reports are written for \
    every code but 2. calibrate, verify and evidence merge: 0 yes, 1 no, 2 usage error.";

/// The exit codes as help text.
pub fn contract_text() -> String {
    let mut text = String::from("Exit codes:\n");
    for (code, meaning) in CONTRACT {
        text.push_str(&format!("  {code:<4} {meaning}\n"));
    }
    text.push_str(OTHER_COMMANDS);
    text
}

/// Every way a command ends. `main` gets exactly one of these and exits with its
/// [`Ending::code`]; nothing else in the program picks an exit status.
#[derive(Debug)]
pub enum Ending {
    /// A run that was decided: the code [`decide`] gave it.
    Run(i32),
    /// A run whose reports could not all be written (each named).
    ReportsUnwritten(Vec<String>),
    /// `calibrate`: whether every case can fail and every fault is caught.
    Calibrated(bool),
    /// `verify`: whether every check of the report holds.
    Verified(bool),
    /// `evidence merge`: whether the promotion criteria are met (true when none given).
    Promoted(bool),
    /// A command that did what it was asked (`list`, `lint`, `baseline`, `serve-reference`).
    Done,
    /// Ctrl-C before a verdict, or twice.
    Interrupted,
    /// Bad arguments or configuration, found before any request.
    Usage(String),
    /// Scenario (or baseline, criteria) files with problems, found before any request.
    Scenarios(Vec<Diagnostic>),
    /// A defect in mmconform, or something outside the target that broke.
    Internal(String),
    /// `serve-reference --profile agentruntime`: the reference bridge's own exit status
    /// (part of what bridge protocol v1 judges, so passed on as the runtime chose it).
    Bridge(i32),
}

impl Ending {
    pub fn code(&self) -> i32 {
        match self {
            Ending::Run(code) | Ending::Bridge(code) => *code,
            Ending::ReportsUnwritten(_) | Ending::Internal(_) => INTERNAL,
            Ending::Calibrated(calibrated) => calibration(*calibrated),
            Ending::Verified(intact) => verification(*intact),
            Ending::Promoted(met) => promotion(*met),
            Ending::Done => PASSED,
            Ending::Interrupted => INTERRUPTED,
            Ending::Usage(_) | Ending::Scenarios(_) => USAGE,
        }
    }
}

/// What the run as a whole amounted to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub code: i32,
    pub verdict: &'static str,
    pub explanation: String,
}

/// Facts beyond per-case outcomes that bear on the exit code.
#[derive(Debug, Clone, Default)]
pub struct RunFacts {
    /// Why discovery could not be used, if it could not.
    pub discovery_problem: Option<String>,
    pub interrupted: bool,
    /// Baseline entries that no longer describe the host (see `baseline::tracker`).
    pub baseline_drift: Vec<String>,
    /// What a run that selected nothing tells its user.
    pub selection: Selection,
}

/// How the run chose its cases, for the explanation of one that chose none.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// The run's profile.
    pub profile: String,
    /// `--filter` was given.
    pub filtered: bool,
    /// Cases loaded for other profiles (left out of this run), per profile.
    pub other_profiles: Vec<(String, usize)>,
}

impl Selection {
    /// Why nothing was selected, and what to do, without blaming a filter never given.
    fn nothing(&self) -> String {
        let others: Vec<String> = (self.other_profiles.iter())
            .map(|(p, n)| format!("{n} {p} case(s): --profile {p}"))
            .collect();
        match (self.filtered, others.is_empty()) {
            (true, _) => "no case was selected: none matches --filter".into(),
            (false, false) => format!(
                "no case was selected: the scenarios hold no {} case ({})",
                self.profile,
                others.join("; ")
            ),
            (false, true) => format!("no case was selected: no {} case was loaded", self.profile),
        }
    }
}

/// `mmconform calibrate`: 0 when every case can fail and every host fault is caught,
/// 1 otherwise (usage and internal errors keep their codes).
fn calibration(calibrated: bool) -> i32 {
    if calibrated {
        PASSED
    } else {
        CONFORMANCE_FAILURE
    }
}

/// `mmconform verify`: 0 when every check holds, 1 when the report was tampered with.
fn verification(intact: bool) -> i32 {
    if intact { PASSED } else { CONFORMANCE_FAILURE }
}

/// `mmconform evidence merge`: 0 when the promotion criteria are met (or none were
/// given), 1 when not. An input report that does not verify is refused with
/// [`verification`]`(false)`; a criteria file with problems is [`USAGE`].
fn promotion(met: bool) -> i32 {
    if met { PASSED } else { CONFORMANCE_FAILURE }
}

fn n(counts: &BTreeMap<Outcome, usize>, o: Outcome) -> usize {
    counts.get(&o).copied().unwrap_or(0)
}

fn d(code: i32, verdict: &'static str, explanation: String) -> Decision {
    Decision {
        code,
        verdict,
        explanation,
    }
}

/// The counts a run's exit code is decided on, from the host's cases and the
/// self-checks (offline checks of mmconform's own schema files). A self-check that
/// passed is no evidence about the host: it counts only when no host case was selected
/// (an `--offline` run, or a filter that kept only self-checks). One that did not pass
/// always counts: a broken schema file is a defect the run must not hide.
pub fn deciding_counts(
    host: &BTreeMap<Outcome, usize>,
    self_checks: &BTreeMap<Outcome, usize>,
) -> BTreeMap<Outcome, usize> {
    let host_selected = host.iter().any(|(o, n)| *o != Outcome::Excluded && *n > 0);
    let mut counts = host.clone();
    for (&outcome, &count) in self_checks {
        if host_selected && matches!(outcome, Outcome::Pass | Outcome::Excluded) {
            continue;
        }
        *counts.entry(outcome).or_default() += count;
    }
    counts
}

/// The run's exit code, verdict and explanation, in the documented precedence:
/// 130, 70, 4, 1, 5, 3, 0.
pub fn decide(counts: &BTreeMap<Outcome, usize>, facts: &RunFacts) -> Decision {
    beyond_the_cases(counts, facts)
        .or_else(|| failures(counts, facts))
        .unwrap_or_else(|| evidence(counts, &facts.selection))
}

/// Interrupted, a defect in mmconform, or an unusable target: whatever the cases say.
fn beyond_the_cases(counts: &BTreeMap<Outcome, usize>, facts: &RunFacts) -> Option<Decision> {
    if facts.interrupted {
        return Some(d(
            INTERRUPTED,
            "interrupted",
            "the run was interrupted; reports are marked incomplete".into(),
        ));
    }
    if n(counts, Outcome::Error) > 0 {
        return Some(d(
            INTERNAL,
            "internal-error",
            format!(
                "{} case(s) hit a defect in mmconform or a scenario file",
                n(counts, Outcome::Error)
            ),
        ));
    }
    facts.discovery_problem.as_ref().map(|problem| {
        d(
            UNREACHABLE,
            "unreachable",
            format!("discovery unusable: {problem}"),
        )
    })
}

/// A requirement not met, or a baseline that no longer describes the host.
fn failures(counts: &BTreeMap<Outcome, usize>, facts: &RunFacts) -> Option<Decision> {
    if n(counts, Outcome::Fail) > 0 {
        return Some(d(
            CONFORMANCE_FAILURE,
            "failed",
            format!(
                "{} case(s) failed their requirement",
                n(counts, Outcome::Fail)
            ),
        ));
    }
    (!facts.baseline_drift.is_empty()).then(|| {
        d(
            BASELINE_DRIFT,
            "baseline-drift",
            // The entries themselves are listed beside the verdict by every reporter;
            // naming them here too printed each one twice.
            match facts.baseline_drift.len() {
                1 => "the baseline no longer describes the host (1 entry)".to_string(),
                n => format!("the baseline no longer describes the host ({n} entries)"),
            },
        )
    })
}

/// Nothing failed: passed, unless there is too little evidence to say so.
fn evidence(counts: &BTreeMap<Outcome, usize>, selection: &Selection) -> Decision {
    let selected: usize = counts
        .iter()
        .filter(|(o, _)| **o != Outcome::Excluded)
        .map(|(_, c)| c)
        .sum();
    let observed = n(counts, Outcome::Pass)
        + n(counts, Outcome::Warn)
        + n(counts, Outcome::Fail)
        + n(counts, Outcome::Xfail);
    let insufficient = |why: String| d(INSUFFICIENT_EVIDENCE, "insufficient-evidence", why);
    if selected == 0 {
        return insufficient(selection.nothing());
    }
    if observed == 0 {
        return insufficient(
            "every selected case was skipped or blocked, so nothing was verified".into(),
        );
    }
    if n(counts, Outcome::Blocked) > 0 {
        return insufficient(format!(
            "{} case(s) could not be observed (blocked)",
            n(counts, Outcome::Blocked)
        ));
    }
    let warned = n(counts, Outcome::Warn);
    let explanation = if warned > 0 {
        format!(
            "every MUST held; {warned} SHOULD/MAY case(s) warned (use --strict to fail on them)"
        )
    } else {
        "every selected case that applies passed".to_string()
    };
    d(PASSED, "passed", explanation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(list: &[(Outcome, usize)]) -> BTreeMap<Outcome, usize> {
        list.iter().copied().collect()
    }

    #[test]
    fn self_check_passes_are_no_evidence_about_a_host() {
        let ok = RunFacts::default();
        let selfs = counts(&[(Outcome::Pass, 40)]);
        // Every host case skipped: the 40 passing self-checks do not make it a pass.
        let host = counts(&[(Outcome::Skip, 5)]);
        assert_eq!(
            decide(&deciding_counts(&host, &selfs), &ok).code,
            INSUFFICIENT_EVIDENCE
        );
        // An --offline run: only self-checks were selected, and they decide.
        let host = counts(&[(Outcome::Excluded, 5)]);
        assert_eq!(decide(&deciding_counts(&host, &selfs), &ok).code, PASSED);
        // A failing self-check is never hidden by a passing host.
        let host = counts(&[(Outcome::Pass, 5)]);
        let selfs = counts(&[(Outcome::Pass, 39), (Outcome::Fail, 1)]);
        assert_eq!(
            decide(&deciding_counts(&host, &selfs), &ok).code,
            CONFORMANCE_FAILURE
        );
    }

    #[test]
    fn precedence_of_exit_codes() {
        let ok = RunFacts::default();
        assert_eq!(
            decide(&counts(&[(Outcome::Pass, 3), (Outcome::Skip, 2)]), &ok).code,
            PASSED
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Pass, 3), (Outcome::Warn, 1)]), &ok).code,
            PASSED
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Pass, 3), (Outcome::Fail, 1)]), &ok).code,
            CONFORMANCE_FAILURE
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Excluded, 5)]), &ok).code,
            INSUFFICIENT_EVIDENCE
        );
        assert_eq!(decide(&counts(&[]), &ok).code, INSUFFICIENT_EVIDENCE);
        assert_eq!(
            decide(&counts(&[(Outcome::Skip, 5)]), &ok).code,
            INSUFFICIENT_EVIDENCE
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Pass, 1), (Outcome::Blocked, 1)]), &ok).code,
            INSUFFICIENT_EVIDENCE
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Fail, 1), (Outcome::Error, 1)]), &ok).code,
            INTERNAL
        );
        let down = RunFacts {
            discovery_problem: Some("refused".into()),
            ..RunFacts::default()
        };
        assert_eq!(
            decide(&counts(&[(Outcome::Fail, 1)]), &down).code,
            UNREACHABLE
        );
        let stop = RunFacts {
            interrupted: true,
            ..RunFacts::default()
        };
        assert_eq!(
            decide(&counts(&[(Outcome::Pass, 1)]), &stop).code,
            INTERRUPTED
        );
    }

    #[test]
    fn baseline_drift_is_exit_5_below_failures_and_above_missing_evidence() {
        let drift = RunFacts {
            baseline_drift: vec!["baseline entry `x` (b.yaml:3) matched no case".into()],
            ..RunFacts::default()
        };
        let d = decide(&counts(&[(Outcome::Pass, 2), (Outcome::Xfail, 1)]), &drift);
        assert_eq!(d.code, BASELINE_DRIFT);
        // The entry itself is listed once, beside the verdict, not inside the explanation.
        assert_eq!(
            d.explanation,
            "the baseline no longer describes the host (1 entry)"
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Fail, 1)]), &drift).code,
            CONFORMANCE_FAILURE
        );
        assert_eq!(
            decide(&counts(&[(Outcome::Skip, 3)]), &drift).code,
            BASELINE_DRIFT
        );
        // Expected failures are evidence: a run of only those passes.
        let ok = RunFacts::default();
        assert_eq!(decide(&counts(&[(Outcome::Xfail, 1)]), &ok).code, PASSED);
    }

    #[test]
    fn no_explanation_divides_by_zero() {
        let d = decide(&counts(&[]), &RunFacts::default());
        assert!(!d.explanation.contains('%'));
    }
}
