//! From assertions to a case's outcome: the one rule every protocol and the offline
//! cases share. A case that executed no assertion is never a pass.

use crate::outcome::{AssertionResult, CaseResult, Level, Outcome};

/// The outcome of an executed case from its assertions and its requirement's level.
pub fn outcome(assertions: &[AssertionResult], level: Level, strict: bool) -> Outcome {
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

/// Decides `result` from the assertions it holds: its outcome and a one-line reason.
pub fn decide(result: &mut CaseResult, strict: bool) {
    result.outcome = outcome(&result.assertions, result.requirement.level, strict);
    result.reason = match result.outcome {
        Outcome::Blocked => Some("the case executed no assertion".to_string()),
        Outcome::Pass => None,
        // The reason names the strongest failure (a MUST before a SHOULD).
        _ => result
            .assertions
            .iter()
            .filter(|a| !a.passed)
            .min_by_key(|a| a.effective_level(result.requirement.level))
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

    #[test]
    fn an_assertion_of_its_own_level_counts_at_the_weaker_one() {
        let should =
            AssertionResult::new("w", "a".into(), "b".into(), false).at_level(Level::Should);
        let must = AssertionResult::new("s", "a".into(), "b".into(), false);
        let passed = AssertionResult::new("s", "a".into(), "a".into(), true);
        assert_eq!(
            outcome(&[passed.clone(), should.clone()], Level::Must, false),
            Outcome::Warn
        );
        assert_eq!(
            outcome(std::slice::from_ref(&should), Level::Must, true),
            Outcome::Fail
        );
        assert_eq!(
            outcome(&[should.clone(), must], Level::Must, false),
            Outcome::Fail
        );
        // Never stronger than the case: a SHOULD check in a MAY case is a MAY.
        assert_eq!(should.effective_level(Level::May), Level::May);
        assert_eq!(outcome(&[should], Level::May, true), Outcome::Warn);
    }
}
