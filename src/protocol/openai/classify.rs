//! Putting every answer of an OpenAI-compatible endpoint into one bucket, as AG-UI's
//! are (docs/wire.md, "OpenAI-compatible"):
//!
//! - `rejected`: a 4xx; `crashed`: a 5xx (whatever the body says);
//! - `completed`: a 2xx `chat.completion` (asked without `stream`), or a 2xx chunk
//!   stream (asked with `stream: true`) whose every event is a `chat.completion.chunk`,
//!   one of which carries a `finish_reason`, ending with `data: [DONE]` and nothing after;
//! - `run-error`: a chunk stream carrying an `{error: ...}` event (how servers report a
//!   failure once streaming has begun);
//! - `broken`: anything else a server sent (a stream without `[DONE]`, a chunk that is
//!   not JSON, a completion without choices, a stream where JSON was asked for);
//! - `unfinished`: our deadline or read cap ended the read first (not a verdict).

use super::stream_reading::{Reading, StreamDoor, StreamReading};
use crate::protocol::sse_read::ReadEnd;
pub use crate::scenario::stream::StreamClass;
use crate::wire::chat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How an answer was classified and what that rests on, per case in every report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompletionEvidence {
    pub classification: StreamClass,
    pub status: u16,
    pub content_type: Option<String>,
    /// The request asked for `stream: true`.
    pub stream_requested: bool,
    /// The body was read as an event stream (a 2xx `text/event-stream`).
    pub event_stream: bool,
    /// Chunk events seen (`[DONE]` not counted).
    pub chunks: usize,
    /// `data: [DONE]` ended the stream.
    pub done: bool,
    /// The first `finish_reason` seen.
    pub finish_reason: Option<String>,
    /// An error the answer carried: the body of a 4xx/5xx, or an error event in a stream.
    pub error: Option<ErrorSummary>,
    /// Framing and shape violations, in the order they were seen.
    pub problems: Vec<String>,
    pub ended_by: ReadEnd,
    pub bytes: usize,
    /// The answer is the Responses door's (`response` objects and `response.*` events,
    /// `protocol::openai_responses::classify`): `chunks` counts its events, `done` is
    /// `response.completed`, `finish_reason` the response's `status`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub responses: bool,
    /// The answer is Anthropic Messages' (`message` objects and `message_*` events,
    /// `protocol::anthropic::classify`): `chunks` counts its events, `done` is
    /// `message_stop`, `finish_reason` the `stop_reason`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub messages: bool,
}

/// `{error: {type, code, message}}` as the answer gave it (each absent when not a string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorSummary {
    #[serde(rename = "type")]
    pub error_type: Option<String>,
    pub code: Option<String>,
    pub message: Option<String>,
}

impl ErrorSummary {
    pub(crate) fn of(body: &Value) -> Option<ErrorSummary> {
        let error = body.get("error")?;
        let field = |k: &str| match error.get(k) {
            Some(Value::String(s)) => Some(shorten(s, 200)),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        Some(match error {
            Value::String(s) => ErrorSummary {
                error_type: None,
                code: None,
                message: Some(shorten(s, 200)),
            },
            _ => ErrorSummary {
                error_type: field("type"),
                code: field("code"),
                message: field("message"),
            },
        })
    }
}

pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}

