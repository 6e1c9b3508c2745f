use super::*;
use crate::protocol::door::wire::StreamClassifier;
use crate::protocol::sse_read::EventSink;
use serde_json::json;

fn stream(events: &[Value], end: ReadEnd) -> CompletionEvidence {
    let mut c = EventClassifier::default();
    for e in events {
        c.on_data(&e.to_string());
    }
    Box::new(c).finish(200, Some("text/event-stream".into()), true, end, 10)
}

fn ev(kind: &str, seq: u64) -> Value {
    json!({"type": kind, "sequence_number": seq})
}

fn completed(seq: u64, status: &str) -> Value {
    json!({"type": "response.completed", "sequence_number": seq,
           "response": {"object": "response", "status": status, "output": []}})
}

#[test]
fn a_stream_ending_in_response_completed_completes() {
    let e = stream(
        &[
            ev("response.created", 0),
            ev("response.output_text.delta", 1),
            completed(2, "completed"),
        ],
        ReadEnd::AfterTerminal,
    );
    assert_eq!(e.classification, StreamClass::Completed, "{:?}", e.problems);
    assert_eq!(e.chunks, 3);
    assert!(
        e.summary().contains("response.completed"),
        "{}",
        e.summary()
    );
}

#[test]
fn streams_without_completed_or_out_of_order_or_foreign_events_are_broken() {
    let cut = stream(&[ev("response.created", 0)], ReadEnd::Eof);
    assert_eq!(cut.classification, StreamClass::Broken);
    assert!(cut.problems[0].contains("without response.completed"));
    let backwards = stream(
        &[
            ev("response.created", 3),
            ev("response.in_progress", 2),
            completed(4, "completed"),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(backwards.classification, StreamClass::Broken);
    let chat = stream(&[json!({"object": "chat.completion.chunk"})], ReadEnd::Eof);
    assert_eq!(chat.classification, StreamClass::Broken);
    let after = stream(
        &[completed(0, "completed"), ev("response.created", 1)],
        ReadEnd::AfterTerminal,
    );
    assert!(after.problems[0].contains("after response.completed"));
    let unfinished = stream(&[ev("response.created", 0)], ReadEnd::Deadline);
    assert_eq!(unfinished.classification, StreamClass::Unfinished);
    let wrong_status = stream(&[completed(0, "incomplete")], ReadEnd::Eof);
    assert_eq!(wrong_status.classification, StreamClass::Broken);
}

#[test]
fn error_events_are_run_errors() {
    let e = stream(
        &[
            ev("response.created", 0),
            json!({"type": "error", "code": "server_error", "message": "boom"}),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(e.classification, StreamClass::RunError);
    assert_eq!(e.error.unwrap().message.as_deref(), Some("boom"));
}

#[test]
fn bodies_are_response_objects() {
    let body = |v: Value| classify_body(200, None, false, v.to_string().as_bytes(), ReadEnd::Eof);
    let ok = body(json!({"object": "response", "status": "completed", "output": []}));
    assert_eq!(ok.classification, StreamClass::Completed);
    assert_eq!(ok.finish_reason.as_deref(), Some("completed"));
    let chat = body(json!({"object": "chat.completion", "choices": [
        {"index": 0, "message": {}, "finish_reason": "stop"}]}));
    assert_eq!(chat.classification, StreamClass::Broken);
    let failed = body(json!({"object": "response", "status": "failed", "output": []}));
    assert_eq!(failed.classification, StreamClass::RunError);
    let rejected = classify_body(400, None, false, b"{}", ReadEnd::Eof);
    assert_eq!(rejected.classification, StreamClass::Rejected);
    let not_a_stream = classify_body(200, None, true, b"{}", ReadEnd::Eof);
    assert_eq!(not_a_stream.classification, StreamClass::Broken);
}

#[test]
fn a_chat_style_done_after_response_completed_is_tolerated_and_nothing_else_is() {
    let feed = |last: &str| {
        let mut c = EventClassifier::default();
        c.on_data(&ev("response.created", 0).to_string());
        c.on_data(&completed(1, "completed").to_string());
        c.on_data(last);
        Box::new(c).finish(
            200,
            Some("text/event-stream".into()),
            true,
            ReadEnd::Eof,
            10,
        )
    };
    let done = feed("[DONE]");
    assert_eq!(
        done.classification,
        StreamClass::Completed,
        "{:?}",
        done.problems
    );
    let other = feed(r#"{"type": "response.created"}"#);
    assert_eq!(other.classification, StreamClass::Broken);
    assert!(other.problems[0].contains("after response.completed"));
}
