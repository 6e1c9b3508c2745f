//! The card cases (`a2a-card`): judged on the card the run fetched once (cited, not
//! fetched again), with the shared judges (`status`, `json_body`, `schema`, `body`).

use super::discovery::Fetched;
use super::expect::CardCheck;
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self as answer_judge, Answer};
use crate::observation::{Observation, Unjudged};
use crate::outcome::AssertionResult;
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
    match super::expect::read(&case.spec.expect) {
        Ok(Some(expect)) if !expect.card.is_empty() && fetched.card.is_none() => {
            let why = fetched.problem.clone().unwrap_or_else(|| "no card".into());
            return Observation::blocked(record, format!("no agent card to judge: {why}"));
        }
        Ok(Some(expect)) => {
            for check in &expect.card {
                record.assertions.push(card_check(*check, fetched));
            }
        }
        Ok(None) => {}
        Err(e) => return Observation::error(record, e),
    }
    let observed = Observation::judged(record);
    match judged.cannot_judge {
        Some(why) => observed.leaving_out(Unjudged::answer(&why)),
        None => observed,
    }
}

/// One `expect.a2a.card` check on the fetched card.
fn card_check(check: CardCheck, fetched: &Fetched) -> AssertionResult {
    match check {
        CardCheck::WellKnownPath => {
            let at = fetched.path.ends_with(super::CARD_PATH);
            AssertionResult::new(
                "a2a.card.path",
                format!("the card at {}", super::CARD_PATH),
                format!("the card at {}", fetched.path),
                at,
            )
        }
        CardCheck::MediaTypes => {
            let card = fetched.card.as_ref();
            let mut words: Vec<String> = Vec::new();
            for mode in card
                .and_then(|c| c.input_modes.as_ref())
                .into_iter()
                .flatten()
            {
                if !super::declaration::is_media_type(mode) {
                    words.push(format!("defaultInputModes `{mode}`"));
                }
            }
            for skill in card.map(|c| c.skills.as_slice()).unwrap_or_default() {
                for mode in skill.input_modes.iter().flatten() {
                    if !super::declaration::is_media_type(mode) {
                        words.push(format!("skill {} inputModes `{mode}`", skill.id));
                    }
                }
            }
            let actual = if words.is_empty() {
                "every mode is a media type".to_string()
            } else {
                format!("not media types: {}", words.join(", "))
            };
            AssertionResult::new(
                "a2a.card.media_types",
                "every input mode a media type (image/png, image/*)".into(),
                actual,
                words.is_empty(),
            )
        }
    }
}