impl CompletionEvidence {
    /// One line for terminals and JUnit: `rejected: HTTP 400 invalid_request_error`,
    /// `completed: chat.completion, finish_reason stop`, `broken: no data: [DONE]`.
    pub fn summary(&self) -> String {
        let class = self.classification;
        let error = self
            .error
            .as_ref()
            .map(|e| {
                let named = e.code.as_deref().or(e.error_type.as_deref()).unwrap_or("");
                match (named, e.message.as_deref()) {
                    ("", Some(m)) => format!(" \"{}\"", shorten(m, 80)),
                    (n, Some(m)) => format!(" {n} \"{}\"", shorten(m, 80)),
                    (n, None) if !n.is_empty() => format!(" {n}"),
                    _ => String::new(),
                }
            })
            .unwrap_or_default();
        match class {
            StreamClass::Rejected | StreamClass::Crashed => {
                format!("{class}: HTTP {}{error}", self.status)
            }
            StreamClass::RunError if self.responses || self.messages => {
                format!("{class}: error event after {} events{error}", self.chunks)
            }
            StreamClass::RunError => {
                format!("{class}: error event after {} chunks{error}", self.chunks)
            }
            StreamClass::Completed if self.responses && self.event_stream => format!(
                "{class}: {} events, response.completed, status {}",
                self.chunks,
                self.finish_reason.as_deref().unwrap_or("?")
            ),
            StreamClass::Completed if self.messages && self.event_stream => format!(
                "{class}: {} events, message_stop, stop_reason {}",
                self.chunks,
                self.finish_reason.as_deref().unwrap_or("?")
            ),
            StreamClass::Completed if self.messages => format!(
                "{class}: message, stop_reason {}",
                self.finish_reason.as_deref().unwrap_or("?")
            ),
            StreamClass::Completed if self.responses => format!(
                "{class}: response, status {}",
                self.finish_reason.as_deref().unwrap_or("?")
            ),
            StreamClass::Completed if self.event_stream => format!(
                "{class}: {} chunks, finish_reason {}, [DONE]",
                self.chunks,
                self.finish_reason.as_deref().unwrap_or("?")
            ),
            StreamClass::Completed => format!(
                "{class}: chat.completion, finish_reason {}",
                self.finish_reason.as_deref().unwrap_or("?")
            ),
            StreamClass::Broken | StreamClass::Unfinished => format!(
                "{class}: {}",
                self.problems
                    .first()
                    .map(String::as_str)
                    .unwrap_or("(no detail)")
            ),
        }
    }
}

/// The Chat Completions door's stream: `chat.completion.chunk` objects, ending
/// `data: [DONE]`; an `{error}` object in the stream is the run's error.
#[derive(Debug, Default)]
pub struct ChatStream;

/// Feeds on the events of one streamed answer, in order.
pub type ChunkClassifier = StreamReading<ChatStream>;

/// What keeps `choice` from being a valid choice of a chunk or a completion.
fn choice_problem(choice: &Value, delta_key: &str) -> Option<String> {
    if !choice.is_object() {
        return Some("a choice is not an object".into());
    }
    if !choice.get("index").is_some_and(Value::is_u64) {
        return Some("a choice has no integer `index`".into());
    }
    if !choice.get(delta_key).is_some_and(Value::is_object) {
        return Some(format!("a choice has no `{delta_key}` object"));
    }
    match choice.get("finish_reason") {
        None | Some(Value::Null) | Some(Value::String(_)) => None,
        Some(_) => Some("`finish_reason` is neither a string nor null".into()),
    }
}

fn finish_reason(choices: &[Value]) -> Option<String> {
    choices
        .iter()
        .find_map(|c| c.get("finish_reason").and_then(Value::as_str))
        .map(str::to_string)
}

impl StreamDoor for ChatStream {
    const END: &'static str = "data: [DONE]";
    const ITEM: &'static str = "chunk";
    const DOOR: (bool, bool) = (false, false);

    fn is_end_marker(data: &str) -> bool {
        data.trim() == chat::DONE
    }

    fn on_item(&mut self, chunk: &Value, n: usize, reading: &mut Reading) -> bool {
        if chunk.get("error").is_some() && reading.error.is_none() {
            reading.error = ErrorSummary::of(chunk);
            return false;
        }
        if chunk.get("object").and_then(Value::as_str) != Some(chat::CHUNK_OBJECT) {
            reading.problem(format!(
                "chunk {n}: `object` is not \"{}\"",
                chat::CHUNK_OBJECT
            ));
            return false;
        }
        let Some(choices) = chunk.get("choices").and_then(Value::as_array) else {
            reading.problem(format!("chunk {n} has no `choices` array"));
            return false;
        };
        if let Some(p) = choices.iter().find_map(|c| choice_problem(c, "delta")) {
            reading.problem(format!("chunk {n}: {p}"));
        }
        if reading.finish_reason.is_none() {
            reading.finish_reason = finish_reason(choices);
        }
        false
    }

    fn ended_problem(&self, reading: &Reading) -> Option<String> {
        reading
            .finish_reason
            .is_none()
            .then(|| "no chunk carried a finish_reason".into())
    }
}

