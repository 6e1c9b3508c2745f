//! Putting every answer of the Messages door into one bucket, as the OpenAI doors'
//! are (`protocol::openai::classify`; Anthropic API reference, Messages and Streaming
//! Messages):
//!
//! - `rejected`: a 4xx; `crashed`: a 5xx (whatever the body says);
//! - `completed`: a 2xx `message` object (`type: message`, `role: assistant`, a
//!   `content` list) asked without `stream`, or a 2xx event stream (asked with
//!   `stream: true`) whose every event is a JSON object with a `type`, opening with
//!   `message_start`, whose `content_block_delta`/`content_block_stop` name a block a
//!   `content_block_start` opened, ending with `message_stop` and nothing after
//!   (`ping` and event types this reading does not know are allowed: the reference
//!   says new ones may be added);
//! - `run-error`: a stream carrying an `error` event;
//! - `broken`: anything else (a stream without `message_stop`, one not opened by
//!   `message_start`, an event that is not JSON, a 2xx body that is not a message, a
//!   stream where JSON was asked for);
//! - `unfinished`: our deadline or read cap ended the read first (not a verdict).
//!
//! An error body or event is `{type: "error", error: {type, message}}`; its `error`
//! member is read as the OpenAI doors read theirs.

use crate::protocol::door::CompletionEvidence;
use crate::protocol::door::classify::{ErrorSummary, classify_door_body};
use crate::protocol::door::stream_reading::{Reading, StreamDoor, StreamReading};
use crate::protocol::sse_read::ReadEnd;
use crate::scenario::stream::StreamClass;
use crate::wire::anthropic::event::{
    CONTENT_BLOCK_DELTA, CONTENT_BLOCK_START, CONTENT_BLOCK_STOP, ERROR, MESSAGE_DELTA,
    MESSAGE_START, MESSAGE_STOP, PING,
};
use serde_json::Value;
use std::collections::BTreeSet;

/// The Messages door's stream: typed events from `message_start` to `message_stop`,
/// each content block opened before it is used.
#[derive(Debug, Default)]
pub struct MessagesStream {
    started: bool,
    open_blocks: BTreeSet<u64>,
}

/// Feeds on the events of one streamed Messages answer, in order.
pub type EventClassifier = StreamReading<MessagesStream>;

impl StreamDoor for MessagesStream {
    const END: &'static str = MESSAGE_STOP;
    const ITEM: &'static str = "event";
    /// An `error` event is how a Messages stream ends in failure.
    const ERROR_FIRST: bool = true;
    const DOOR: (bool, bool) = (false, true);

    fn on_item(&mut self, event: &Value, n: usize, reading: &mut Reading) -> bool {
        let Some(kind) = event.get("type").and_then(Value::as_str) else {
            reading.problem(format!("event {n} has no string `type`"));
            return false;
        };
        if !self.started && !matches!(kind, MESSAGE_START | PING | ERROR) {
            reading.problem(format!("event {n} ({kind}) comes before {MESSAGE_START}"));
        }
        let index = event.get("index").and_then(Value::as_u64);
        match kind {
            MESSAGE_START if self.started => {
                reading.problem(format!("event {n}: a second {MESSAGE_START}"))
            }
            MESSAGE_START => {
                self.started = true;
                if !event.get("message").is_some_and(Value::is_object) {
                    reading.problem(format!(
                        "event {n}: {MESSAGE_START} has no `message` object"
                    ));
                }
            }
            CONTENT_BLOCK_START => match index {
                Some(i) if self.open_blocks.insert(i) => {}
                Some(i) => reading.problem(format!("event {n}: block {i} started twice")),
                None => reading.problem(format!("event {n}: {kind} has no integer `index`")),
            },
            CONTENT_BLOCK_DELTA | CONTENT_BLOCK_STOP => {
                let open = index.is_some_and(|i| self.open_blocks.contains(&i));
                if !open {
                    reading.problem(format!("event {n}: {kind} names no open block"));
                } else if kind == CONTENT_BLOCK_STOP {
                    index.map(|i| self.open_blocks.remove(&i));
                }
            }
            MESSAGE_DELTA => {
                if let Some(reason) = event["delta"]["stop_reason"].as_str() {
                    reading.finish_reason = Some(reason.to_string());
                }
            }
            MESSAGE_STOP => {
                if !self.open_blocks.is_empty() {
                    reading.problem(format!(
                        "{MESSAGE_STOP} with content blocks still open: {:?}",
                        self.open_blocks
                    ));
                }
                return true;
            }
            ERROR => reading.error = reading.error.take().or_else(|| ErrorSummary::of(event)),
            _ => {}
        }
        false
    }
}

/// Classifies a Messages answer that was not read as an event stream.
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
        |body| message_problem(body).map(|stop_reason| (stop_reason, StreamClass::Completed)),
    );
    evidence.messages = true;
    evidence
}

/// The `stop_reason` of a valid 2xx `message` body, or what keeps it from being one.
fn message_problem(body: Option<&Value>) -> Result<Option<String>, String> {
    let Some(body) = body else {
        return Err("the 2xx body is not JSON".into());
    };
    if body.get("type").and_then(Value::as_str) != Some("message") {
        return Err("`type` is not \"message\"".into());
    }
    if body.get("role").and_then(Value::as_str) != Some("assistant") {
        return Err("`role` is not \"assistant\"".into());
    }
    if !body.get("content").is_some_and(Value::is_array) {
        return Err("no `content` list".into());
    }
    Ok(body
        .get("stop_reason")
        .and_then(Value::as_str)
        .map(str::to_string))
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
