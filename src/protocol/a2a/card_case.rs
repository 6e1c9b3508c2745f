//! The card cases (`a2a-card`): judged on the card the run fetched once (cited, not
//! fetched again), with the shared judges (`status`, `json_body`, `schema`, `body`).

use super::discovery::Fetched;
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self as answer_judge, Answer};
use crate::observation::{Observation, Unjudged};
use crate::plan::PlannedCase;
use crate::plan::result::record_of;
use crate::scenario::suite::SuiteCase;
use serde_json::Value;

/// Judges a card case on the fetched card: what was observed.
pub fn observe(
    planned: &PlannedCase,
    case: &SuiteCase,
    context: &Value,
    nonce: &str,
    catalog: &SchemaCatalog,
    fetched: &Fetched,
) -> Observation {
    let mut record = record_of(planned, case);
    let mut cited = fetched.exchange.clone();
    cited.cached = true;
    record.exchanges.push(cited);
    let Some(status) = fetched.status else {
        let why = fetched
            .problem
            .clone()
            .unwrap_or_else(|| "the card was not fetched".into());
        return Observation::blocked(record, format!("no agent card: {why}"));
    };
    let resolve = planned.resolver(context, nonce, &case.spec.id);
    let answer = Answer {
        status,
        content_type: None,
        body: &fetched.body,
        truncated: false,
    };
    let judged = match answer_judge::judge_answer(&case.spec.expect, &answer, &resolve, catalog) {
        Ok(j) => j,
        Err(e) => return Observation::error(record, format!("scenario defect while judging: {e}")),
    };
    record.assertions = judged.assertions;
    record.notes = judged.notes;
    let observed = Observation::judged(record);
    match judged.cannot_judge {
        Some(why) => observed.leaving_out(Unjudged::answer(&why)),
        None => observed,
    }
}