impl ChunkClassifier {
    /// The evidence for an answer with `status`, read as an event stream or not.
    pub fn finish(
        self,
        status: u16,
        content_type: Option<String>,
        event_stream: bool,
        ended_by: ReadEnd,
        bytes: usize,
    ) -> CompletionEvidence {
        super::wire::StreamClassifier::finish(
            Box::new(self),
            status,
            content_type,
            event_stream,
            ended_by,
            bytes,
        )
    }
}

/// How a door reads its 2xx object: the finish reason (or status) and the bucket, or
/// what keeps the body from being the door's object.
pub(crate) type ReadObject = fn(Option<&Value>) -> Result<(Option<String>, StreamClass), String>;

/// Classifies another door's answer not read as an event stream: as Chat's are, but a
/// 2xx object (asked without `stream`) is judged by the door's `read_object`.
pub(crate) fn classify_door_body(
    status: u16,
    content_type: Option<String>,
    stream_requested: bool,
    body: &[u8],
    ended_by: ReadEnd,
    read_object: ReadObject,
) -> CompletionEvidence {
    let mut evidence = classify_body(status, content_type, stream_requested, body, ended_by);
    let is_2xx_object = (200..300).contains(&status) && !stream_requested;
    if !is_2xx_object || evidence.classification == StreamClass::Unfinished {
        return evidence;
    }
    // The Chat reading judged a chat.completion; judge the door's object instead.
    evidence.problems.clear();
    evidence.finish_reason = None;
    let parsed = crate::bounded_json::parse(body).ok();
    match read_object(parsed.as_ref()) {
        Err(problem) => {
            evidence.problems.push(problem);
            evidence.classification = StreamClass::Broken;
        }
        Ok((finish_reason, classification)) => {
            evidence.finish_reason = finish_reason;
            evidence.classification = classification;
        }
    }
    evidence
}

/// Classifies an answer that was not read as an event stream.
pub fn classify_body(
    status: u16,
    content_type: Option<String>,
    stream_requested: bool,
    body: &[u8],
    ended_by: ReadEnd,
) -> CompletionEvidence {
    let parsed = crate::bounded_json::parse(body).ok();
    let mut problems = Vec::new();
    let mut finish = None;
    let classification = match status {
        400..=499 => StreamClass::Rejected,
        500..=599 => StreamClass::Crashed,
        _ if ended_by == ReadEnd::ReadCap || ended_by == ReadEnd::Deadline => {
            problems.push(
                "the body was not read to its end (--timeout or --max-response-bytes)".into(),
            );
            StreamClass::Unfinished
        }
        200..=299 if stream_requested => {
            problems.push(format!(
                "stream: true was asked for, but the answer is not an event stream (content-type {})",
                content_type.as_deref().unwrap_or("absent")
            ));
            StreamClass::Broken
        }
        200..=299 => match completion_problem(parsed.as_ref()) {
            Some(p) => {
                problems.push(p);
                StreamClass::Broken
            }
            None => {
                finish = parsed
                    .as_ref()
                    .and_then(|v| v.get("choices")?.as_array().and_then(|c| finish_reason(c)));
                StreamClass::Completed
            }
        },
        _ => {
            problems.push(format!(
                "HTTP {status} is neither a completion nor an error"
            ));
            StreamClass::Broken
        }
    };
    CompletionEvidence {
        classification,
        status,
        content_type,
        stream_requested,
        event_stream: false,
        chunks: 0,
        done: false,
        finish_reason: finish,
        error: parsed.as_ref().and_then(ErrorSummary::of),
        problems,
        ended_by,
        bytes: body.len(),
        responses: false,
        messages: false,
    }
}

/// What keeps a 2xx body from being a `chat.completion` (the full shape is the
/// `openai/chat-completion` schema's to judge; this is what the bucket rests on).
fn completion_problem(body: Option<&Value>) -> Option<String> {
    let Some(body) = body else {
        return Some("the 2xx body is not JSON".into());
    };
    if body.get("object").and_then(Value::as_str) != Some(chat::COMPLETION_OBJECT) {
        return Some(format!("`object` is not \"{}\"", chat::COMPLETION_OBJECT));
    }
    let choices = match body.get("choices").and_then(Value::as_array) {
        Some(c) if !c.is_empty() => c,
        _ => return Some("no `choices`".into()),
    };
    if let Some(p) = choices.iter().find_map(|c| choice_problem(c, "message")) {
        return Some(p);
    }
    if finish_reason(choices).is_none() {
        return Some("no choice has a finish_reason".into());
    }
    None
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
