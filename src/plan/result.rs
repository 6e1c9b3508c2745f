//! A case's result before (or without) any exchange: the planned case's identity,
//! requirement and applicability facts, with the outcome and reason given.

use crate::outcome::{CaseResult, Outcome};
use crate::plan::PlannedCase;
use crate::scenario::suite::SuiteCase;

/// A result with no exchange yet, for cases decided without sending anything.
pub fn result_without_exchange(
    planned: &PlannedCase,
    case: &SuiteCase,
    outcome: Outcome,
    reason: Option<String>,
) -> CaseResult {
    CaseResult {
        id: planned.id.clone(),
        case_id: case.spec.id.clone(),
        title: planned.title.clone(),
        requirement: case.spec.requirement.clone(),
        scenario_file: case.file.clone(),
        bindings: planned.bindings.clone(),
        outcome,
        reason,
        notes: Vec::new(),
        assertions: Vec::new(),
        decided_on: planned.decided_on.clone(),
        duration_ms: 0,
        exchanges: Vec::new(),
        expected_failure: None,
        stream: None,
        model_calls: None,
    }
}
