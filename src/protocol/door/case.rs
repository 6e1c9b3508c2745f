//! Running one OpenAI case: render the body (the run's model added), POST it to the
//! door's path (`{base}/chat/completions`, `{base}/responses`), classify the answer, judge.

use super::judge::judge_stream;
use super::part::PartInputs;
use super::read;
use super::usage;
use super::wire::Wire;
use crate::http::HttpClient;
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self as answer_judge, Answer};
use crate::observation::{Observation, Unjudged};
use crate::plan::PlannedCase;
use crate::plan::result::{error_unsent, record_of, shown_body, with_exchange};
use crate::request::body::render_body;
use crate::scenario::stream::StreamClass;
use crate::scenario::suite::SuiteCase;
use serde_json::{Map, Value, json};
use std::time::Instant;

/// Everything an OpenAI case needs from the run, shared by all cases.
pub struct DoorEnv<'a> {
    pub wire: &'static Wire,
    pub client: &'a HttpClient,
    /// How long to wait after `data: [DONE]` for events that break the stream.
    pub grace: std::time::Duration,
    pub catalog: &'a SchemaCatalog,
    pub context: &'a Value,
    pub nonce: &'a str,
    pub model: Option<&'a str>,
    pub part_inputs: PartInputs<'a>,
}

/// `body` with the run's model first, unless the scenario names one itself.
pub fn with_model(body: Value, model: Option<&str>) -> Value {
    let Value::Object(given) = body else {
        return body;
    };
    if given.contains_key("model") {
        return Value::Object(given);
    }
    let mut out = Map::new();
    out.insert("model".into(), json!(model));
    out.extend(given);
    Value::Object(out)
}

/// `body` with the door's required fields added where the scenario left them out.
pub fn with_defaults(body: Value, wire: &Wire) -> Value {
    let Value::Object(mut given) = body else {
        return body;
    };
    for (field, value) in wire.defaults {
        given.entry(*field).or_insert_with(|| json!(value));
    }
    Value::Object(given)
}

/// Sends the case's call and judges the answer: what was observed.
pub async fn run_case(planned: &PlannedCase, case: &SuiteCase, env: &DoorEnv<'_>) -> Observation {
    let started = Instant::now();
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let Some(request_spec) = &case.spec.request else {
        return error_unsent(planned, case, "not a request case".into());
    };
    let body = match request_spec.body.as_ref().map(|b| {
        render_body(b, &resolve, &|spec| {
            (env.wire.render)(spec, &resolve, &env.part_inputs)
        })
    }) {
        None => json!({}),
        Some(Ok(body)) => body,
        Some(Err(e)) => {
            return error_unsent(planned, case, format!("request could not be built: {e}"));
        }
    };
    let body = with_defaults(with_model(body, env.model), env.wire);
    let answer = read::post_completion(
        env.wire,
        env.client,
        &body,
        request_spec.auth,
        env.grace,
        &planned.id,
    )
    .await;
    let (mut record, evidence) = match with_exchange(
        record_of(planned, case),
        answer.exchange,
        answer.evidence,
        started,
    ) {
        Ok(answered) => answered,
        Err(blocked) => return *blocked,
    };
    let shown = shown_body(&record);
    let answer = Answer {
        status: evidence.status,
        content_type: evidence.content_type.as_deref(),
        body: shown.as_bytes(),
        truncated: false,
    };
    record.stream = Some(super::evidence::of_answer(&evidence));
    let judged = match answer_judge::judge_answer(&case.spec.expect, &answer, &resolve, env.catalog)
    {
        Ok(j) => j,
        Err(e) => {
            return Observation::error(record, format!("scenario defect while judging: {e}"));
        }
    };
    record.notes = judged.notes;
    record.assertions = judged.assertions;
    if let Some(expect) = &case.spec.expect.stream {
        judge_stream(expect, &evidence, &mut record.assertions);
    }
    // Only a completed answer has usage to compare; any other fails on its classification.
    let mut usage_unjudged = None;
    if super::usage::of(&case.spec.expect).is_some()
        && evidence.classification == StreamClass::Completed
        && let Some(template) = &request_spec.body
    {
        let without = usage::without_media(template, &resolve);
        let (auth, id) = (request_spec.auth, &planned.id);
        usage_unjudged = usage::compare(env, without, auth, id, &mut record)
            .await
            .err();
    }
    if evidence.classification == StreamClass::Unfinished {
        // Our deadline or read cap (or the transport) ended the read first: whatever
        // the assertions say, nothing was observed to judge.
        return Observation::blocked(record, evidence.summary());
    }
    let observed = Observation::judged(record);
    match judged.cannot_judge.or(usage_unjudged) {
        Some(why) => observed.leaving_out(Unjudged::answer(&why)),
        None => observed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_goes_first_unless_the_scenario_names_one() {
        let body = with_model(json!({"messages": [], "stream": true}), Some("m1"));
        let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["model", "messages", "stream"]);
        assert_eq!(body["model"], "m1");
        let own = with_model(json!({"model": "other", "messages": []}), Some("m1"));
        assert_eq!(own["model"], "other");
        assert_eq!(with_model(json!([1]), Some("m1")), json!([1]));
    }
}
