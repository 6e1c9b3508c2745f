//! A case's result before (or without) any exchange: the planned case's identity,
//! requirement and applicability facts, with the outcome and reason given.

use crate::observation::Observation;
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
        self_check: case.spec.validate.is_some(),
        cause: None,
    }
}

/// The record of a case about to be observed: its identity, requirement and
/// applicability facts, nothing observed yet. Its outcome is the verdict's to set.
pub fn record_of(planned: &PlannedCase, case: &SuiteCase) -> CaseResult {
    result_without_exchange(planned, case, Outcome::Blocked, None)
}

/// A case observed to have nothing to judge before anything was sent, and why.
pub fn blocked_unsent(planned: &PlannedCase, case: &SuiteCase, why: String) -> Observation {
    Observation::blocked(record_of(planned, case), why)
}

/// A case that cannot be sent as written (a scenario defect), and why.
pub fn error_unsent(planned: &PlannedCase, case: &SuiteCase, why: String) -> Observation {
    Observation::error(record_of(planned, case), why)
}

/// A record whose one request was sent, from the protocol's reading of the answer:
/// the exchange attached and the time taken; `Err`, observed blocked, when no answer
/// came, because a transport failure is never a verdict on the host (docs/wire.md,
/// "Transport failures").
pub fn with_exchange<E>(
    mut record: CaseResult,
    exchange: crate::outcome::Exchange,
    evidence: Result<E, String>,
    started: std::time::Instant,
) -> Result<(CaseResult, E), Box<Observation>> {
    record.exchanges.push(exchange);
    record.duration_ms = started.elapsed().as_millis() as u64;
    match evidence {
        Ok(evidence) => Ok((record, evidence)),
        Err(transport) => Err(Box::new(Observation::blocked(
            record,
            format!("no answer: {transport}"),
        ))),
    }
}

/// The answer body the first exchange recorded, as reports show it and the shared
/// judges read it (empty without a response).
pub fn shown_body(result: &CaseResult) -> String {
    result
        .exchanges
        .first()
        .and_then(|e| e.response.as_ref())
        .map(|r| r.body.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod exchange_tests {
    use super::*;
    use crate::event_fixtures::{case, exchange, requirement};
    use crate::outcome::Level;

    #[test]
    fn an_answer_is_attached_and_a_transport_failure_blocks_the_case() {
        let fresh = || case("c", "c", requirement("s", Level::Must, "t"), Outcome::Pass);
        let started = std::time::Instant::now();
        let answered = with_exchange(fresh(), exchange("image", Some(200), "{}"), Ok(7), started);
        let (result, evidence) = answered.unwrap_or_else(|_| panic!("an answer came"));
        assert_eq!(evidence, 7);
        assert_eq!(result.exchanges.len(), 1);
        assert_eq!(shown_body(&result), "{}");
        let failed = with_exchange::<u8>(
            fresh(),
            exchange("image", None, ""),
            Err("connection reset".into()),
            started,
        );
        let Err(blocked) = failed else {
            panic!("no answer came")
        };
        assert_eq!(
            blocked.ending,
            crate::observation::Ending::Blocked("no answer: connection reset".into())
        );
        assert_eq!(blocked.record.exchanges.len(), 1);
        assert_eq!(shown_body(&blocked.record), "");
    }
}
