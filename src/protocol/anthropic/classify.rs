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

use crate::protocol::openai::CompletionEvidence;
use crate::protocol::openai::classify::{ErrorSummary, shorten};
use crate::protocol::openai::wire::StreamClassifier;
use crate::protocol::sse_read::{EventSink, ReadEnd};
use crate::scenario::stream::StreamClass;
use serde_json::Value;
use std::collections::BTreeSet;

/// Feeds on the events of one streamed Messages answer, in order.
#[derive(Debug, Default)]
pub struct EventClassifier {
    events: usize,
    started: bool,
    stopped: bool,
    after_stop: usize,
    open_blocks: BTreeSet<u64>,
    stop_reason: Option<String>,
    error: Option<ErrorSummary>,
    problems: Vec<String>,
}

impl EventClassifier {
    fn problem(&mut self, text: String) {
        if self.problems.len() < 20 {
            self.problems.push(text);
        }
    }

    fn on_event(&mut self, event: &Value) {
        let n = self.events;
        let Some(kind) = event.get("type").and_then(Value::as_str) else {
            self.problem(format!("event {n} has no string `type`"));
            return;
        };
        if !self.started && !matches!(kind, "message_start" | "ping" | "error") {
            self.problem(format!("event {n} ({kind}) comes before message_start"));
        }
        let index = event.get("index").and_then(Value::as_u64);
        match kind {
            "message_start" if self.started => {
                self.problem(format!("event {n}: a second message_start"))
            }
            "message_start" => {
                self.started = true;
                if !event.get("message").is_some_and(Value::is_object) {
                    self.problem(format!("event {n}: message_start has no `message` object"));
                }
            }
            "content_block_start" => match index {
                Some(i) if self.open_blocks.insert(i) => {}
                Some(i) => self.problem(format!("event {n}: block {i} started twice")),
                None => self.problem(format!("event {n}: {kind} has no integer `index`")),
            },
            "content_block_delta" | "content_block_stop" => {
                let open = index.is_some_and(|i| self.open_blocks.contains(&i));
                if !open {
                    self.problem(format!("event {n}: {kind} names no open block"));
                } else if kind == "content_block_stop" {
                    index.map(|i| self.open_blocks.remove(&i));
                }
            }
            "message_delta" => {
                if let Some(reason) = event["delta"]["stop_reason"].as_str() {
                    self.stop_reason = Some(reason.to_string());
                }
            }
            "message_stop" => {
                self.stopped = true;
                if !self.open_blocks.is_empty() {
                    self.problem(format!(
                        "message_stop with content blocks still open: {:?}",
                        self.open_blocks
                    ));
                }
            }
            "error" => self.error = self.error.take().or_else(|| ErrorSummary::of(event)),
            _ => {}
        }
    }
}

impl EventSink for EventClassifier {
    fn on_data(&mut self, data: &str) {
        if self.stopped {
            self.after_stop += 1;
            return;
        }
        self.events += 1;
        match serde_json::from_str::<Value>(data) {
            Ok(v) => self.on_event(&v),
            Err(e) => {
                let n = self.events;
                self.problem(format!(
                    "event {n} is not JSON ({e}): {}",
                    shorten(data, 80)
                ));
            }
        }
    }

    fn framing(&mut self, problem: String) {
        self.problem(problem);
    }

    fn terminal_seen(&self) -> bool {
        self.stopped
    }
}

impl StreamClassifier for EventClassifier {
    fn finish(
        mut self: Box<Self>,
        status: u16,
        content_type: Option<String>,
        event_stream: bool,
        ended_by: ReadEnd,
        bytes: usize,
    ) -> CompletionEvidence {
        if self.after_stop > 0 {
            let n = self.after_stop;
            self.problems
                .insert(0, format!("{n} events after message_stop"));
        }
        let classification = match (self.error.is_some(), self.stopped, ended_by) {
            (true, _, _) if self.problems.is_empty() => StreamClass::RunError,
            _ if !self.problems.is_empty() => StreamClass::Broken,
            (_, true, _) => StreamClass::Completed,
            (false, false, ReadEnd::Eof | ReadEnd::AfterTerminal) => {
                self.problems.push(format!(
                    "the stream ended after {} events without message_stop",
                    self.events
                ));
                StreamClass::Broken
            }
            (_, false, end) => {
                self.problems.push(
                    match end {
                        ReadEnd::Deadline => "no message_stop before the deadline (--timeout)",
                        ReadEnd::ReadCap => "no message_stop within --max-response-bytes",
                        _ => "the connection failed before message_stop",
                    }
                    .to_string(),
                );
                StreamClass::Unfinished
            }
        };
        CompletionEvidence {
            classification,
            status,
            content_type,
            stream_requested: true,
            event_stream,
            chunks: self.events,
            done: self.stopped,
            finish_reason: self.stop_reason,
            error: self.error,
            problems: self.problems,
            ended_by,
            bytes,
            responses: false,
            messages: true,
        }
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
    let mut evidence = crate::protocol::openai::classify::classify_body(
        status,
        content_type,
        stream_requested,
        body,
        ended_by,
    );
    evidence.messages = true;
    let is_2xx_object = (200..300).contains(&status) && !stream_requested;
    if !is_2xx_object || evidence.classification == StreamClass::Unfinished {
        return evidence;
    }
    // The Chat reading judged a chat.completion; judge a message instead.
    evidence.problems.clear();
    evidence.finish_reason = None;
    let parsed = crate::bounded_json::parse(body).ok();
    match message_problem(parsed.as_ref()) {
        Err(problem) => {
            evidence.problems.push(problem);
            evidence.classification = StreamClass::Broken;
        }
        Ok(stop_reason) => {
            evidence.finish_reason = stop_reason;
            evidence.classification = StreamClass::Completed;
        }
    }
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
