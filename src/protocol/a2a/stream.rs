//! Reading a streamed send (§3.1.2; JSON-RPC §9.4.2: each event a JSON-RPC response
//! carrying a stream response; HTTP+JSON §11.7: the stream response itself). The
//! stream must be one message, or a task followed by status and artifact updates,
//! closing once the task is terminal or interrupted (0.3: the status update marked
//! `final`). The events are read through `protocol::stream_post` (bounded, `sse-stream`
//! framing); what they add up to is a [`Reading`].

use super::answer::{ErrorSeen, Object, is_interrupted, is_terminal, read_object};
use super::classify::{Reading, by_state, send_answer};
use super::interface::{Binding, Version};
use crate::protocol::sse_read::{EventSink, ReadEnd};
use crate::scenario::stream::StreamClass;
use serde_json::Value;

/// The most event names kept for the evidence.
const MAX_NAMES: usize = 64;

/// Collects a stream's events.
pub struct StreamSink {
    binding: Binding,
    version: Version,
    reading: Reading,
    events: usize,
    /// The last event carrying a state, as written, and its task id.
    last_state: Option<(String, Option<String>)>,
    ended: bool,
}

impl StreamSink {
    pub fn new(binding: Binding, version: Version) -> StreamSink {
        StreamSink {
            binding,
            version,
            reading: Reading::new(StreamClass::Unfinished, 0, String::new()),
            events: 0,
            last_state: None,
            ended: false,
        }
    }

    fn note(&mut self, name: String) {
        if self.reading.objects.len() < MAX_NAMES {
            self.reading.objects.push(name);
        }
    }

    fn on_object(&mut self, object: Object) {
        let first = self.events == 1;
        if first {
            if !matches!(object, Object::Task { .. } | Object::Message) {
                self.reading.problems.push(format!(
                    "the stream begins with {}, not a task or a message (§3.1.2)",
                    object.name()
                ));
            }
            self.reading.first = Some(object.clone());
        } else if self.ended {
            if !matches!(object, Object::Task { .. }) {
                self.reading.problems.push(format!(
                    "{} after the stream's end (§3.1.2: it closes once the task ends)",
                    object.name()
                ));
            }
            return;
        } else if matches!(object, Object::Message) {
            self.reading.problems.push(
                "a message after the first event (a message-only stream has exactly one message, §3.1.2)".into(),
            );
        }
        match &object {
            Object::Message => self.ended = true,
            Object::Task { id, state } => {
                self.last_state = Some((state.clone(), id.clone()));
                self.ended |= object
                    .state()
                    .is_some_and(|s| is_terminal(s) || is_interrupted(s));
            }
            Object::StatusUpdate { state, last } => {
                let id = self.last_state.as_ref().and_then(|(_, id)| id.clone());
                self.last_state = Some((state.clone(), id));
                self.ended |= *last
                    || object
                        .state()
                        .is_some_and(|s| is_terminal(s) || is_interrupted(s));
            }
            Object::ArtifactUpdate => {}
            Object::Unknown { .. } => self.reading.problems.push(format!(
                "an event that is no stream response: {}",
                object.name()
            )),
        }
    }

    /// The reading of the stream, once it stopped (`status`, and whether it was read
    /// as an event stream at all; `raw` is the body when it was not).
    pub fn finish(
        mut self,
        status: u16,
        event_stream: bool,
        raw: &[u8],
        ended_by: ReadEnd,
    ) -> Reading {
        if !event_stream {
            // An answer before any stream: an error (UnsupportedOperationError, a
            // refusal), or something that is not a stream at all.
            let mut reading = send_answer(self.binding, self.version, status, raw);
            if (200..300).contains(&status) && reading.error.is_none() {
                reading.classification = StreamClass::Broken;
                reading.summary =
                    format!("answered {} instead of an event stream", reading.summary);
            }
            reading.ended_by = Some(ended_by);
            return reading;
        }
        let mut reading = std::mem::replace(
            &mut self.reading,
            Reading::new(StreamClass::Unfinished, 0, String::new()),
        );
        reading.status = status;
        reading.event_stream = true;
        reading.ended_by = Some(ended_by);
        if reading.error.is_some() {
            return reading;
        }
        let events = format!("{} event(s)", self.events);
        match (self.ended, &self.last_state, &reading.first) {
            (true, _, Some(Object::Message)) => {
                reading.classification = StreamClass::Completed;
                reading.summary = format!("a message ({events})");
            }
            (true, Some((state, id)), _) => {
                let (state, id) = (state.clone(), id.clone());
                by_state(&mut reading, &state, id.as_deref());
                reading.summary = format!("{} ({events})", reading.summary);
            }
            _ if ended_by == ReadEnd::Eof => {
                reading.classification = StreamClass::Broken;
                reading.summary = format!(
                    "the stream closed after {events} without a terminal state or a message"
                );
            }
            _ => {
                reading.classification = StreamClass::Unfinished;
                reading.summary = format!(
                    "our read stopped ({ended_by:?}) after {events}, before the stream ended"
                );
            }
        }
        if reading.classification != StreamClass::Unfinished
            && !reading.problems.is_empty()
            && reading.interrupted.is_none()
        {
            reading.classification = StreamClass::Broken;
        }
        reading
    }
}

