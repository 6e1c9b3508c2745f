//! Running one AG-UI case: render the body, wrap it into a `RunAgentInput`, POST it,
//! read the stream, judge.

use super::judge::{self, StreamJudgement};
use super::sse;
use crate::http::HttpClient;
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self as answer_judge, Answer};
use crate::observation::{Observation, Unjudged};
use crate::plan::PlannedCase;
use crate::plan::result::{error_unsent, record_of, shown_body, with_exchange};
use crate::protocol::agui::echo;
use crate::protocol::agui::part::{self as agui_part, PartInputs};
use crate::protocol::agui::run_input::run_input;
use crate::protocol::agui::{Declaration, StreamClass};
use crate::request::body::render_body;
use crate::scenario::suite::SuiteCase;
use serde_json::{Value, json};
use std::time::Instant;

/// Everything an AG-UI case needs from the run, shared by all cases.
pub struct AguiEnv<'a> {
    pub client: &'a HttpClient,
    /// How long to wait after the terminal event for events that break the stream.
    pub grace: std::time::Duration,
    pub catalog: &'a SchemaCatalog,
    pub context: &'a Value,
    pub nonce: &'a str,
    pub declaration: &'a Declaration,
    pub part_inputs: PartInputs<'a>,
}

/// Sends the case's run and judges the answer: what was observed.
pub async fn run_case(planned: &PlannedCase, case: &SuiteCase, env: &AguiEnv<'_>) -> Observation {
    let started = Instant::now();
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let Some(request_spec) = &case.spec.request else {
        return error_unsent(planned, case, "not a request case".into());
    };
    let body = match request_spec.body.as_ref().map(|b| {
        render_body(b, &resolve, &|spec| {
            agui_part::render(spec, &resolve, &env.part_inputs)
        })
    }) {
        None => json!({}),
        Some(Ok(body)) => body,
        Some(Err(e)) => {
            return error_unsent(planned, case, format!("request could not be built: {e}"));
        }
    };
    // The same id `{uid}` gives the case: fresh per case and run.
    let uid = format!("{}-{}", env.nonce, planned.index);
    let input = run_input(body, &uid);
    let answer = sse::post_run(
        env.client,
        &input,
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
    record.stream = Some(crate::protocol::agui::evidence::of_stream(&evidence));
    let generic = answer_judge::judge_answer(&case.spec.expect, &answer, &resolve, env.catalog);
    let generic = match generic {
        Ok(j) => j,
        Err(e) => {
            return Observation::error(record, format!("scenario defect while judging: {e}"));
        }
    };
    let mut judged = StreamJudgement {
        assertions: generic.assertions,
        notes: generic.notes,
    };
    if let Some(expect) = &case.spec.expect.stream {
        judge::judge_stream(expect, &evidence, &mut judged);
    }
    if let Some(expect) = &case.spec.expect.echo {
        let sent = echo::sent_parts(&input, env.nonce);
        judge::judge_echo(expect, &evidence, &sent, env.declaration, &mut judged);
    }
    record.notes = judged.notes;
    record.assertions = judged.assertions;
    if evidence.classification == StreamClass::Unfinished {
        // Our deadline or read cap (or the transport) ended the read before the run
        // ended: whatever the assertions say, nothing was observed to judge.
        return Observation::blocked(record, evidence.summary());
    }
    let observed = Observation::judged(record);
    match generic.cannot_judge {
        Some(why) => observed.leaving_out(Unjudged::answer(&why)),
        None => observed,
    }
}
