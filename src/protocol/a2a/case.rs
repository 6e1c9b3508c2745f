//! Running one A2A case on its interface: render the parts in the interface's
//! version, build the send, send it (streamed or not), follow a working task, read
//! and judge. A task waiting for input or authentication, or one our time ran out on,
//! leaves nothing to judge (blocked, with why).

use super::exchange::{Env, operate};
use super::interface::Interface;
use super::part::{self, PartInputs};
use super::request::{Operation, send_params};
use super::{ENDPOINT_SEND, ENDPOINT_STREAM, judge};
use crate::http::HttpClient;
use crate::judge::catalog::SchemaCatalog;
use crate::judge::{self as answer_judge, Answer};
use crate::observation::{Observation, Unjudged};
use crate::plan::PlannedCase;
use crate::plan::result::{error_unsent, record_of, shown_body};
use crate::request::body::render_body;
use crate::scenario::stream::StreamClass;
use crate::scenario::suite::SuiteCase;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// What every case of the run shares.
pub struct CaseEnv<'a> {
    pub client: &'a HttpClient,
    pub catalog: &'a SchemaCatalog,
    pub grace: Duration,
    pub timeout: Duration,
    /// The URL of a case's generated media (`nonce`, kind, type), when the run has one.
    pub media_url: &'a (dyn Fn(&str, &str, &str) -> Option<String> + Sync),
}

/// The interface a case's planning context names (`a2a.interface`).
pub fn interface_of(context: &Value) -> Option<Interface> {
    context
        .pointer("/a2a/interface")
        .and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// The operation an endpoint names (`a2a-send`, `a2a-stream@v0.3`).
pub fn operation_of(endpoint: &str) -> Option<Operation> {
    match endpoint.split('@').next() {
        Some(ENDPOINT_SEND) => Some(Operation::Send),
        Some(ENDPOINT_STREAM) => Some(Operation::Stream),
        _ => None,
    }
}

/// The body template with its plain parts spelled in the interface's version.
fn spelled(template: &Value, interface: &Interface) -> Value {
    let mut template = template.clone();
    if let Some(Value::Array(parts)) = template.get_mut("parts") {
        for p in parts.iter_mut() {
            *p = part::spelled_plain(p, interface.version);
        }
    }
    template
}

pub async fn run_case(
    planned: &PlannedCase,
    case: &SuiteCase,
    context: &Value,
    nonce: &str,
    env: &CaseEnv<'_>,
) -> Observation {
    let started = Instant::now();
    let resolve = planned.resolver(context, nonce, &case.spec.id);
    let Some(request) = &case.spec.request else {
        return error_unsent(planned, case, "not a request case".into());
    };
    let (Some(interface), Some(op)) = (interface_of(context), operation_of(&request.endpoint))
    else {
        return error_unsent(
            planned,
            case,
            format!("an a2a run cannot send to `{}`", request.endpoint),
        );
    };
    let media_url = |kind: &str, mime: &str| (env.media_url)(nonce, kind, mime);
    let inputs = PartInputs {
        nonce,
        version: interface.version,
        media_url: &media_url,
    };
    let template = request
        .body
        .as_ref()
        .map(|b| spelled(b, &interface))
        .unwrap_or_else(|| json!({}));
    let body = match render_body(&template, &resolve, &|spec| {
        part::render(spec, &resolve, &inputs)
    }) {
        Ok(body) => body,
        Err(e) => return error_unsent(planned, case, format!("request could not be built: {e}")),
    };
    let uid = format!("{nonce}-{}", planned.index);
    let (params, header) = send_params(body, &interface, &uid);
    let operation_env = Env {
        client: env.client,
        interface: &interface,
        grace: env.grace,
        deadline: tokio::time::Instant::now() + env.timeout,
        uid: &uid,
        purpose: &planned.id,
    };
    let operated = operate(&operation_env, op, params, header.as_deref(), request.auth).await;
    let mut record = record_of(planned, case);
    record.exchanges = operated.exchanges;
    record.duration_ms = started.elapsed().as_millis() as u64;
    let mut reading = match operated.reading {
        Ok(reading) => reading,
        Err(transport) => return Observation::blocked(record, format!("no answer: {transport}")),
    };
    reading.unadvertised = unadvertised(&template, &resolve, nonce, context);
    record.stream = Some(super::evidence::of_reading(&reading));
    let shown = shown_body(&record);
    let answer = Answer {
        status: reading.status,
        content_type: None,
        body: shown.as_bytes(),
        truncated: false,
    };
    let generic =
        match answer_judge::judge_answer(&case.spec.expect, &answer, &resolve, env.catalog) {
            Ok(j) => j,
            Err(e) => {
                return Observation::error(record, format!("scenario defect while judging: {e}"));
            }
        };
    let a2a = match super::expect::read(&case.spec.expect) {
        Ok(a2a) => a2a,
        Err(e) => return Observation::error(record, e),
    };
    let mut assertions = generic.assertions;
    if let Some(expect) = &case.spec.expect.stream {
        judge::judge_stream(expect, &reading, &mut assertions);
    }
    let mut own = super::expect::Judged::default();
    if let Some(expect) = &a2a {
        super::expect::judge_answer(expect, interface.binding, &reading, &mut own);
    }
    assertions.extend(own.assertions);
    record.assertions = assertions;
    record.notes.extend(generic.notes);
    record.notes.extend(own.notes);
    let mut unjudged = own.unjudged;
    unjudged.extend(generic.cannot_judge.map(|why| Unjudged::answer(&why)));
    if let Some(stopped) = stopped(&reading) {
        // Nothing the stream's bucket says was observed; what the first answer showed
        // (a blocking send's task, say) still counts.
        record
            .assertions
            .retain(|a| !a.check.starts_with("stream."));
        unjudged.insert(
            0,
            Unjudged {
                note: format!("not judged to its end: {stopped}"),
                reason: stopped,
            },
        );
    }
    unjudged
        .into_iter()
        .fold(Observation::judged(record), Observation::leaving_out)
}

/// The media types of the case's parts the run's declaration does not list.
fn unadvertised(
    template: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
    nonce: &str,
    context: &Value,
) -> Vec<String> {
    let accepts: Vec<&str> = context
        .pointer("/a2a/accepts")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let sent = crate::request::sent::sent_parts(template, resolve, nonce).unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for part in sent {
        if let crate::request::sent::SentPart::Media(media) = part
            && !accepts
                .iter()
                .any(|p| super::declaration::prefix_accepts(p, &media.mime))
            && !out.contains(&media.mime)
        {
            out.push(media.mime);
        }
    }
    out
}

/// Why the answer cannot be judged to its end, when it cannot: a task waiting for
/// the client, or our own limits.
fn stopped(reading: &super::classify::Reading) -> Option<String> {
    if let Some(state) = &reading.interrupted {
        return Some(format!(
            "the task is {state}: it waits for the client (input or authentication), which mmconform does not give"
        ));
    }
    (reading.classification == StreamClass::Unfinished).then(|| reading.line())
}
