//! The verdict: the one place a case's outcome is decided. A protocol (or the offline
//! validator, or the standalone witness) hands over what it observed
//! ([`Observation`]); the runner adds what the witness judged on the model calls, an
//! authentication answer and, for a case sent while its endpoint was being probed,
//! what the probe found; [`decide`] combines them, under `--strict`, into the case's
//! outcome and reason. (What a whole run then does with decided cases, `--require` and
//! the baseline, is the ledger's.)
//!
//! In order: a case the probe found unusable takes the probe's verdict, its answer not
//! judged. Otherwise the observation decides (an error or nothing to judge as such;
//! judged, its assertions, then what could not be judged); the witness's assertions
//! join the protocol's (or a full call log blocks); an authentication answer blocks
//! whatever came before it; a failure gets the case's hint.

use super::auth;
use crate::observation::{Ending, Observation, Unjudged};
use crate::outcome::{AssertionResult, CaseResult, Level, Outcome};

/// What the witness step found for a case (`runner::witnessed`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum WitnessFinding {
    /// No witness judgement: no `expect.witness`, or nothing was sent.
    #[default]
    Nothing,
    /// `expect.witness` judged on the recorded calls.
    Judged(Vec<AssertionResult>),
    /// `expect.witness` not judged, and the note saying why (no `--witness`, no answer
    /// to judge, a body that does not render).
    NotJudged(String),
    /// The call log dropped calls that may be this case's: the judgement cannot rest
    /// on what was seen (the reason).
    Blocked(String),
}

/// Everything a case's verdict rests on.
#[derive(Debug, Clone)]
pub struct Findings {
    pub observation: Observation,
    pub witness: WitnessFinding,
    /// The status of an authentication answer to one of the case's own requests,
    /// when it sent credentials (`runner::auth`).
    pub auth_refused: Option<u16>,
    /// The case's `hint:`, rendered, for a failure.
    pub hint: Option<String>,
    /// Sent while its endpoint was being probed, which the probe then found unusable:
    /// its outcome and reason (`runner::probing`).
    pub probe_unusable: Option<(Outcome, String)>,
}

impl Findings {
    /// An observation alone: a case judged on hand or offline, or a standalone
    /// witness call.
    pub fn observed(observation: Observation) -> Findings {
        Findings {
            observation,
            witness: WitnessFinding::Nothing,
            auth_refused: None,
            hint: None,
            probe_unusable: None,
        }
    }
}

/// The case's result with its verdict.
pub fn decide(findings: Findings, strict: bool) -> CaseResult {
    let Findings {
        observation,
        witness,
        auth_refused,
        hint,
        probe_unusable,
    } = findings;
    let mut result = observation.record;
    if let Some((outcome, reason)) = probe_unusable {
        unusable_endpoint(&mut result, outcome, reason);
        return result;
    }
    let (outcome, reason, notes) = observed(&observation.ending, &result, strict);
    (result.outcome, result.reason) = (outcome, reason);
    result.notes.extend(notes);
    match witness {
        WitnessFinding::Nothing => {}
        WitnessFinding::NotJudged(note) => result.notes.push(note),
        WitnessFinding::Blocked(reason) => {
            (result.outcome, result.reason) = (Outcome::Blocked, Some(reason));
        }
        WitnessFinding::Judged(assertions) => {
            result.assertions.extend(assertions);
            (result.outcome, result.reason) = by_assertions(&result, strict);
        }
    }
    if let Some(status) = auth_refused {
        refused(&mut result, status);
    }
    if result.outcome == Outcome::Fail
        && let Some(hint) = hint
    {
        result.notes.push(format!("hint: {hint}"));
    }
    result
}

/// The outcome the observation alone gives: the witness step judges only a case that
/// got an answer judged this way (pass, fail or warn).
pub fn observed_outcome(observation: &Observation, strict: bool) -> Outcome {
    observed(&observation.ending, &observation.record, strict).0
}

/// The outcome, reason and added notes of an observation.
fn observed(
    ending: &Ending,
    record: &CaseResult,
    strict: bool,
) -> (Outcome, Option<String>, Vec<String>) {
    match ending {
        Ending::Error(why) => (Outcome::Error, Some(why.clone()), Vec::new()),
        Ending::Blocked(why) => (Outcome::Blocked, Some(why.clone()), Vec::new()),
        Ending::Judged(unjudged) => {
            let (mut outcome, mut reason) = by_assertions(record, strict);
            let mut notes = Vec::new();
            for Unjudged {
                reason: blocking,
                note,
            } in unjudged
            {
                // What did run still counts: a failed assertion stays a failure.
                if matches!(outcome, Outcome::Pass | Outcome::Blocked) {
                    (outcome, reason) = (Outcome::Blocked, Some(blocking.clone()));
                } else {
                    notes.push(note.clone());
                }
            }
            (outcome, reason, notes)
        }
    }
}

/// The outcome of the assertions `result` holds under its requirement's level, and a
/// one-line reason: a case that executed no assertion is never a pass.
fn by_assertions(result: &CaseResult, strict: bool) -> (Outcome, Option<String>) {
    let level = result.requirement.level;
    let outcome = outcome_of(&result.assertions, level, strict);
    let reason = match outcome {
        Outcome::Blocked => Some("the case executed no assertion".to_string()),
        Outcome::Pass => None,
        // The reason names the strongest failure (a MUST before a SHOULD).
        _ => result
            .assertions_failed()
            .min_by_key(|a| a.effective_level(level))
            .map(|a| format!("expected {}; got {}", a.expected, a.actual)),
    };
    (outcome, reason)
}

/// The outcome of `assertions` in a case requiring `level`.
pub fn outcome_of(assertions: &[AssertionResult], level: Level, strict: bool) -> Outcome {
    if assertions.is_empty() {
        return Outcome::Blocked;
    }
    // A failure counts at its assertion's level (never stronger than the case's).
    let failed = assertions
        .iter()
        .filter(|a| !a.passed)
        .map(|a| a.effective_level(level))
        .min();
    match failed {
        None => Outcome::Pass,
        Some(Level::Must) => Outcome::Fail,
        Some(Level::Should) if strict => Outcome::Fail,
        Some(Level::Should | Level::May) => Outcome::Warn,
    }
}

/// An authentication answer blocks the case: the request never got past the door. An
/// error (a defect of ours) stays one.
fn refused(result: &mut CaseResult, status: u16) {
    if matches!(result.outcome, Outcome::Error | Outcome::Skip) {
        return;
    }
    if result.outcome != Outcome::Blocked {
        result.notes.push(format!(
            "would have been {} on this answer; an authentication answer is not a verdict on the host",
            result.outcome
        ));
    }
    result.outcome = Outcome::Blocked;
    result.reason = Some(auth::refused_reason(status));
}

/// The probe's verdict on a case sent before it answered. Nothing of the answer was
/// judged: what judging it said (assertions, stream classification, model calls, notes)
/// goes; the exchange stays, it happened.
fn unusable_endpoint(result: &mut CaseResult, outcome: Outcome, reason: String) {
    result.outcome = outcome;
    result.reason = Some(reason);
    result.assertions.clear();
    result.stream = None;
    result.model_calls = None;
    result.notes = vec![
        "sent while its endpoint was being probed; the probe found it unusable, so the answer is not judged"
            .into(),
    ];
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;
