//! Tests for the classifier: buckets, ordering rules, framing, echo capture.

use super::*;
use serde_json::json;

fn feed(events: &[Value]) -> Classifier {
    let mut c = Classifier::default();
    for e in events {
        c.on_data(&e.to_string());
    }
    c
}

fn class(events: &[Value], end: ReadEnd) -> StreamEvidence {
    feed(events).finish(200, Some("text/event-stream".into()), true, end, 10)
}

fn ev(t: &str) -> Value {
    json!({"type": t})
}

#[test]
fn terminal_events_decide_completed_and_run_error() {
    let done = class(
        &[
            ev("RUN_STARTED"),
            ev("TEXT_MESSAGE_START"),
            ev("RUN_FINISHED"),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(done.classification, StreamClass::Completed);
    assert_eq!(done.summary(), "completed: RUN_FINISHED after 3 events");
    let failed = class(
        &[
            ev("RUN_STARTED"),
            json!({"type": "RUN_ERROR", "message": "no video", "code": "unsupported"}),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(failed.classification, StreamClass::RunError);
    assert_eq!(failed.summary(), "run-error: unsupported \"no video\"");
    // A run that fails before it starts: the official verifier allows RUN_ERROR first.
    let early = class(&[json!({"type": "RUN_ERROR", "message": ""})], ReadEnd::Eof);
    assert_eq!(early.classification, StreamClass::RunError);
    assert!(early.problems.is_empty());
}

#[test]
fn ordering_violations_break_the_stream() {
    let first = class(
        &[ev("TEXT_MESSAGE_START"), ev("RUN_FINISHED")],
        ReadEnd::Eof,
    );
    assert_eq!(first.classification, StreamClass::Broken);
    assert_eq!(
        first.problems,
        ["first event is TEXT_MESSAGE_START, not RUN_STARTED"]
    );
    let after = class(
        &[
            ev("RUN_STARTED"),
            ev("RUN_FINISHED"),
            ev("TEXT_MESSAGE_START"),
            ev("RUN_FINISHED"),
        ],
        ReadEnd::Eof,
    );
    assert_eq!(after.classification, StreamClass::Broken);
    assert_eq!(
        after.problems,
        ["TEXT_MESSAGE_START after the terminal RUN_FINISHED (2 events after it in all)"]
    );
    assert_eq!(after.terminal.unwrap().event_type, "RUN_FINISHED");
    let twice = class(
        &[ev("RUN_STARTED"), ev("RUN_STARTED"), ev("RUN_FINISHED")],
        ReadEnd::Eof,
    );
    assert_eq!(twice.classification, StreamClass::Broken);
    let no_start = class(&[ev("RUN_FINISHED")], ReadEnd::Eof);
    assert_eq!(
        no_start.problems,
        ["first event is RUN_FINISHED, not RUN_STARTED"]
    );
}

#[test]
fn a_missing_terminal_is_broken_at_eof_and_unfinished_at_our_limits() {
    let eof = class(&[ev("RUN_STARTED")], ReadEnd::Eof);
    assert_eq!(eof.classification, StreamClass::Broken);
    assert!(
        eof.summary().contains("without RUN_FINISHED or RUN_ERROR"),
        "{}",
        eof.summary()
    );
    for end in [ReadEnd::Deadline, ReadEnd::ReadCap, ReadEnd::Transport] {
        assert_eq!(
            class(&[ev("RUN_STARTED")], end).classification,
            StreamClass::Unfinished
        );
    }
    // A definite violation seen before our limit is still a verdict.
    let seen = class(&[ev("STATE_SNAPSHOT")], ReadEnd::Deadline);
    assert_eq!(seen.classification, StreamClass::Broken);
    assert_eq!(
        class(&[], ReadEnd::Eof).problems,
        ["the stream ended without any event"]
    );
}

#[test]
fn framing_errors_and_statuses() {
    let mut c = Classifier::default();
    c.on_data("{not json");
    c.on_data(r#"{"kind": "RUN_STARTED"}"#);
    let e = c.finish(200, None, true, ReadEnd::Eof, 3);
    assert_eq!(e.classification, StreamClass::Broken);
    assert_eq!(e.problems.len(), 2, "{:?}", e.problems);
    let json =
        Classifier::default().finish(200, Some("application/json".into()), false, ReadEnd::Eof, 2);
    assert_eq!(
        json.summary(),
        "broken: HTTP 200 answer is not an event stream (content-type application/json)"
    );
    assert_eq!(
        Classifier::default()
            .finish(422, None, false, ReadEnd::Eof, 0)
            .summary(),
        "rejected: HTTP 422"
    );
    assert_eq!(
        Classifier::default()
            .finish(503, None, false, ReadEnd::Eof, 0)
            .classification,
        StreamClass::Crashed
    );
    assert_eq!(
        Classifier::default()
            .finish(302, None, false, ReadEnd::Eof, 0)
            .classification,
        StreamClass::Broken
    );
}

#[test]
fn the_first_echo_event_is_kept() {
    let c = feed(&[
        ev("RUN_STARTED"),
        json!({"type": "CUSTOM", "name": "other", "value": 1}),
        json!({"type": "CUSTOM", "name": "mmconform.echo", "value": {"parts": []}}),
        json!({"type": "CUSTOM", "name": "mmconform.echo", "value": {"parts": [1]}}),
        ev("RUN_FINISHED"),
    ]);
    let e = c.finish(200, None, true, ReadEnd::Eof, 1);
    assert_eq!(e.echo, Some(json!({"parts": []})));
    assert_eq!(e.events_total, 5);
}

#[test]
fn a_hundred_thousand_bad_events_make_twenty_problems_and_a_count() {
    let mut c = Classifier::default();
    for _ in 0..100_000 {
        c.on_data("not json");
    }
    let e = c.finish(
        200,
        Some("text/event-stream".into()),
        true,
        ReadEnd::Eof,
        10,
    );
    assert_eq!(e.classification, StreamClass::Broken);
    assert_eq!(e.problems.len(), MAX_PROBLEMS_KEPT + 1);
    assert_eq!(e.problems.last().unwrap(), "… and 99,980 more problems");
}
