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

fn well_formed() -> Vec<Value> {
    vec![
        json!({"type": "message_start", "message": {"type": "message", "content": []}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}),
        json!({"type": "message_stop"}),
    ]
}

#[test]
fn message_start_to_message_stop_completes() {
    let e = stream(&well_formed(), ReadEnd::AfterTerminal);
    assert_eq!(e.classification, StreamClass::Completed, "{:?}", e.problems);
    assert_eq!(e.finish_reason.as_deref(), Some("end_turn"));
    assert!(e.summary().contains("message_stop"), "{}", e.summary());
}

#[test]
fn a_stream_cut_before_message_stop_or_out_of_order_is_broken() {
    let mut cut = well_formed();
    cut.pop();
    let e = stream(&cut, ReadEnd::Eof);
    assert_eq!(e.classification, StreamClass::Broken);
    assert!(
        e.problems[0].contains("without message_stop"),
        "{:?}",
        e.problems
    );
    let headless = stream(&well_formed()[2..], ReadEnd::AfterTerminal);
    assert_eq!(headless.classification, StreamClass::Broken);
    assert!(headless.problems[0].contains("before message_start"));
    let mut orphan = well_formed();
    orphan.remove(2);
    let e = stream(&orphan, ReadEnd::AfterTerminal);
    assert!(
        e.problems.iter().any(|p| p.contains("names no open block")),
        "{:?}",
        e.problems
    );
    let stalled = stream(&well_formed()[..3], ReadEnd::Deadline);
    assert_eq!(stalled.classification, StreamClass::Unfinished);
}

#[test]
fn an_error_event_is_a_run_error() {
    let e = stream(
        &[
            well_formed()[0].clone(),
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(e.classification, StreamClass::RunError, "{:?}", e.problems);
    assert_eq!(
        e.error.unwrap().error_type.as_deref(),
        Some("overloaded_error")
    );
}

#[test]
fn bodies_are_messages_or_error_envelopes() {
    let message = json!({"id": "m", "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn"});
    let body = |status, v: &Value, stream| {
        classify_body(
            status,
            Some("application/json".into()),
            stream,
            v.to_string().as_bytes(),
            ReadEnd::Eof,
        )
    };
    let e = body(200, &message, false);
    assert_eq!(e.classification, StreamClass::Completed);
    assert_eq!(e.summary(), "completed: message, stop_reason end_turn");
    let chat = json!({"object": "chat.completion", "choices": []});
    assert_eq!(body(200, &chat, false).classification, StreamClass::Broken);
    assert_eq!(
        body(200, &message, true).classification,
        StreamClass::Broken
    );
    let refusal =
        json!({"type": "error", "error": {"type": "invalid_request_error", "message": "no"}});
    let e = body(400, &refusal, false);
    assert_eq!(e.classification, StreamClass::Rejected);
    assert_eq!(
        e.error.unwrap().error_type.as_deref(),
        Some("invalid_request_error")
    );
    assert_eq!(
        body(500, &refusal, false).classification,
        StreamClass::Crashed
    );
}
