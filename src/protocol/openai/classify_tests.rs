//! Tests for the OpenAI answer classifier: JSON completions, chunk streams, errors.

use super::*;
use crate::protocol::sse_read::EventSink;
use serde_json::json;

fn chunk(content: &str, finish: Option<&str>) -> String {
    json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
        "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": finish}]})
    .to_string()
}

fn stream(events: &[String], end: ReadEnd) -> CompletionEvidence {
    let mut c = ChunkClassifier::default();
    for e in events {
        c.on_data(e);
    }
    c.finish(200, Some("text/event-stream".into()), true, end, 10)
}

fn completion() -> Value {
    json!({"id": "x", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]})
}

fn body(status: u16, value: &Value, stream_requested: bool) -> CompletionEvidence {
    let bytes = value.to_string().into_bytes();
    classify_body(
        status,
        Some("application/json".into()),
        stream_requested,
        &bytes,
        ReadEnd::Eof,
    )
}

#[test]
fn a_chunk_stream_completes_with_a_finish_reason_and_done() {
    let done = stream(
        &[chunk("a", None), chunk("", Some("stop")), "[DONE]".into()],
        ReadEnd::Eof,
    );
    assert_eq!(done.classification, StreamClass::Completed);
    assert_eq!(
        done.summary(),
        "completed: 2 chunks, finish_reason stop, [DONE]"
    );
    let no_done = stream(&[chunk("", Some("stop"))], ReadEnd::Eof);
    assert_eq!(no_done.classification, StreamClass::Broken);
    assert_eq!(
        no_done.summary(),
        "broken: the stream ended after 1 chunks without data: [DONE]"
    );
    let no_finish = stream(&[chunk("a", None), "[DONE]".into()], ReadEnd::Eof);
    assert_eq!(no_finish.problems, ["no chunk carried a finish_reason"]);
    let stalled = stream(&[chunk("a", None)], ReadEnd::Deadline);
    assert_eq!(stalled.classification, StreamClass::Unfinished);
}

#[test]
fn bad_chunks_and_events_after_done_break_the_stream() {
    let garbage = stream(
        &["{not json".into(), chunk("", Some("stop")), "[DONE]".into()],
        ReadEnd::Eof,
    );
    assert_eq!(garbage.classification, StreamClass::Broken);
    assert!(
        garbage.problems[0].starts_with("chunk 1 is not JSON"),
        "{:?}",
        garbage.problems
    );
    let wrong = stream(
        &[
            json!({"object": "chat.completion", "choices": []}).to_string(),
            "[DONE]".into(),
        ],
        ReadEnd::Eof,
    );
    assert!(wrong.problems[0].contains("chat.completion.chunk"));
    let after = stream(
        &[
            chunk("", Some("stop")),
            "[DONE]".into(),
            chunk("late", None),
        ],
        ReadEnd::AfterTerminal,
    );
    assert_eq!(after.problems, ["1 events after data: [DONE]"]);
}

#[test]
fn an_error_event_in_a_stream_is_a_run_error() {
    let failed = stream(
        &[
            json!({"error": {"message": "image not supported", "type": "invalid_request_error"}})
                .to_string(),
            "[DONE]".into(),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(failed.classification, StreamClass::RunError);
    assert_eq!(
        failed.summary(),
        "run-error: error event after 1 chunks invalid_request_error \"image not supported\""
    );
}

#[test]
fn json_answers() {
    let ok = body(200, &completion(), false);
    assert_eq!(ok.classification, StreamClass::Completed);
    assert_eq!(
        ok.summary(),
        "completed: chat.completion, finish_reason stop"
    );
    let mut no_choices = completion();
    no_choices["choices"] = json!([]);
    assert_eq!(
        body(200, &no_choices, false).summary(),
        "broken: no `choices`"
    );
    let asked_stream = body(200, &completion(), true);
    assert_eq!(asked_stream.classification, StreamClass::Broken);
    assert!(asked_stream.problems[0].contains("not an event stream"));
    let refusal = json!({"error": {"message": "This model does not support images", "type": "invalid_request_error", "param": "messages[0].content[1]", "code": "image_content_not_supported"}});
    let rejected = body(400, &refusal, false);
    assert_eq!(rejected.classification, StreamClass::Rejected);
    assert_eq!(
        rejected.summary(),
        "rejected: HTTP 400 image_content_not_supported \"This model does not support images\""
    );
    assert_eq!(body(500, &json!({}), false).summary(), "crashed: HTTP 500");
    let not_json = classify_body(200, None, false, b"<html>", ReadEnd::Eof);
    assert_eq!(not_json.summary(), "broken: the 2xx body is not JSON");
    let redirect = classify_body(302, None, false, b"", ReadEnd::Eof);
    assert_eq!(redirect.classification, StreamClass::Broken);
}