impl EventSink for StreamSink {
    fn on_data(&mut self, data: &str) {
        self.events += 1;
        let Ok(value) = serde_json::from_str::<Value>(data) else {
            self.note("(not JSON)".into());
            self.reading
                .problems
                .push("an event whose data is not JSON".into());
            return;
        };
        let response = match self.binding {
            Binding::JsonRpc => {
                if let Some(error) = value.get("error").filter(|e| e.is_object()) {
                    let seen = ErrorSeen::from_jsonrpc(200, error);
                    self.note(format!("error {}", seen.describe()));
                    self.reading.classification = if seen.is_crash() {
                        StreamClass::Crashed
                    } else {
                        StreamClass::Rejected
                    };
                    self.reading.summary = format!("the stream carried {}", seen.describe());
                    self.reading.error = Some(seen);
                    self.ended = true;
                    return;
                }
                match value.get("result") {
                    Some(result) => result.clone(),
                    None => {
                        self.note("(no result)".into());
                        self.reading
                            .problems
                            .push("an event that is not a JSON-RPC response with a result".into());
                        return;
                    }
                }
            }
            Binding::HttpJson => value,
        };
        let (object, differs) = read_object(&response, self.version);
        if let Some(differs) = differs
            && !self.reading.spelling.contains(&differs)
        {
            self.reading.spelling.push(differs);
        }
        self.note(object.name());
        self.on_object(object);
    }

    fn framing(&mut self, problem: String) {
        self.reading.problems.push(problem);
    }

    fn terminal_seen(&self) -> bool {
        self.ended
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn feed(binding: Binding, version: Version, events: &[Value]) -> StreamSink {
        let mut sink = StreamSink::new(binding, version);
        for e in events {
            let data = match binding {
                Binding::JsonRpc => json!({"jsonrpc": "2.0", "id": 1, "result": e}),
                Binding::HttpJson => e.clone(),
            };
            sink.on_data(&data.to_string());
        }
        sink
    }

    #[test]
    fn a_task_stream_ends_in_its_final_state() {
        let events = [
            json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}}),
            json!({"artifactUpdate": {"taskId": "t", "artifact": {}}}),
            json!({"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}}}),
        ];
        let sink = feed(Binding::JsonRpc, Version::V1, &events);
        assert!(sink.terminal_seen());
        let reading = sink.finish(200, true, b"", ReadEnd::AfterTerminal);
        assert_eq!(
            reading.classification,
            StreamClass::Completed,
            "{reading:?}"
        );
        let v03 = [
            json!({"kind": "task", "id": "t", "status": {"state": "working"}}),
            json!({"kind": "status-update", "taskId": "t", "status": {"state": "failed"}, "final": true}),
        ];
        let reading =
            feed(Binding::HttpJson, Version::V03, &v03).finish(200, true, b"", ReadEnd::Eof);
        assert_eq!(reading.classification, StreamClass::RunError);
    }

    #[test]
    fn a_stream_without_its_end_is_broken_unless_our_read_stopped_it() {
        let events = [json!({"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}})];
        let sink = feed(Binding::JsonRpc, Version::V1, &events);
        assert_eq!(
            sink.finish(200, true, b"", ReadEnd::Eof).classification,
            StreamClass::Broken
        );
        let sink = feed(Binding::JsonRpc, Version::V1, &events);
        assert_eq!(
            sink.finish(200, true, b"", ReadEnd::Deadline)
                .classification,
            StreamClass::Unfinished
        );
        let starts_badly = [json!({"statusUpdate": {"status": {"state": "TASK_STATE_COMPLETED"}}})];
        let reading =
            feed(Binding::JsonRpc, Version::V1, &starts_badly).finish(200, true, b"", ReadEnd::Eof);
        assert_eq!(reading.classification, StreamClass::Broken);
        assert!(
            reading.problems[0].contains("begins with"),
            "{:?}",
            reading.problems
        );
    }

    #[test]
    fn an_error_before_the_stream_is_read_as_a_send_answer() {
        let refused = json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32004, "message": "no streaming"}}).to_string();
        let reading = StreamSink::new(Binding::JsonRpc, Version::V1).finish(
            200,
            false,
            refused.as_bytes(),
            ReadEnd::Eof,
        );
        assert_eq!(reading.classification, StreamClass::Rejected);
        let json_instead = json!({"jsonrpc": "2.0", "id": 1, "result": {"message": {"role": "ROLE_AGENT", "parts": []}}}).to_string();
        let reading = StreamSink::new(Binding::JsonRpc, Version::V1).finish(
            200,
            false,
            json_instead.as_bytes(),
            ReadEnd::Eof,
        );
        assert_eq!(reading.classification, StreamClass::Broken);
    }
}
