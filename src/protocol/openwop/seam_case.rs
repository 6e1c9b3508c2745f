//! Running one openwop case: render the request, send it to its seam, judge the answer.

use super::part::{self, PartInputs};
use super::self_hosted_case::{self, SelfHostedEnv};
use crate::http::{HttpClient, HttpResponse};
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self, Answer, verdict};
use crate::outcome::{CaseResult, Exchange, Outcome};
use crate::plan::PlannedCase;
use crate::plan::result::result_without_exchange;
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
    pub strict: bool,
    pub part_inputs: PartInputs<'a>,
    /// The provider ai/call requests name (`RunConfig::model_provider`), if any.
    pub provider: Option<&'a str>,
    /// What the RFC 0108 checks need (the endpoint variable, the discovery answers).
    pub self_hosted: SelfHostedEnv<'a>,
}

/// Judges `response` (already obtained) for a planned case.
pub fn judge_response(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv,
    response: &HttpResponse,
    exchange: Exchange,
    started: Instant,
) -> CaseResult {
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let mut result = result_without_exchange(planned, case, Outcome::Blocked, None);
    let exchange_notes = exchange.notes.clone();
    result.exchanges.push(exchange);
    let answer = Answer {
        status: response.status,
        content_type: response.content_type.as_deref(),
        body: &response.body,
        truncated: response.truncated,
    };
    match judge::judge_answer(&case.spec.expect, &answer, &resolve, env.catalog) {
        Err(e) => {
            result.outcome = Outcome::Error;
            result.reason = Some(format!("scenario defect while judging: {e}"));
        }
        Ok(mut j) => {
            let self_hosted =
                self_hosted_case::judge(&case.spec.expect, env.context, response, &env.self_hosted);
            let blocked = match self_hosted {
                Ok(Some((assertion, notes))) => {
                    j.assertions.push(assertion);
                    j.notes.extend(notes);
                    None
                }
                Ok(None) => None,
                Err(why) => Some(why),
            };
            if env.major >= 2 {
                let reading = judge::error_body::read(&response.body);
                super::v2_errors::apply(&case.spec.expect, response.status, &reading, &mut j);
            }
            result.assertions = j.assertions;
            result.notes = j.notes;
            verdict::decide(&mut result, env.strict);
            if let Some(why) = blocked {
                // As with `cannot_judge`: what did run still counts.
                if matches!(result.outcome, Outcome::Pass | Outcome::Blocked) {
                    result.outcome = Outcome::Blocked;
                    result.reason = Some(why);
                } else {
                    result.notes.push(format!("not judged: {why}"));
                }
            }
            if let Some(why) = j.cannot_judge {
                // What did run still counts: a failed assertion stays a failure.
                if matches!(result.outcome, Outcome::Pass | Outcome::Blocked) {
                    result.outcome = Outcome::Blocked;
                    result.reason = Some(format!("cannot judge the answer: {why}"));
                } else {
                    result
                        .notes
                        .push(format!("part of the answer was not judged: {why}"));
                }
            }
        }
    }
    // What happened on the wire (retries, a redirect not followed) comes first: it
    // explains what the assertions saw.
    result.notes.splice(0..0, exchange_notes);
    result.duration_ms = started.elapsed().as_millis() as u64;
    result
}

/// Sends a seam case's request and judges the answer.
pub async fn run_seam_case(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv<'_>,
) -> CaseResult {
    let started = Instant::now();
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let Some(request_spec) = &case.spec.request else {
        return result_without_exchange(
            planned,
            case,
            Outcome::Error,
            Some("not a request case".into()),
        );
    };
    let Some(seam) = super::seam(&request_spec.endpoint, env.major) else {
        let reason = format!("unknown endpoint `{}`", request_spec.endpoint);
        return result_without_exchange(planned, case, Outcome::Error, Some(reason));
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
            return result_without_exchange(planned, case, Outcome::Error, Some(reason));
        }
    };
    let endpoint = super::major::split_endpoint(&request_spec.endpoint).0;
    let expect = &case.spec.expect;
    let (body, notes) =
        match self_hosted_case::prepare(endpoint, expect, env.context, body, &env.self_hosted) {
            Ok(prepared) => prepared,
            Err(why) => return result_without_exchange(planned, case, Outcome::Blocked, Some(why)),
        };
    let body = super::provider::name_provider(endpoint, body, env.provider);
    let request = seam.request(body, request_spec.auth, planned.id.clone());
    // Given up to the client: a large inline part is then sent from its own buffer.
    let (exchange, response) = env.client.send_owned(request).await;
    match response {
        Ok(response) => {
            let mut result = judge_response(planned, case, env, &response, exchange, started);
            result.notes.splice(0..0, notes);
            result
        }
        Err(no_answer) => {
            // A transport failure is never a verdict on the host (docs/wire.md), nor is
            // a deadline, an interruption or a host that keeps asking to retry later.
            let mut result = result_without_exchange(
                planned,
                case,
                Outcome::Blocked,
                Some(no_answer.to_string()),
            );
            result.notes = exchange.notes.clone();
            result.exchanges.push(exchange);
            result.duration_ms = started.elapsed().as_millis() as u64;
            result
        }
    }
}
