//! Putting every answer of a model door into one bucket, as AG-UI's are (docs/wire.md,
//! "OpenAI-compatible"): what every door's classification shares. Each door says what
//! its 2xx object is (`ReadObject`) and reads its stream (`stream_reading::StreamDoor`):
//!
//! - `rejected`: a 4xx; `crashed`: a 5xx (whatever the body says);
//! - `completed`: a 2xx object of the door (asked without `stream`), or a 2xx event
//!   stream (asked with `stream: true`) the door's stream reading completes;
//! - `run-error`: a stream carrying an error event (how servers report a failure once
//!   streaming has begun);
//! - `broken`: anything else a server sent (a stream without its end, an event that is
//!   not JSON, an object without its fields, a stream where JSON was asked for);
//! - `unfinished`: our deadline or read cap ended the read first (not a verdict).

use crate::protocol::sse_read::ReadEnd;
pub use crate::scenario::stream::StreamClass;
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
    pub fn of(body: &Value) -> Option<ErrorSummary> {
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

pub fn shorten(text: &str, max: usize) -> String {
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

/// How a door reads its 2xx object: the finish reason (or status) and the bucket, or
/// what keeps the body from being the door's object.
pub type ReadObject = fn(Option<&Value>) -> Result<(Option<String>, StreamClass), String>;

/// Classifies an answer not read as an event stream; a 2xx object (asked without
/// `stream`) is judged by the door's `read_object`.
pub fn classify_door_body(
    status: u16,
    content_type: Option<String>,
    stream_requested: bool,
    body: &[u8],
    ended_by: ReadEnd,
    read_object: ReadObject,
) -> CompletionEvidence {
    let parsed = mmconform_json::bounded::parse(body).ok();
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
        200..=299 => match read_object(parsed.as_ref()) {
            Err(problem) => {
                problems.push(problem);
                StreamClass::Broken
            }
            Ok((finish_reason, classification)) => {
                finish = finish_reason;
                classification
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
