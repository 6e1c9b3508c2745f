//! The Chat Completions door's answers (docs/wire.md, "OpenAI-compatible"), bucketed as
//! every door's are (`door::classify`): a 2xx `chat.completion` (asked without
//! `stream`), or a 2xx chunk stream (asked with `stream: true`) whose every event is a
//! `chat.completion.chunk`, one of which carries a `finish_reason`, ending with
//! `data: [DONE]` and nothing after; an `{error: ...}` chunk is the run's error.

pub use crate::protocol::door::classify::{CompletionEvidence, StreamClass};
use crate::protocol::door::classify::{ErrorSummary, classify_door_body};
use crate::protocol::door::stream_reading::{Reading, StreamDoor, StreamReading};
use crate::protocol::sse_read::ReadEnd;
use crate::wire::chat;
use serde_json::Value;

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
    #[cfg(test)]
    /// The evidence for an answer with `status`, read as an event stream or not.
    pub fn finish(
        self,
        status: u16,
        content_type: Option<String>,
        event_stream: bool,
        ended_by: ReadEnd,
        bytes: usize,
    ) -> CompletionEvidence {
        crate::protocol::door::wire::StreamClassifier::finish(
            Box::new(self),
            status,
            content_type,
            event_stream,
            ended_by,
            bytes,
        )
    }
}

/// Classifies a Chat answer that was not read as an event stream.
pub fn classify_body(
    status: u16,
    content_type: Option<String>,
    stream_requested: bool,
    body: &[u8],
    ended_by: ReadEnd,
) -> CompletionEvidence {
    classify_door_body(
        status,
        content_type,
        stream_requested,
        body,
        ended_by,
        read_completion,
    )
}

/// A 2xx `chat.completion`: its first finish reason, completed; or what it lacks.
fn read_completion(body: Option<&Value>) -> Result<(Option<String>, StreamClass), String> {
    match completion_problem(body) {
        Some(problem) => Err(problem),
        None => Ok((
            body.and_then(|v| v.get("choices")?.as_array().and_then(|c| finish_reason(c))),
            StreamClass::Completed,
        )),
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
