//! The reader against hostile and broken agents on loopback: every answer ends within
//! the deadline and the read cap, and is classified, never a hang.

use super::*;
use crate::protocol::agui::StreamClass;
use axum::Router;
use axum::body::Body;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use futures_util::StreamExt as _;
use futures_util::stream;
use std::time::Instant as StdInstant;

type Chunk = Result<Bytes, std::io::Error>;

fn frame(event_type: &str) -> Chunk {
    Ok(Bytes::from(format!(
        "data: {{\"type\":\"{event_type}\"}}\n\n"
    )))
}

fn sse(body: impl futures_util::Stream<Item = Chunk> + Send + 'static) -> axum::response::Response {
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        Body::from_stream(body),
    )
        .into_response()
}

fn later(ms: u64, chunk: Chunk) -> impl futures_util::Stream<Item = Chunk> {
    stream::once(async move {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        chunk
    })
}

/// A misbehaving agent, one route per behaviour.
fn hostile() -> Router {
    Router::new()
        .route(
            "/stall",
            post(|| async { sse(stream::iter([frame("RUN_STARTED")]).chain(stream::pending())) }),
        )
        .route(
            "/endless",
            post(|| async { sse(stream::repeat_with(|| frame("TEXT_MESSAGE_CONTENT"))) }),
        )
        .route(
            "/open-after-finish",
            post(|| async {
                sse(stream::iter([frame("RUN_STARTED"), frame("RUN_FINISHED")])
                    .chain(stream::pending()))
            }),
        )
        .route(
            "/late-event",
            post(|| async {
                sse(stream::iter([frame("RUN_STARTED"), frame("RUN_FINISHED")])
                    .chain(later(100, frame("TEXT_MESSAGE_CONTENT")))
                    .chain(stream::pending()))
            }),
        )
        .route(
            "/cut-mid-frame",
            post(|| async {
                sse(stream::iter([
                    frame("RUN_STARTED"),
                    Ok(Bytes::from_static(b"data: {\"type\":\"RUN_FI")),
                ]))
            }),
        )
        .route(
            "/reset",
            post(|| async {
                sse(stream::iter([frame("RUN_STARTED")])
                    .chain(later(100, Err(std::io::Error::other("boom")))))
            }),
        )
        .route(
            "/json",
            post(|| async { axum::Json(serde_json::json!({"ok": true})) }),
        )
        .route("/silent", post(|| async { sse(stream::pending()) }))
}

async fn read(path: &str) -> (StreamEvidence, Duration) {
    read_within(path, Duration::from_millis(300)).await
}

/// `read` with a stream deadline of `deadline`.
async fn read_within(path: &str, deadline: Duration) -> (StreamEvidence, Duration) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, hostile()).await });
    let mut http = crate::http::HttpSettings::new(format!("http://{addr}{path}"));
    http.timeout = deadline.max(Duration::from_secs(1));
    http.max_response_bytes = 64 * 1024;
    http.env_proxy = false;
    let client = HttpClient::new(
        http,
        crate::redact::Redactor::default(),
        crate::stop::Stop::never(),
    )
    .unwrap();
    let started = StdInstant::now();
    let answer = post_run(&client, &serde_json::json!({}), false, deadline, "test").await;
    let elapsed = started.elapsed();
    // Generous: a hang would take forever, a bounded read takes about the deadline.
    assert!(elapsed < Duration::from_secs(10), "{path} took {elapsed:?}");
    (answer.evidence.unwrap(), elapsed)
}

#[tokio::test]
async fn a_stalled_stream_is_unfinished_at_the_deadline() {
    let (e, elapsed) = read("/stall").await;
    assert_eq!(
        (e.classification, e.ended_by),
        (StreamClass::Unfinished, ReadEnd::Deadline)
    );
    assert!(elapsed >= Duration::from_millis(900), "{elapsed:?}");
    let (e, _) = read("/silent").await;
    assert_eq!(e.classification, StreamClass::Unfinished);
}

#[tokio::test]
async fn an_endless_stream_stops_at_the_read_cap() {
    // The cap, not the deadline, must end it: a deadline that a loaded machine cannot
    // reach the cap within (64 KiB of small events in a debug build) would test the load.
    let (e, _) = read_within("/endless", Duration::from_secs(8)).await;
    assert_eq!((e.ended_by, e.bytes), (ReadEnd::ReadCap, 64 * 1024));
    // Its first event is not RUN_STARTED: a definite violation, so a verdict.
    assert_eq!(e.classification, StreamClass::Broken);
    assert!(
        e.events_total > 1000 && e.events.len() == crate::protocol::agui::classify::MAX_EVENTS_KEPT
    );
}

#[tokio::test]
async fn a_stream_left_open_after_its_terminal_event_completes_after_the_grace() {
    let (e, elapsed) = read("/open-after-finish").await;
    assert_eq!(
        (e.classification, e.ended_by),
        (StreamClass::Completed, ReadEnd::AfterTerminal)
    );
    assert!(
        elapsed < Duration::from_millis(900),
        "the grace, not the deadline: {elapsed:?}"
    );
}

#[tokio::test]
async fn an_event_after_the_terminal_one_breaks_the_stream() {
    let (e, _) = read("/late-event").await;
    assert_eq!(e.classification, StreamClass::Broken);
    assert_eq!(
        e.problems,
        ["TEXT_MESSAGE_CONTENT after the terminal RUN_FINISHED"]
    );
}

#[tokio::test]
async fn framing_and_transport_failures() {
    let (cut, _) = read("/cut-mid-frame").await;
    assert_eq!(cut.classification, StreamClass::Broken);
    assert!(
        cut.problems[0].contains("ended inside an event"),
        "{:?}",
        cut.problems
    );
    let (reset, _) = read("/reset").await;
    assert_eq!(
        (reset.classification, reset.ended_by),
        (StreamClass::Unfinished, ReadEnd::Transport)
    );
    let (json, _) = read("/json").await;
    assert_eq!(json.classification, StreamClass::Broken);
    assert!(!json.event_stream);
}
