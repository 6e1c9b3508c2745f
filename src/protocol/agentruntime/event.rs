//! A bridge's stdout line read as an `AgentEvent`, once, as it arrives, and kept small.
//!
//! A line is parsed within the same bound as an HTTP body (`mmconform_json::bounded`: at most
//! 100,000 JSON values, so a 4 MB line of two million numbers is refused before a value
//! is built), and only what the contract judges is kept: an event's kind, whether an
//! error has a message, a media item's type and the head of its bytes, the first
//! `done`'s result, and the text of the lines a report shows. The line itself is
//! dropped, so a flood of lines after `done` costs a few bytes a line, however many
//! bridges run at once (`-j`).

use super::attachment::Attachment;
use crate::process::Line;
use mmconform_json::bounded::{self, JsonProblem};
use serde_json::{Map, Value};

/// Lines whose text a report shows (the first ones), and how much of each.
pub const SHOWN_LINES: usize = 40;
pub const SHOWN_CHARS: usize = 400;

/// What a line was, as the contract reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// `text`, `thinking`, `tool_use`, `tool_result`: only the kind is judged.
    Other(&'static str),
    /// An `error` event: whether it has a string `message`, and (the first one) the
    /// event as a report quotes it.
    Error {
        has_message: bool,
        shown: Option<String>,
    },
    /// A `media` event: its `media`, when that is an object.
    Media(Option<Attachment>),
    /// A `done` event: its `result` when it is the run's first `done` (only that one
    /// is judged).
    Done { result: Option<Value> },
}

/// Why a line is not an event. `Unread` is a bound of ours, not the bridge's fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotEvent {
    /// Not an `AgentEvent`, and why.
    Invalid(String),
    /// More JSON values than a body may hold: not parsed (memory bound).
    Unread,
}

/// One stdout line as kept.
#[derive(Debug, Clone, PartialEq)]
pub struct EventLine {
    /// The line, clipped, when a report may show it: one of the first
    /// [`SHOWN_LINES`], or the first line that is not an event.
    pub shown: Option<String>,
    pub read: Result<Event, NotEvent>,
}

impl EventLine {
    pub fn is_done(&self) -> bool {
        matches!(self.read, Ok(Event::Done { .. }))
    }
}

/// Reads a run's lines in order (what is kept of a line depends on the ones before).
#[derive(Debug, Default)]
pub struct EventReader {
    lines: usize,
    bad_seen: bool,
    done_seen: bool,
    error_seen: bool,
    /// Keep the first line's object whatever it is (`describe`'s declaration).
    keep_first_object: bool,
    /// The first line, when it was a JSON object and [`EventReader::describing`] asked.
    pub first_object: Option<Map<String, Value>>,
}

impl EventReader {
    /// A reader of `describe`'s answer: its first line's object is kept.
    pub fn describing() -> EventReader {
        EventReader {
            keep_first_object: true,
            ..EventReader::default()
        }
    }

    pub fn read(&mut self, line: Line) -> EventLine {
        let first = self.lines == 0;
        self.lines += 1;
        let (read, object) = self.event(&line);
        if first && self.keep_first_object {
            self.first_object = object;
        }
        let bad = read.is_err() && !self.bad_seen;
        self.bad_seen |= read.is_err();
        let shown = (self.lines <= SHOWN_LINES || bad).then(|| clip(&line.text, SHOWN_CHARS));
        EventLine { shown, read }
    }

