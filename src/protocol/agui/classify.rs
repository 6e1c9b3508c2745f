//! Putting every answer of an AG-UI agent into one bucket.
//!
//! AG-UI does not say how bad input is answered (docs/wire.md, "Runs"): real servers answer 422,
//! 415, 400, sometimes 500, or 200 followed by `RUN_ERROR`, and some silently drop what
//! they do not understand. So the answer is classified first, and scenarios say which
//! buckets a case allows. The stream rules are the official client verifier's, tightened
//! where docs/wire.md is stricter: the first event is `RUN_STARTED` (or `RUN_ERROR`, for a
//! run that fails before it starts), exactly one terminal event (`RUN_FINISHED` or
//! `RUN_ERROR`) ends the run, and nothing follows it.

pub use crate::protocol::sse_read::ReadEnd;
pub use crate::scenario::stream::StreamClass;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The terminal event of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerminalEvent {
    /// `RUN_FINISHED` or `RUN_ERROR`.
    #[serde(rename = "type")]
    pub event_type: String,
    /// `RUN_ERROR.message` (may be empty).
    pub message: Option<String>,
    /// `RUN_ERROR.code`, when given.
    pub code: Option<String>,
}

/// How an answer was classified and what that rests on, per case in every report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamEvidence {
    pub classification: StreamClass,
    pub status: u16,
    pub content_type: Option<String>,
    /// True when the body was read as an event stream (a 2xx `text/event-stream`).
    pub event_stream: bool,
    /// Event types in arrival order (the first [`MAX_EVENTS_KEPT`]).
    pub events: Vec<String>,
    /// All events seen, kept or not.
    pub events_total: usize,
    pub terminal: Option<TerminalEvent>,
    /// Framing and ordering violations, in the order they were seen.
    pub problems: Vec<String>,
    pub ended_by: ReadEnd,
    /// Response body bytes read.
    pub bytes: usize,
    /// The value of the first `mmconform.echo` CUSTOM event, when there was one.
    pub echo: Option<Value>,
}

/// Event types kept in the evidence; the count is always complete.
pub const MAX_EVENTS_KEPT: usize = 200;
/// Problems of one stream kept; the rest are counted.
pub const MAX_PROBLEMS_KEPT: usize = 20;

/// The CUSTOM event name an echoing agent uses (README, "The echo event").
pub const ECHO_EVENT_NAME: &str = "mmconform.echo";

const RUN_STARTED: &str = "RUN_STARTED";
const RUN_FINISHED: &str = "RUN_FINISHED";
const RUN_ERROR: &str = "RUN_ERROR";

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}

