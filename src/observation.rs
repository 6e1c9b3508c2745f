//! What running a case observed, before any verdict: the record (exchanges, assertions,
//! notes, the protocol's evidence) and how far judging got. Protocols, the offline
//! validator and the standalone witness make observations; the verdict is decided from
//! them in one place, `runner::verdict`, together with what the witness saw, an
//! authentication answer and `--strict`.

use crate::outcome::CaseResult;

/// One case as it was observed.
#[derive(Debug, Clone)]
pub struct Observation {
    /// The case's record: its identity, exchanges, assertions, notes, the protocol's
    /// evidence and the time taken. Its `outcome` and `reason` are not read: the
    /// verdict sets them.
    pub record: CaseResult,
    pub ending: Ending,
}

/// How far judging a case got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The answer was read and judged: the assertions decide, less what could not be
    /// judged (in the order it was found).
    Judged(Vec<Unjudged>),
    /// Nothing was observed that could be judged (no answer, our deadline or read cap
    /// ended the read, the run stopped, the agent would not start), and why. Whatever
    /// assertions ran stay in the record; they decide nothing.
    Blocked(String),
    /// The case could not be run as written (a scenario defect) or the tool could not
    /// run it, and why: never a verdict on the host.
    Error(String),
}

/// Part of an expectation that could not be judged (a `--schemas` file that does not
/// compile, an answer without the usage to compare): neither a verdict on the host nor
/// a tool defect. It blocks a case that would otherwise pass; a case that failed on
/// what did run keeps its failure, with `note` saying what was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjudged {
    /// The case's reason when it blocks it.
    pub reason: String,
    /// The note when a failure decided the case anyway.
    pub note: String,
}

impl Unjudged {
    /// Part of the answer could not be judged (`cannot judge the answer: {why}`).
    pub fn answer(why: &str) -> Unjudged {
        Unjudged {
            reason: format!("cannot judge the answer: {why}"),
            note: format!("part of the answer was not judged: {why}"),
        }
    }
}

impl Observation {
    /// A record whose assertions decide.
    pub fn judged(record: CaseResult) -> Observation {
        Observation {
            record,
            ending: Ending::Judged(Vec::new()),
        }
    }

    /// A record with nothing to judge, and why.
    pub fn blocked(record: CaseResult, why: impl Into<String>) -> Observation {
        Observation {
            record,
            ending: Ending::Blocked(why.into()),
        }
    }

    /// A case that could not be run as written, and why.
    pub fn error(record: CaseResult, why: impl Into<String>) -> Observation {
        Observation {
            record,
            ending: Ending::Error(why.into()),
        }
    }

    /// The same observation with `unjudged` left out of its judgement (a judged one
    /// only: a blocked or errored case has nothing more to leave out).
    pub fn leaving_out(mut self, unjudged: Unjudged) -> Observation {
        if let Ending::Judged(left_out) = &mut self.ending {
            left_out.push(unjudged);
        }
        self
    }
}
