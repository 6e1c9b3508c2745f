//! Putting every answer of the Responses door into one bucket, as the Chat door's are
//! (`protocol::openai::classify`; OpenAI API reference, "Responses", the response
//! object and its streaming events):
//!
//! - `rejected`: a 4xx; `crashed`: a 5xx (whatever the body says);
//! - `completed`: a 2xx `response` object with `status: completed` and an `output`
//!   list (asked without `stream`), or a 2xx event stream (asked with `stream: true`)
//!   whose every event is a JSON object with a `response.*` `type` and, when numbered,
//!   a rising `sequence_number`, ending with `response.completed` (its `response` in
//!   status `completed`) and nothing after;
//! - `run-error`: a stream carrying an `error` or `response.failed` event, or a
//!   `response` whose status is `failed`;
//! - `broken`: anything else (a stream without `response.completed`, an event that is
//!   not JSON, a 2xx body that is not a response, a stream where JSON was asked for);
//! - `unfinished`: our deadline or read cap ended the read first (not a verdict).

use crate::protocol::door::CompletionEvidence;
use crate::protocol::door::classify::{ErrorSummary, classify_door_body};
use crate::protocol::door::stream_reading::{Reading, StreamDoor, StreamReading};
use crate::protocol::sse_read::ReadEnd;
use crate::scenario::stream::StreamClass;
use crate::wire::{chat, responses};
use serde_json::Value;

/// The Responses door's stream: `response.*` events with increasing
/// `sequence_number`s, ending `response.completed`.
#[derive(Debug, Default)]
pub struct ResponsesStream {
    last_sequence: Option<u64>,
}

/// Feeds on the events of one streamed Responses answer, in order.
pub type EventClassifier = StreamReading<ResponsesStream>;

impl StreamDoor for ResponsesStream {
    const END: &'static str = responses::COMPLETED;
    const ITEM: &'static str = "event";
    const DOOR: (bool, bool) = (true, false);

    /// A Chat-style `data: [DONE]` after `response.completed` is not part of the
    /// Responses stream, but gateways bridging Chat add it (LiteLLM) and the official
    /// SDKs' stream readers stop at it: nothing is lost, so it is no defect. Any other
    /// event after the end is.
    fn tolerated_after_end(data: &str) -> bool {
        data.trim() == chat::DONE
    }

    fn on_item(&mut self, event: &Value, n: usize, reading: &mut Reading) -> bool {
        let Some(kind) = event.get("type").and_then(Value::as_str) else {
            reading.problem(format!("event {n} has no string `type`"));
            return false;
        };
        if let Some(seq) = event.get("sequence_number") {
            match (seq.as_u64(), self.last_sequence) {
                (Some(now), Some(before)) if now <= before => reading.problem(format!(
                    "event {n} ({kind}): sequence_number {now} does not follow {before}"
                )),
                (Some(now), _) => self.last_sequence = Some(now),
                (None, _) => reading.problem(format!(
                    "event {n} ({kind}): sequence_number is not an integer"
                )),
            }
        }
        match kind {
            "error" => reading.error = reading.error.take().or_else(|| error_event(event)),
            responses::FAILED => {
                reading.error = reading.error.take().or_else(|| {
                    ErrorSummary::of(&event["response"]).or(Some(ErrorSummary {
                        error_type: None,
                        code: Some("response.failed".into()),
                        message: None,
                    }))
                })
            }
            responses::COMPLETED => {
                let status = event["response"]["status"].as_str().map(str::to_string);
                if status.as_deref() != Some("completed") {
                    reading.problem(format!(
                        "response.completed carries a response in status {}",
                        status.as_deref().unwrap_or("(none)")
                    ));
                }
                reading.finish_reason = status;
                return true;
            }
            other if !other.starts_with("response.") => reading.problem(format!(
                "event {n}: `type` {other} is not a response.* event"
            )),
            _ => {}
        }
        false
    }
}

/// An `error` event: `{type: error, code, message}` (or an `error` object inside).
fn error_event(event: &Value) -> Option<ErrorSummary> {
    ErrorSummary::of(event).or_else(|| {
        ErrorSummary::of(&serde_json::json!({"error": {
            "type": "error",
            "code": event.get("code"),
            "message": event.get("message"),
        }}))
    })
}

/// Classifies a Responses answer that was not read as an event stream: a `response`
/// whose status is `failed` is a run error.
pub fn classify_body(
    status: u16,
    content_type: Option<String>,
    stream_requested: bool,
    body: &[u8],
    ended_by: ReadEnd,
) -> CompletionEvidence {
    let mut evidence = classify_door_body(
        status,
        content_type,
        stream_requested,
        body,
        ended_by,
        |body| {
            response_problem(body).map(|status| {
                let class = match status.as_str() {
                    "failed" => StreamClass::RunError,
                    _ => StreamClass::Completed,
                };
                (Some(status), class)
            })
        },
    );
    evidence.responses = true;
    evidence
}

/// The status of a valid 2xx `response` body, or what keeps it from being one.
fn response_problem(body: Option<&Value>) -> Result<String, String> {
    let Some(body) = body else {
        return Err("the 2xx body is not JSON".into());
    };
    if body.get("object").and_then(Value::as_str) != Some("response") {
        return Err("`object` is not \"response\"".into());
    }
    let status = body
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("(none)");
    if !body.get("output").is_some_and(Value::is_array) {
        return Err("no `output` list".into());
    }
    match status {
        "completed" | "failed" => Ok(status.to_string()),
        other => Err(format!("`status` is {other}, not completed")),
    }
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
