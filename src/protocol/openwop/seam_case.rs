//! Running one openwop case: render the request, send it to its seam, judge the answer.

use super::part::{self, PartInputs};
use super::self_hosted_case::{self, SelfHostedEnv};
use crate::http::{HttpClient, HttpResponse};
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self, Answer};
use crate::observation::{Observation, Unjudged};
use crate::outcome::Exchange;
use crate::plan::PlannedCase;
use crate::plan::result::{blocked_unsent, error_unsent, record_of};
use crate::request::body::render_body;
use crate::scenario::suite::SuiteCase;
use serde_json::Value;
use std::time::Instant;

/// Everything a case needs from the run, shared by all cases.
pub struct CaseEnv<'a> {
    pub client: &'a HttpClient,
    pub catalog: &'a SchemaCatalog,
    pub major: u8,
    pub context: &'a Value,
    pub nonce: &'a str,
    pub part_inputs: PartInputs<'a>,
    /// The provider ai/call requests name (`RunConfig::model_provider`), if any.
    pub provider: Option<&'a str>,
    /// What the RFC 0108 checks need (the endpoint variable, the discovery answers).
    pub self_hosted: SelfHostedEnv<'a>,
}

/// Judges `response` (already obtained) for a planned case: what was observed.
pub fn judge_response(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv,
    response: &HttpResponse,
    exchange: Exchange,
    started: Instant,
) -> Observation {
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let mut record = record_of(planned, case);
    // What happened on the wire (retries, a redirect not followed) comes first: it
    // explains what the assertions saw.
    record.notes = exchange.notes.clone();
    record.exchanges.push(exchange);
    record.duration_ms = started.elapsed().as_millis() as u64;
    let answer = Answer {
        status: response.status,
        content_type: response.content_type.as_deref(),
        body: &response.body,
        truncated: response.truncated,
    };
    let mut j = match judge::judge_answer(&case.spec.expect, &answer, &resolve, env.catalog) {
        Ok(j) => j,
        Err(e) => return Observation::error(record, format!("scenario defect while judging: {e}")),
    };
    let self_hosted =
        self_hosted_case::judge(&case.spec.expect, env.context, response, &env.self_hosted);
    let not_judged = match self_hosted {
        Ok(Some((assertion, notes))) => {
            j.assertions.push(assertion);
            j.notes.extend(notes);
            None
        }
        Ok(None) => None,
        Err(why) => Some(Unjudged {
            note: format!("not judged: {why}"),
            reason: why,
        }),
    };
    if env.major >= 2 {
        let reading = judge::error_body::read(&response.body);
        super::v2_errors::apply(&case.spec.expect, response.status, &reading, &mut j);
    }
    record.assertions = j.assertions;
    record.notes.extend(j.notes);
    let mut observed = Observation::judged(record);
    if let Some(unjudged) = not_judged {
        observed = observed.leaving_out(unjudged);
    }
    if let Some(why) = j.cannot_judge {
        observed = observed.leaving_out(Unjudged::answer(&why));
    }
    observed
}

/// Sends a seam case's request and judges the answer: what was observed.
pub async fn run_seam_case(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv<'_>,
) -> Observation {
    let started = Instant::now();
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let Some(request_spec) = &case.spec.request else {
        return error_unsent(planned, case, "not a request case".into());
    };
    let Some(seam) = super::seam(&request_spec.endpoint, env.major) else {
        let reason = format!("unknown endpoint `{}`", request_spec.endpoint);
        return error_unsent(planned, case, reason);
    };
    let body = match request_spec
        .body
        .as_ref()
        .map(|b| {
            render_body(b, &resolve, &|spec| {
                part::render(spec, &resolve, &env.part_inputs)
            })
        })
        .transpose()
    {
        Ok(body) => body,
        Err(e) => {
            let reason = format!("request could not be built: {e}");
            return error_unsent(planned, case, reason);
        }
    };
    let endpoint = super::major::split_endpoint(&request_spec.endpoint).0;
    let expect = &case.spec.expect;
    let (body, notes) =
        match self_hosted_case::prepare(endpoint, expect, env.context, body, &env.self_hosted) {
            Ok(prepared) => prepared,
            Err(why) => return blocked_unsent(planned, case, why),
        };
    let body = super::provider::name_provider(endpoint, body, env.provider);
    let request = seam.request(body, request_spec.auth, planned.id.clone());
    // Given up to the client: a large inline part is then sent from its own buffer.
    let (exchange, response) = env.client.send_owned(request).await;
    match response {
        Ok(response) => {
            let mut observed = judge_response(planned, case, env, &response, exchange, started);
            observed.record.notes.splice(0..0, notes);
            observed
        }
        Err(no_answer) => {
            // A transport failure is never a verdict on the host (docs/wire.md), nor is
            // a deadline, an interruption or a host that keeps asking to retry later.
            let mut record = record_of(planned, case);
            record.notes = exchange.notes.clone();
            record.exchanges.push(exchange);
            record.duration_ms = started.elapsed().as_millis() as u64;
            Observation::blocked(record, no_answer.to_string())
        }
    }
}
