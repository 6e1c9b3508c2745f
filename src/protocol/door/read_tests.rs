//! Hostile servers: reading an answer is bounded (deadline, read cap, grace after
//! `[DONE]`), and what a broken server sends lands in the right bucket.

use super::*;
use crate::protocol::sse_read::ReadEnd;
use axum::Router;
use axum::body::Body;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use bytes::Bytes;
use futures_util::StreamExt as _;
use futures_util::stream;
use serde_json::json;
use std::time::{Duration, Instant};

type Chunk = Result<Bytes, std::io::Error>;

fn chunk(finish: Option<&str>) -> Chunk {
    let data = json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
        "choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": finish}]});
    Ok(Bytes::from(format!("data: {data}\n\n")))
}

fn big_chunk() -> Chunk {
    let data = json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
        "choices": [{"index": 0, "delta": {"content": "x".repeat(8192)}, "finish_reason": null}]});
    Ok(Bytes::from(format!("data: {data}\n\n")))
}

fn done() -> Chunk {
    Ok(Bytes::from_static(b"data: [DONE]\n\n"))
}

fn sse(body: impl futures_util::Stream<Item = Chunk> + Send + 'static) -> axum::response::Response {
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        Body::from_stream(body),
    )
        .into_response()
}

fn hostile() -> Router {
    Router::new()
        .route(
            "/stall/chat/completions",
            post(|| async { sse(stream::iter([chunk(None)]).chain(stream::pending())) }),
        )
        .route(
            "/endless/chat/completions",
            // Big chunks, so the cap is reached in a few polls even on a loaded machine.
            post(|| async { sse(stream::repeat_with(big_chunk)) }),
        )
        .route(
            "/open-after-done/chat/completions",
            post(|| async {
                sse(stream::iter([chunk(Some("stop")), done()]).chain(stream::pending()))
            }),
        )
        .route(
            "/sse-to-json/chat/completions",
            post(|| async { sse(stream::iter([chunk(Some("stop")), done()])) }),
        )
        .route(
            "/huge-json/chat/completions",
            post(|| async { "x".repeat(200_000) }),
        )
}

async fn call(path: &str, stream: bool) -> (CompletionEvidence, Duration) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, hostile()).await });
    let mut http = crate::http::HttpSettings::new(format!("http://{addr}{path}"));
    http.timeout = Duration::from_secs(1);
    http.max_response_bytes = 64 * 1024;
    http.env_proxy = false;
    let client = HttpClient::new(
        http,
        crate::redact::Redactor::default(),
        crate::stop::Stop::never(),
    )
    .unwrap();
    let started = Instant::now();
    let body = json!({"model": "m", "messages": [], "stream": stream});
    let answer = post_completion(
        &crate::protocol::openai::CHAT,
        &client,
        &body,
        false,
        Duration::from_millis(300),
        "t",
    )
    .await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(10), "{path} took {elapsed:?}");
    (answer.evidence.unwrap(), elapsed)
}

#[tokio::test]
async fn a_stalled_stream_is_unfinished_and_an_endless_one_stops_at_the_cap() {
    let (e, elapsed) = call("/stall", true).await;
    assert_eq!(
        (e.classification, e.ended_by),
        (StreamClass::Unfinished, ReadEnd::Deadline)
    );
    assert!(elapsed >= Duration::from_millis(900), "{elapsed:?}");
    let (e, _) = call("/endless", true).await;
    assert_eq!(
        (e.classification, e.ended_by, e.bytes),
        (StreamClass::Unfinished, ReadEnd::ReadCap, 64 * 1024)
    );
    let (e, _) = call("/huge-json", false).await;
    assert_eq!(
        (e.classification, e.ended_by),
        (StreamClass::Unfinished, ReadEnd::ReadCap)
    );
}

#[tokio::test]
async fn a_stream_left_open_after_done_completes_after_the_grace() {
    let (e, elapsed) = call("/open-after-done", true).await;
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
async fn a_stream_where_json_was_asked_for_is_broken() {
    let (e, _) = call("/sse-to-json", false).await;
    assert_eq!(e.classification, StreamClass::Broken);
    assert_eq!(
        e.problems[0],
        "an event stream answered a request without stream: true"
    );
}
