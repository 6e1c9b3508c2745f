//! The reading every door's stream classifier shares (`classify.rs` of `openai`,
//! `openai_responses` and `anthropic`): count the items, stop at the event that ends
//! the stream and count what comes after it, keep the first error and the problems,
//! then classify by how the reading ended. What a door knows of its own wire (what an
//! item must hold, which event ends it, what it tolerates after the end, whether an
//! error outranks problems) is its [`StreamDoor`].

use super::CompletionEvidence;
use super::classify::{ErrorSummary, shorten};
use super::wire::StreamClassifier;
use crate::protocol::sse_read::{EventSink, ReadEnd};
use crate::scenario::stream::StreamClass;
use serde_json::Value;

/// Problems kept per answer.
const MAX_PROBLEMS: usize = 20;

/// What a door's items have told so far, beyond their count.
#[derive(Debug, Default)]
pub struct Reading {
    /// The finish reason, response status or stop reason the stream named.
    pub finish_reason: Option<String>,
    pub error: Option<ErrorSummary>,
    problems: Vec<String>,
}

impl Reading {
    pub fn problem(&mut self, text: String) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(text);
        }
    }
}

/// One door's rules for its stream.
pub trait StreamDoor: Default + Send + 'static {
    /// The event that ends the stream, as problems name it (`data: [DONE]`).
    const END: &'static str;
    /// What an item is called in problems (`chunk`, `event`).
    const ITEM: &'static str;
    /// Whether an error outranks problems (an `error` event ends Messages streams).
    const ERROR_FIRST: bool = false;
    /// Which door's evidence this is: `(responses, messages)`.
    const DOOR: (bool, bool);

    /// `data` that ends the stream without being an item (Chat's `[DONE]`).
    fn is_end_marker(_data: &str) -> bool {
        false
    }
    /// `data` after the end that is no defect (see the Responses door).
    fn tolerated_after_end(_data: &str) -> bool {
        false
    }
    /// Reads item `n` (counted from 1); true when it ends the stream.
    fn on_item(&mut self, item: &Value, n: usize, reading: &mut Reading) -> bool;
    /// What is wrong with a stream that reached its end, if anything.
    fn ended_problem(&self, _reading: &Reading) -> Option<String> {
        None
    }
}

/// A stream classifier: the shared reading with one door's rules.
#[derive(Debug, Default)]
pub struct StreamReading<D> {
    door: D,
    items: usize,
    ended: bool,
    after_end: usize,
    reading: Reading,
}

impl<D: StreamDoor> EventSink for StreamReading<D> {
    fn on_data(&mut self, data: &str) {
        if self.ended {
            if !D::tolerated_after_end(data) {
                self.after_end += 1;
            }
            return;
        }
        if D::is_end_marker(data) {
            self.ended = true;
            return;
        }
        self.items += 1;
        let n = self.items;
        match serde_json::from_str::<Value>(data) {
            Ok(item) => self.ended = self.door.on_item(&item, n, &mut self.reading),
            Err(e) => self.reading.problem(format!(
                "{} {n} is not JSON ({e}): {}",
                D::ITEM,
                shorten(data, 80)
            )),
        }
    }

    fn framing(&mut self, problem: String) {
        self.reading.problem(problem);
    }

    fn terminal_seen(&self) -> bool {
        self.ended
    }
}

impl<D: StreamDoor> StreamReading<D> {
    /// The bucket, by the door's precedence; a problem that decides it is recorded.
    fn classify(&mut self, ended_by: ReadEnd) -> StreamClass {
        let reading = &mut self.reading;
        let has_error = reading.error.is_some();
        if D::ERROR_FIRST && has_error && reading.problems.is_empty() {
            return StreamClass::RunError;
        }
        if !reading.problems.is_empty() {
            return StreamClass::Broken;
        }
        if has_error {
            return StreamClass::RunError;
        }
        if self.ended {
            return match self.door.ended_problem(reading) {
                Some(problem) => {
                    reading.problems.push(problem);
                    StreamClass::Broken
                }
                None => StreamClass::Completed,
            };
        }
        let end = D::END;
        let (problem, class) = match ended_by {
            ReadEnd::Eof | ReadEnd::AfterTerminal => (
                format!(
                    "the stream ended after {} {}s without {end}",
                    self.items,
                    D::ITEM
                ),
                StreamClass::Broken,
            ),
            ReadEnd::Deadline => (
                format!("no {end} before the deadline (--timeout)"),
                StreamClass::Unfinished,
            ),
            ReadEnd::ReadCap => (
                format!("no {end} within --max-response-bytes"),
                StreamClass::Unfinished,
            ),
            _ => (
                format!("the connection failed before {end}"),
                StreamClass::Unfinished,
            ),
        };
        reading.problems.push(problem);
        class
    }
}

impl<D: StreamDoor + std::fmt::Debug> StreamClassifier for StreamReading<D> {
    fn finish(
        mut self: Box<Self>,
        status: u16,
        content_type: Option<String>,
        event_stream: bool,
        ended_by: ReadEnd,
        bytes: usize,
    ) -> CompletionEvidence {
        if self.after_end > 0 {
            let text = format!("{} events after {}", self.after_end, D::END);
            self.reading.problems.insert(0, text);
        }
        let classification = self.classify(ended_by);
        let (responses, messages) = D::DOOR;
        CompletionEvidence {
            classification,
            status,
            content_type,
            stream_requested: true,
            event_stream,
            chunks: self.items,
            done: self.ended,
            finish_reason: self.reading.finish_reason,
            error: self.reading.error,
            problems: self.reading.problems,
            ended_by,
            bytes,
            responses,
            messages,
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each door reads the stream the witness answers on its wire as completed: the
    //! event names and order both use come from the same `crate::wire` description.
    use super::*;
    use crate::protocol::anthropic::classify::MessagesStream;
    use crate::protocol::openai::classify::ChatStream;
    use crate::protocol::openai_responses::classify::ResponsesStream;
    use crate::witness::wire::{anthropic, chat, responses};

    fn read<D: StreamDoor + std::fmt::Debug>(sse: &str) -> CompletionEvidence {
        let mut reading = StreamReading::<D>::default();
        for data in sse.lines().filter_map(|l| l.strip_prefix("data: ")) {
            reading.on_data(data);
        }
        Box::new(reading).finish(200, None, true, ReadEnd::Eof, sse.len())
    }

    #[test]
    fn every_door_reads_the_witness_stream_of_its_wire_as_completed() {
        let chat = read::<ChatStream>(&chat::answer::chunks(1, "m", "seen", true));
        let messages = read::<MessagesStream>(&anthropic::answer::events(1, "m", "seen"));
        let sse: String = responses::answer::events(1, "m", "seen")
            .into_iter()
            .map(|(_, data)| format!("data: {data}\n\n"))
            .collect();
        let responses = read::<ResponsesStream>(&sse);
        for (door, evidence) in [
            ("chat", chat),
            ("messages", messages),
            ("responses", responses),
        ] {
            assert_eq!(
                evidence.classification,
                StreamClass::Completed,
                "{door}: {:?}",
                evidence.problems
            );
            assert!(evidence.done, "{door}");
        }
    }

    #[test]
    fn a_stream_cut_before_its_end_names_the_doors_end_event() {
        let chat = chat::answer::chunks(1, "m", "seen", false);
        let cut = chat.rsplit_once("data: [DONE]").unwrap().0;
        let evidence = read::<ChatStream>(cut);
        assert_eq!(evidence.classification, StreamClass::Broken);
        assert_eq!(
            evidence.problems,
            ["the stream ended after 3 chunks without data: [DONE]"]
        );
    }
}
