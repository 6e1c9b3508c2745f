//! One `execute` case: its params rendered (attachments written to a fresh media
//! directory), a first text-only run when it resumes a session, the bridge run (with
//! SIGTERM once under way when it tests abort), and `expect.run` judged on what the
//! bridge printed. `expect.witness` is judged afterwards by the executor, on the model
//! calls the witness recorded; without `--witness` such a case is blocked here, never
//! passed: a runtime's model is the only place delivery can be seen.

use super::bridge;
use super::classify::{BridgeRun, Observed};
use super::event::EventReader;
use super::outbound::{self, Files};
use super::run::AgentruntimeRun;
use crate::observation::{Observation, Unjudged};
use crate::plan::result::{blocked_unsent, error_unsent, record_of};
use crate::protocol::CaseInput;
use crate::request::body::render_body;
use crate::stop::Stop;
use serde_json::{Value, json};
use std::cell::Cell;

/// Why a case judged by the witness is blocked without one.
pub const NEEDS_WITNESS: &str =
    "needs --witness: a runtime's model is the only place delivery can be seen";

pub async fn run_case(run: &AgentruntimeRun, input: CaseInput<'_>) -> Observation {
    let (planned, case) = (input.planned, input.case);
    let spec = &case.spec;
    let blocked = |reason: String| blocked_unsent(planned, case, reason);
    let error = |reason: String| error_unsent(planned, case, reason);
    let Some(request) = &spec.request else {
        return error("not a request case".into());
    };
    if spec.expect.witness.is_some() && run.bridge.witness_url.is_none() {
        return blocked(NEEDS_WITNESS.into());
    }
    let media_dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return error(format!("cannot make a media directory: {e}")),
    };
    let resolve = planned.resolver(input.context, input.nonce, &spec.id);
    let index = Cell::new(0usize);
    let template = request.body.clone().unwrap_or_else(|| json!({}));
    let rendered = render_body(&template, &resolve, &|m| {
        index.set(index.get() + 1);
        super::part::render(m, &resolve, input.nonce, media_dir.path(), index.get())
    });
    let mut params = match rendered {
        Ok(Value::Object(params)) => params,
        Ok(_) => return error("execute params must be an object".into()),
        Err(e) => return error(format!("params could not be built: {e}")),
    };
    let stop = input.client.stop().clone();
    if request.resume {
        let first = json!({"prompt": format!("mmconform first turn {}", input.nonce)});
        let session = match run
            .bridge
            .call(
                bridge::execute_line(&first),
                &planned.id,
                stop.clone(),
                false,
                &mut EventReader::default(),
            )
            .await
        {
            Ok(finished) => session_of(&finished),
            Err(e) => Err(format!("the bridge cannot be started: {e}")),
        };
        match session {
            Ok(id) => params.insert("sessionId".into(), json!(id)),
            Err(why) => return blocked(format!("cannot resume: {why}")),
        };
    }
    let line = bridge::execute_line(&Value::Object(params));
    let mut reader = EventReader::default();
    let finished = match run
        .bridge
        .call(line, &planned.id, stop.clone(), request.abort, &mut reader)
        .await
    {
        Ok(finished) => finished,
        Err(e) => return blocked(format!("the bridge cannot be started: {e}")),
    };
    judged(run, &input, finished, &stop).await
}

/// The `sessionId` of a first run's `done`.
fn session_of(finished: &BridgeRun) -> Result<String, String> {
    let observed = Observed::new(finished);
    observed
        .result()
        .and_then(|r| r.get("sessionId"))
        .and_then(Value::as_str)
        .map(String::from)
        .ok_or_else(|| {
            format!(
                "the first run ({}) gave no done.result.sessionId",
                observed.classification()
            )
        })
}

async fn judged(
    run: &AgentruntimeRun,
    input: &CaseInput<'_>,
    finished: BridgeRun,
    stop: &Stop,
) -> Observation {
    let (planned, case) = (input.planned, input.case);
    let mut record = record_of(planned, case);
    record.duration_ms = finished.elapsed.as_millis() as u64;
    record.stream = Some(super::evidence::of_run(
        &run.bridge.command.shown(),
        "execute",
        &finished,
    ));
    let observed = Observed::new(&finished);
    if let Some(why) = observed.unfinished() {
        return Observation::blocked(record, why);
    }
    let abort = case.spec.request.as_ref().is_some_and(|r| r.abort);
    if abort && !interrupted_under_way(&observed) {
        return Observation::blocked(
            record,
            "the run ended before SIGTERM could interrupt it (its first line was its done, or it printed none): abort not tested",
        );
    }
    let expect = super::expect::of(&case.spec.expect);
    let expect = expect.as_ref();
    let outbound_declared =
        expect.is_some_and(|e| e.outbound) && run.caps.emits_outbound == Some(true);
    let files = if outbound_declared {
        outbound::fetch(&observed, run.bridge.timeout, stop).await
    } else {
        Files::new()
    };
    if let Some(why) = outbound::unjudged(&files) {
        return Observation::blocked(record, why);
    }
    if let Some(expect) = expect {
        record.assertions = super::judge::judge(expect, &observed, &run.caps, &files);
    }
    let outbound_judged = record.assertions.iter().any(|a| a.check == "run.outbound");
    if outbound_declared && !outbound_judged {
        // The runtime said it emits media and sent none, or more than are judged.
        let why = outbound::too_many(&observed);
        return match (why, record.assertions.is_empty()) {
            (None, true) => Observation::blocked(record, outbound::NOTHING_SENT),
            (Some(why), true) => Observation::blocked(record, why),
            (why, false) => {
                let why = why.unwrap_or_else(|| outbound::NOTHING_SENT.to_string());
                Observation::judged(record).leaving_out(Unjudged::answer(&why))
            }
        };
    }
    Observation::judged(record)
}

/// SIGTERM went out after a line that was not the run's `done`.
fn interrupted_under_way(observed: &Observed) -> bool {
    let Some(abort) = observed.finished.abort else {
        return false;
    };
    let first_done = observed.dones().first().copied();
    first_done.is_none_or(|d| d >= abort.after_lines)
}
