//! From assertions to a case's outcome: the one rule every protocol and the offline
//! cases share. A case that executed no assertion is never a pass.

use crate::outcome::{AssertionResult, CaseResult, Level, Outcome};

/// The outcome of an executed case from its assertions and its requirement's level.
pub fn outcome(assertions: &[AssertionResult], level: Level, strict: bool) -> Outcome {
    if assertions.is_empty() {
        return Outcome::Blocked;
    }
    if assertions.iter().all(|a| a.passed) {
        return Outcome::Pass;
    }
    match level {
        Level::Must => Outcome::Fail,
        Level::Should if strict => Outcome::Fail,
        Level::Should | Level::May => Outcome::Warn,
    }
}

/// Decides `result` from the assertions it holds: its outcome and a one-line reason.
pub fn decide(result: &mut CaseResult, strict: bool) {
    result.outcome = outcome(&result.assertions, result.requirement.level, strict);
    result.reason = match result.outcome {
        Outcome::Blocked => Some("the case executed no assertion".to_string()),
        Outcome::Pass => None,
        _ => result
            .assertions
            .iter()
            .find(|a| !a.passed)
            .map(|a| format!("expected {}; got {}", a.expected, a.actual)),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_follows_level_and_strictness() {
        let failed = vec![AssertionResult::new("s", "a".into(), "b".into(), false)];
        assert_eq!(outcome(&[], Level::Must, false), Outcome::Blocked);
        assert_eq!(outcome(&failed, Level::Must, false), Outcome::Fail);
        assert_eq!(outcome(&failed, Level::Should, false), Outcome::Warn);
        assert_eq!(outcome(&failed, Level::Should, true), Outcome::Fail);
        assert_eq!(outcome(&failed, Level::May, true), Outcome::Warn);
    }
}
