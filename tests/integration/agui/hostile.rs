//! The built binary against broken and hostile AG-UI agents on loopback: a verdict or
//! `blocked`, within the deadline, never a hang or a panic.

use crate::common::{self, run};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::post;
use futures_util::StreamExt as _;
use futures_util::stream;
use std::time::{Duration, Instant};

fn sse(chunks: Vec<&'static str>, then_hang: bool) -> axum::response::Response {
    let head = stream::iter(
        chunks
            .into_iter()
            .map(|c| Ok::<_, std::io::Error>(Bytes::from(c))),
    );
    let body = if then_hang {
        Body::from_stream(head.chain(stream::pending()))
    } else {
        Body::from_stream(head)
    };
    ([(header::CONTENT_TYPE, "text/event-stream")], body).into_response()
}

/// Serves the hostile routes on 127.0.0.1:0 from a background runtime.
fn serve() -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let app = Router::new()
                .route(
                    "/stall",
                    post(|| async { sse(vec!["data: {\"type\":\"RUN_STARTED\"}\n\n"], true) }),
                )
                .route("/silent", post(|| async { sse(vec![], true) }))
                .route(
                    "/no-terminal",
                    post(|| async {
                        sse(
                            vec![
                                "data: {\"type\":\"RUN_STARTED\"}\n\n",
                                "data: {\"type\":\"TEXT_MESSAGE_START\"}\n\n",
                            ],
                            false,
                        )
                    }),
                )
                .route(
                    "/json",
                    post(|| async { axum::Json(serde_json::json!({"answer": "ok"})) }),
                )
                .route(
                    "/teapot",
                    post(|| async { (axum::http::StatusCode::IM_A_TEAPOT, "no") }),
                );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    format!("http://{}", rx.recv().unwrap())
}

fn against(url: &str) -> (common::RunResult, Duration) {
    let started = Instant::now();
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        url,
        "--accepts",
        "image/",
        "--timeout",
        "1",
        "--filter",
        "agui.string-content-completes or agui.malformed.refused.numeric-content or agui.malformed.no-crash.numeric-content",
    ]);
    (r, started.elapsed())
}

#[test]
fn a_stalled_stream_is_blocked_at_the_deadline_not_judged() {
    let base = serve();
    let (r, elapsed) = against(&format!("{base}/stall"));
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(r.outcome("agui.string-content-completes"), "blocked");
    assert!(
        r.stdout
            .contains("sent 1 event(s) and no RUN_FINISHED or RUN_ERROR before the deadline"),
        "{}",
        r.stdout
    );
    // Probe plus two cases, one deadline each, with room for a slow machine.
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
}

/// An agent that opens a stream and then says nothing costs the probe's one timeout,
/// not one per case: every case is blocked with what the probe saw.
#[test]
fn an_agent_that_opens_a_stream_and_sends_nothing_costs_one_timeout() {
    let base = serve();
    let started = Instant::now();
    let r = run(&[
        "--profile",
        "agui",
        "--target",
        &format!("{base}/silent"),
        "--accepts",
        "image/,audio/,application/pdf",
        "--timeout",
        "2",
        "-j",
        "1",
    ]);
    let elapsed = started.elapsed();
    assert_eq!(r.code, 3, "{}", r.context());
    let cases = r.cases();
    let blocked: Vec<_> = cases.iter().filter(|c| c["outcome"] == "blocked").collect();
    assert!(blocked.len() > 10, "{}", r.context());
    for case in &blocked {
        assert!(
            case["reason"]
                .as_str()
                .unwrap()
                .contains("opened an event stream, then sent no event"),
            "{case}"
        );
    }
    // One 2 s timeout (the probe), not one per case (over 10 of them, -j 1).
    assert!(elapsed < Duration::from_secs(12), "{elapsed:?}");
}

#[test]
fn broken_answers_are_verdicts() {
    let base = serve();
    let (r, _) = against(&format!("{base}/no-terminal"));
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(r.outcome("agui.string-content-completes"), "fail");
    assert!(
        r.stdout
            .contains("broken: the stream ended after 2 events without RUN_FINISHED or RUN_ERROR"),
        "{}",
        r.stdout
    );
    let (r, _) = against(&format!("{base}/json"));
    assert_eq!(r.outcome("agui.string-content-completes"), "fail");
    // An answer that is not the protocol at all is no pass of "does not crash".
    assert_eq!(r.outcome("agui.malformed.no-crash.numeric-content"), "fail");
    assert!(
        r.stdout
            .contains("is not an event stream (content-type application/json)"),
        "{}",
        r.stdout
    );
    // A 418 to malformed input is a rejection before the stream: the SHOULD holds.
    let (r, _) = against(&format!("{base}/teapot"));
    assert_eq!(r.outcome("agui.malformed.refused.numeric-content"), "pass");
    assert_eq!(r.outcome("agui.malformed.no-crash.numeric-content"), "pass");
    assert_eq!(r.outcome("agui.string-content-completes"), "fail");
}