    /// The event, and the line's object when the first one is to be kept.
    fn event(&mut self, line: &Line) -> (Result<Event, NotEvent>, Option<Map<String, Value>>) {
        let invalid = |why: &str| Err(NotEvent::Invalid(why.to_string()));
        if !line.utf8 {
            return (invalid("not UTF-8 (binary output)"), None);
        }
        // What is no object is only checked, never built (a flood of arrays costs no
        // values).
        let parsed = match line.text.trim_start().starts_with('{') {
            true => bounded::parse(line.text.as_bytes()),
            false => bounded::check(line.text.as_bytes()).map(|()| Value::Null),
        };
        let mut map = match parsed {
            Ok(Value::Object(map)) => map,
            Ok(_) => return (invalid("JSON but not an object"), None),
            Err(JsonProblem::TooManyValues) => return (Err(NotEvent::Unread), None),
            Err(JsonProblem::Invalid(e)) => {
                return (Err(NotEvent::Invalid(format!("not JSON ({e})"))), None);
            }
        };
        let kind = map.get("type").and_then(Value::as_str).map(str::to_string);
        let read = match kind.as_deref() {
            Some(kind @ ("text" | "thinking" | "tool_use" | "tool_result")) => {
                Ok(Event::Other(static_kind(kind)))
            }
            Some("error") => {
                let shown = (!self.error_seen).then(|| clip(&line.text, SHOWN_CHARS));
                self.error_seen = true;
                Ok(Event::Error {
                    has_message: map.get("message").is_some_and(Value::is_string),
                    shown,
                })
            }
            Some("media") => Ok(Event::Media(
                map.get("media")
                    .and_then(Value::as_object)
                    .map(Attachment::of),
            )),
            Some("done") => {
                let result = (!self.done_seen).then(|| map.remove("result")).flatten();
                self.done_seen = true;
                Ok(Event::Done { result })
            }
            Some(other) => Err(NotEvent::Invalid(format!(
                "an object whose type `{}` is no AgentEvent",
                clip(other, 80)
            ))),
            None => invalid("an object without a string `type`"),
        };
        let object = self.keep_first_object.then_some(map);
        (read, object)
    }
}

fn static_kind(kind: &str) -> &'static str {
    match kind {
        "text" => "text",
        "thinking" => "thinking",
        "tool_use" => "tool_use",
        _ => "tool_result",
    }
}

/// `text`'s first `chars` characters, with `…` when it was longer.
pub fn clip(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            text: text.into(),
            utf8: true,
            terminated: true,
        }
    }

    fn read(text: &str) -> Result<Event, NotEvent> {
        EventReader::default().read(line(text)).read
    }

    #[test]
    fn lines_are_read_as_agent_events() {
        assert_eq!(
            read(r#"{"type":"text","text":"hi"}"#),
            Ok(Event::Other("text"))
        );
        let invalid = |r: Result<Event, NotEvent>| match r {
            Err(NotEvent::Invalid(why)) => why,
            other => panic!("{other:?}"),
        };
        assert!(invalid(read("thinking...")).starts_with("not JSON"));
        assert!(invalid(read("[1]")).contains("not an object"));
        assert!(invalid(read(r#"{"type":"banner"}"#)).contains("no AgentEvent"));
        let mut binary = line("x");
        binary.utf8 = false;
        let r = EventReader::default().read(binary).read;
        assert!(invalid(r).contains("binary"));
        assert!(
            EventReader::default()
                .read(line(r#"{"type":"done","result":{}}"#))
                .is_done()
        );
        assert!(
            !EventReader::default()
                .read(line(r#"{"type":"text","text":"done"}"#))
                .is_done()
        );
    }

    #[test]
    fn a_line_of_two_million_numbers_is_not_read_and_nothing_is_built() {
        let wide = format!("[{}0]", "0,".repeat(2_000_000));
        assert_eq!(read(&wide), Err(NotEvent::Unread));
    }

    #[test]
    fn only_what_is_judged_is_kept() {
        let mut reader = EventReader::default();
        let done = r#"{"type":"done","result":{"text":"a","sessionId":"s"},"junk":[1,2,3]}"#;
        let first = reader.read(line(done));
        assert_eq!(
            first.read,
            Ok(Event::Done {
                result: Some(serde_json::json!({"text":"a","sessionId":"s"}))
            })
        );
        // A second done keeps no result; lines past the first ones keep no text.
        assert_eq!(
            reader.read(line(done)).read,
            Ok(Event::Done { result: None })
        );
        for _ in 0..SHOWN_LINES {
            reader.read(line(r#"{"type":"text","text":"x"}"#));
        }
        assert_eq!(
            reader.read(line(r#"{"type":"text","text":"x"}"#)).shown,
            None
        );
        // ...except the first line that is no event, which the contract quotes.
        assert!(reader.read(line("oops")).shown.is_some());
        assert_eq!(reader.read(line("oops again")).shown, None);
    }

    #[test]
    fn describe_keeps_its_first_object() {
        let mut reader = EventReader::describing();
        reader.read(line(r#"{"mediaCapabilities":{"emitsOutbound":false}}"#));
        reader.read(line(r#"{"other":1}"#));
        let object = reader.first_object.unwrap();
        assert!(object.contains_key("mediaCapabilities"));
    }
}
