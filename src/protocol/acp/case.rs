//! One prompt case on the run's agent: a fresh `session/new` (a new temporary `cwd`, no
//! MCP servers), the case's blocks rendered into `session/prompt`, read until its
//! `stopReason` (with `session/cancel` sent once the turn is under way when the case
//! tests cancellation), and `expect.acp` judged. A case that tests a refusal then asks
//! for one more session, to see the agent survived it. `expect.witness` is judged by
//! the executor afterwards; without `--witness` such a case is blocked here.

use super::agent::Live;
use super::connection::{CancelWhen, Exchange, Unanswered};
use super::run::AcpRun;
use crate::observation::Observation;
use crate::plan::result::{blocked_unsent, error_unsent, record_of};
use crate::protocol::CaseInput;
use crate::request::body::render_body;
use crate::scenario::model::WitnessExpectation;
use serde_json::{Value, json};
use std::cell::Cell;
use std::time::Duration;

/// Why a case judged by the witness is blocked without one.
pub const NEEDS_WITNESS: &str =
    "needs --witness: an agent's model is the only place delivery can be seen";

/// How long a cancellation case lets the turn run before `session/cancel` (sooner
/// when the agent reports progress).
const CANCEL_AFTER: Duration = Duration::from_millis(300);

pub async fn run_case(run: &AcpRun, input: CaseInput<'_>) -> Observation {
    let (planned, case) = (input.planned, input.case);
    let spec = &case.spec;
    let blocked = |reason: String| blocked_unsent(planned, case, reason);
    let error = |reason: String| error_unsent(planned, case, reason);
    let Some(request) = &spec.request else {
        return error("not a request case".into());
    };
    // A case that needs a model call to pass cannot be judged without the witness; one
    // that expects none (`withheld`) is judged on the agent's answer alone, and noted.
    if spec
        .expect
        .witness
        .is_some_and(WitnessExpectation::expects_a_call)
        && run.agent.witness_url.is_none()
    {
        return blocked(NEEDS_WITNESS.into());
    }
    let resolve = planned.resolver(input.context, input.nonce, &spec.id);
    let index = Cell::new(0usize);
    let template = request.body.clone().unwrap_or_else(|| json!({}));
    let rendered = render_body(&template, &resolve, &|m| {
        index.set(index.get() + 1);
        super::part::render(m, &resolve, input.nonce, index.get())
    });
    let prompt = match rendered {
        Ok(Value::Object(mut body)) => body.remove("prompt").unwrap_or(json!([])),
        Ok(_) => return error("the body must be an object with `prompt`".into()),
        Err(e) => return error(format!("the prompt could not be built: {e}")),
    };
    let stop = input.client.stop().clone();
    let mut guard = run.live.lock().await;
    if guard
        .as_mut()
        .is_none_or(|live| live.connection.peer.exited().is_some())
    {
        if let Some(old) = guard.take() {
            old.connection.peer.close(run.agent.grace).await;
        }
        match run.agent.start(&stop).await {
            Ok(live) => *guard = Some(live),
            Err(e) => return blocked(format!("the agent cannot be started: {e}")),
        }
    }
    let Some(live) = guard.as_mut() else {
        return blocked("no agent".into());
    };
    if let Some(why) = live.unusable() {
        return blocked(format!("the agent cannot take prompts: {why}"));
    }
    let Ok(cwd) = tempfile::tempdir() else {
        return error("cannot make a working directory".into());
    };
    let session = new_session(run, live, cwd.path(), &stop).await;
    let Some(session_id) = session_id(&session) else {
        let why = super::judge::answered(&session);
        let stderr = live.connection.peer.stderr().shown();
        let mut record = record_of(planned, case);
        record.stream = Some(super::evidence::of_exchange(
            &run.shown(),
            &[&session],
            &stderr,
        ));
        retire_if_broken(run, &mut guard, &session).await;
        return Observation::blocked(record, format!("session/new gave no sessionId: {why}"));
    };
    let cancel = request.abort.then(|| CancelWhen {
        session_id: session_id.clone(),
        after: CANCEL_AFTER,
    });
    let params = json!({"sessionId": session_id, "prompt": prompt});
    let prompted = live
        .connection
        .request("session/prompt", params, run.agent.timeout, &stop, cancel)
        .await;
    let expect = super::expect::of(&spec.expect);
    let alive = match expect.as_ref().is_some_and(|a| a.rejected) && prompted.unanswered.is_none() {
        true => Some(session_id_of_next(run, live, cwd.path(), &stop).await),
        false => None,
    };
    let stderr = live.connection.peer.stderr().shown();
    let mut record = record_of(planned, case);
    record.duration_ms = (session.elapsed + prompted.elapsed).as_millis() as u64;
    let mut evidence = super::evidence::of_exchange(&run.shown(), &[&session, &prompted], &stderr);
    evidence.record["unadvertised"] = json!(run.declared.unadvertised_in(&prompt));
    record.stream = Some(evidence);
    retire_if_broken(run, &mut guard, &prompted).await;
    match &prompted.unanswered {
        Some(Unanswered::Stopped(why)) => {
            return Observation::blocked(
                record,
                format!("the run stopped during the turn ({why})"),
            );
        }
        Some(Unanswered::Unread(why)) => return Observation::blocked(record, why.clone()),
        _ => {}
    }
    if let Some(expect) = &expect {
        record.assertions = super::judge::judge(expect, &prompted, alive);
    }
    Observation::judged(record)
}

async fn new_session(
    run: &AcpRun,
    live: &mut Live,
    cwd: &std::path::Path,
    stop: &crate::stop::Stop,
) -> Exchange {
    let params = json!({"cwd": cwd.to_string_lossy(), "mcpServers": []});
    live.connection
        .request("session/new", params, run.agent.timeout, stop, None)
        .await
}

fn session_id(ex: &Exchange) -> Option<String> {
    ex.result()
        .and_then(|r| r.get("sessionId"))
        .and_then(Value::as_str)
        .map(String::from)
}

/// Whether the agent still opens a session (after a refusal).
async fn session_id_of_next(
    run: &AcpRun,
    live: &mut Live,
    cwd: &std::path::Path,
    stop: &crate::stop::Stop,
) -> bool {
    session_id(&new_session(run, live, cwd, stop).await).is_some()
}

/// An agent whose turn never ended (it exited, hung, or flooded its output) is ended
/// now, so the next case starts a fresh one instead of reading the old turn's rest.
async fn retire_if_broken(run: &AcpRun, guard: &mut Option<Live>, ex: &Exchange) {
    if matches!(
        ex.unanswered,
        Some(Unanswered::Timeout(_) | Unanswered::Ended(_) | Unanswered::Unread(_))
    ) && let Some(live) = guard.take()
    {
        live.connection.peer.close(run.agent.grace).await;
    }
}