impl StreamEvidence {
    /// One line for terminals and JUnit: `rejected: HTTP 422`, `completed: RUN_FINISHED
    /// after 6 events`, `broken: first event is TEXT_MESSAGE_START, not RUN_STARTED`.
    pub fn summary(&self) -> String {
        let class = self.classification;
        match class {
            StreamClass::Rejected | StreamClass::Crashed => {
                format!("{class}: HTTP {}", self.status)
            }
            StreamClass::RunError => {
                let t = self.terminal.as_ref();
                let code = t
                    .and_then(|t| t.code.as_deref())
                    .map(|c| format!(" {c}"))
                    .unwrap_or_default();
                let message = t.and_then(|t| t.message.as_deref()).unwrap_or("");
                format!("{class}:{code} \"{}\"", shorten(message, 80))
            }
            StreamClass::Completed => {
                format!("{class}: RUN_FINISHED after {} events", self.events_total)
            }
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

/// Feeds on the SSE events of one answer, in order, and classifies it at the end.
#[derive(Debug, Default)]
pub struct Classifier {
    events: Vec<String>,
    total: usize,
    terminal: Option<TerminalEvent>,
    run_active: bool,
    after_terminal: usize,
    problems: Vec<String>,
    /// Problems past the first [`MAX_PROBLEMS_KEPT`], counted.
    problems_dropped: usize,
    echo: Option<Value>,
}

fn string_field(event: &Value, key: &str) -> Option<String> {
    event.get(key).and_then(Value::as_str).map(str::to_string)
}

impl Classifier {
    pub fn terminal_seen(&self) -> bool {
        self.terminal.is_some()
    }

    /// A framing problem found by the reader (bad UTF-8, an unterminated final frame).
    pub fn framing(&mut self, problem: String) {
        self.problem(problem);
    }

    /// A problem with the stream: the first ones kept, the rest counted (an agent that
    /// sends 100,000 bad events gets a report of a proportionate size).
    fn problem(&mut self, problem: String) {
        if self.problems.len() < MAX_PROBLEMS_KEPT {
            self.problems.push(problem);
        } else {
            self.problems_dropped += 1;
        }
    }

    /// One SSE event's `data` (events without data are metadata and never reach here).
    pub fn on_data(&mut self, data: &str) {
        let event: Value = match serde_json::from_str(data) {
            Ok(v) => v,
            Err(e) => {
                self.problem(format!(
                    "event {} is not JSON ({e}): {}",
                    self.total + 1,
                    shorten(data, 80)
                ));
                self.total += 1;
                return;
            }
        };
        let Some(event_type) = string_field(&event, "type") else {
            self.problem(format!(
                "event {} has no string `type`: {}",
                self.total + 1,
                shorten(data, 80)
            ));
            self.total += 1;
            return;
        };
        self.total += 1;
        if self.events.len() < MAX_EVENTS_KEPT {
            self.events.push(event_type.clone());
        }
        if let Some(t) = &self.terminal {
            self.after_terminal += 1;
            if self.after_terminal == 1 {
                self.problems
                    .push(format!("{event_type} after the terminal {}", t.event_type));
            }
            return;
        }
        let first = self.total == 1;
        match event_type.as_str() {
            RUN_STARTED if self.run_active => {
                self.problems
                    .push("a second RUN_STARTED while the run is active".to_string());
            }
            RUN_STARTED => self.run_active = true,
            RUN_FINISHED | RUN_ERROR => {
                // RUN_ERROR may open the stream (a run that fails before it starts);
                // any other wrong first event was reported when it arrived.
                if first && event_type == RUN_FINISHED {
                    self.problems
                        .push("first event is RUN_FINISHED, not RUN_STARTED".to_string());
                }
                self.terminal = Some(TerminalEvent {
                    event_type: event_type.clone(),
                    message: string_field(&event, "message"),
                    code: string_field(&event, "code"),
                });
                return;
            }
            other if first => {
                self.problems
                    .push(format!("first event is {other}, not RUN_STARTED"));
            }
            _ => {}
        }
        if event_type == "CUSTOM"
            && self.echo.is_none()
            && event.get("name").and_then(Value::as_str) == Some(ECHO_EVENT_NAME)
        {
            self.echo = Some(event.get("value").cloned().unwrap_or(Value::Null));
        }
    }

    /// The evidence for an answer with `status` whose reading ended by `ended_by`.
    /// `event_stream` says whether the body was read as an event stream at all.
    pub fn finish(
        mut self,
        status: u16,
        content_type: Option<String>,
        event_stream: bool,
        ended_by: ReadEnd,
        bytes: usize,
    ) -> StreamEvidence {
        if self.after_terminal > 1 {
            let n = self.after_terminal;
            if let Some(p) = self
                .problems
                .iter_mut()
                .find(|p| p.contains("after the terminal"))
            {
                p.push_str(&format!(" ({n} events after it in all)"));
            }
        }
        let classification = match status {
            400..=499 => StreamClass::Rejected,
            500..=599 => StreamClass::Crashed,
            200..=299 if !event_stream => {
                self.problems.insert(
                    0,
                    format!(
                        "HTTP {status} answer is not an event stream (content-type {})",
                        content_type.as_deref().unwrap_or("absent")
                    ),
                );
                StreamClass::Broken
            }
            200..=299 => self.stream_class(ended_by),
            _ => {
                self.problems.insert(
                    0,
                    format!("HTTP {status} is neither an event stream nor an error"),
                );
                StreamClass::Broken
            }
        };
        if self.problems_dropped > 0 {
            self.problems.push(format!(
                "… and {} more problems",
                crate::quoted::thousands(self.problems_dropped)
            ));
        }
        StreamEvidence {
            classification,
            status,
            content_type,
            event_stream,
            events: self.events,
            events_total: self.total,
            terminal: self.terminal,
            problems: self.problems,
            ended_by,
            bytes,
            echo: self.echo,
        }
    }

    fn stream_class(&mut self, ended_by: ReadEnd) -> StreamClass {
        if !self.problems.is_empty() {
            return StreamClass::Broken;
        }
        match (&self.terminal, ended_by) {
            (Some(t), _) if t.event_type == RUN_ERROR => StreamClass::RunError,
            (Some(_), _) => StreamClass::Completed,
            (None, ReadEnd::Eof | ReadEnd::AfterTerminal) => {
                self.problems.push(if self.total == 0 {
                    "the stream ended without any event".to_string()
                } else {
                    format!(
                        "the stream ended after {} events without RUN_FINISHED or RUN_ERROR",
                        self.total
                    )
                });
                StreamClass::Broken
            }
            (None, end) => {
                self.problems.push(
                    match end {
                        ReadEnd::Deadline => "no terminal event before the deadline (--timeout)",
                        ReadEnd::ReadCap => "no terminal event within --max-response-bytes",
                        _ => "the connection failed before a terminal event",
                    }
                    .to_string(),
                );
                StreamClass::Unfinished
            }
        }
    }
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
