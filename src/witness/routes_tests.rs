//! The witness over loopback HTTP: what clients get back, and what is recorded.

use crate::witness::record::ProblemCode;
use crate::witness::{Limits, RunningWitness, Wire, Witness, WitnessConfig};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::time::Duration;

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_proxy().build().unwrap()
}

async fn start(limits: Limits) -> RunningWitness {
    Witness::start(WitnessConfig {
        limits,
        ..WitnessConfig::default()
    })
    .await
    .unwrap()
}

fn image_call(nonce: &str, stream: bool) -> Value {
    let png = STANDARD.encode(mmconform_media::generate("image/png", nonce));
    json!({"model": "gpt-test", "stream": stream, "messages": [{"role": "user", "content": [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}},
    ]}]})
}

async fn post(w: &RunningWitness, path: &str, body: impl Into<reqwest::Body>) -> (u16, String) {
    let base = w.base_url();
    let r = client()
        .post(format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.text().await.unwrap())
}

#[tokio::test]
async fn a_chat_completion_is_answered_with_what_was_seen_and_recorded() {
    let w = start(Limits::default()).await;
    assert!(w.base_url().starts_with("http://127.0.0.1:"));
    assert!(w.base_url().ends_with("/v1"));
    let (status, body) = post(
        &w,
        "/chat/completions",
        image_call("case1-p0", false).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    let text = answer["choices"][0]["message"]["content"].as_str().unwrap();
    assert!(
        text.contains("image/png") && text.contains("nonce case1-p0"),
        "{text}"
    );
    assert_eq!(answer["model"], "gpt-test");

    let calls = w.wait_for("case1", Duration::from_secs(5)).await;
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    assert_eq!(
        (call.seq, call.wire, call.status),
        (1, Wire::OpenaiChat, 200)
    );
    assert_eq!(call.path, "/v1/chat/completions");
    assert_eq!(call.parts.len(), 2);
    assert!(call.all_problems().next().is_none(), "{call:?}");
    assert!(w.calls_carrying("case2").is_empty());
    assert_eq!(w.calls_since(1).len(), 0);
    assert_eq!(w.received(), 1);
    w.shutdown().await;
}

#[tokio::test]
async fn streams_end_as_each_wire_ends_them() {
    let w = start(Limits::default()).await;
    let (status, body) = post(
        &w,
        "/chat/completions",
        image_call("s-p0", true).to_string(),
    )
    .await;
    assert_eq!(status, 200);
    assert!(body.trim_end().ends_with("data: [DONE]"), "{body}");
    assert!(body.contains("nonce s-p0"));
    let anthropic = json!({"model": "claude-test", "max_tokens": 10, "stream": true, "messages": [
        {"role": "user", "content": [{"type": "text", "text": "hi mmconform-nonce:a-p0"}]}]});
    let (status, body) = post(&w, "/messages", anthropic.to_string()).await;
    assert_eq!(status, 200);
    assert!(body.starts_with("event: message_start"), "{body}");
    assert!(
        body.trim_end()
            .ends_with("data: {\"type\":\"message_stop\"}"),
        "{body}"
    );
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.stream));
    assert_eq!(calls[1].wire, Wire::AnthropicMessages);
    assert!(calls[1].carries("a"));
}

#[tokio::test]
async fn the_paths_without_v1_and_the_model_list_work() {
    let w = start(Limits::default()).await;
    let root = w.base_url().trim_end_matches("/v1").to_string();
    let r = client()
        .post(format!("{root}/messages"))
        .body(json!({"messages": [{"role": "user", "content": "hi"}]}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let message: Value = r.json().await.unwrap();
    assert_eq!(message["type"], "message");
    for url in [format!("{root}/models"), format!("{}/models", w.base_url())] {
        let models: Value = client()
            .get(url)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(models["data"][0]["id"], "mmconform-witness");
    }
    let r = client()
        .get(format!("{}/models/mmconform-witness", w.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn malformed_json_is_answered_400_in_the_wire_shape_and_recorded() {
    let w = start(Limits::default()).await;
    let (status, body) = post(&w, "/chat/completions", "{\"messages\": [").await;
    assert_eq!(status, 400);
    let error: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["error"]["type"], "invalid_request_error");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not JSON")
    );
    let (status, body) = post(&w, "/messages", "[]").await;
    assert_eq!(status, 400);
    let error: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["type"], "error");
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].status, 400);
    assert!(calls[0].has_problem(ProblemCode::MalformedJson));
    assert!(calls[1].has_problem(ProblemCode::BadShape));
    assert_eq!(calls[0].body_bytes, 14);
}

#[tokio::test]
async fn an_oversized_body_is_refused_413_and_recorded() {
    let w = start(Limits {
        max_body_bytes: 1024,
        ..Limits::default()
    })
    .await;
    let (status, body) = post(&w, "/chat/completions", vec![b'x'; 100_000]).await;
    assert_eq!(status, 413, "{body}");
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 1);
    assert!(calls[0].has_problem(ProblemCode::BodyTooLarge));
    assert_eq!(calls[0].body_bytes, 100_000);
}

#[tokio::test]
async fn other_posts_are_recorded_as_unsupported_and_other_methods_are_not() {
    let w = start(Limits::default()).await;
    let (status, _) = post(&w, "/completions", "{}").await;
    assert_eq!(status, 404);
    let r = client()
        .get(format!("{}/chat/completions", w.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 405);
    let r = client()
        .get(format!("{}/nothing", w.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].wire, Wire::Unknown);
    assert!(calls[0].has_problem(ProblemCode::UnsupportedEndpoint));
}

#[tokio::test]
async fn concurrent_calls_each_get_their_own_number() {
    let w = start(Limits {
        max_concurrent: 2,
        ..Limits::default()
    })
    .await;
    let sends = (0..12).map(|i| {
        let body = image_call(&format!("c{i}-p0"), i % 2 == 0).to_string();
        let url = format!("{}/chat/completions", w.base_url());
        async move { client().post(url).body(body).send().await.unwrap().status() }
    });
    let statuses = futures_util::future::join_all(sends).await;
    assert!(statuses.iter().all(|s| s.as_u16() == 200));
    let calls = w.calls_since(0);
    let seqs: Vec<u64> = calls.iter().map(|c| c.seq).collect();
    assert_eq!(seqs, (1..=12).collect::<Vec<u64>>());
    for i in 0..12 {
        assert_eq!(w.calls_carrying(&format!("c{i}")).len(), 1, "c{i}");
    }
}

#[tokio::test]
async fn a_full_log_counts_what_it_drops_until_released() {
    let w = start(Limits {
        max_calls: 1,
        ..Limits::default()
    })
    .await;
    for nonce in ["a-p0", "b-p0"] {
        post(
            &w,
            "/chat/completions",
            image_call(nonce, false).to_string(),
        )
        .await;
    }
    assert_eq!((w.received(), w.dropped()), (2, 1));
    assert!(w.calls_carrying("b").is_empty());
    w.forget_through(1);
    post(
        &w,
        "/chat/completions",
        image_call("c-p0", false).to_string(),
    )
    .await;
    let seqs: Vec<u64> = w.calls_since(0).iter().map(|c| c.seq).collect();
    assert_eq!(seqs, [3]);
}

#[tokio::test]
async fn a_non_loopback_address_needs_the_flag() {
    let refused = Witness::start(WitnessConfig {
        listen: "0.0.0.0:0".parse().unwrap(),
        ..WitnessConfig::default()
    })
    .await;
    assert!(refused.err().unwrap().contains("not a loopback address"));
}

#[tokio::test]
async fn a_body_that_never_finishes_is_answered_408_and_recorded() {
    let w = start(Limits {
        body_timeout: Duration::from_millis(200),
        ..Limits::default()
    })
    .await;
    // Headers promise 1000 bytes; 10 arrive, then nothing.
    let addr = w.addr();
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    socket
        .write_all(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"messages")
        .await
        .unwrap();
    let mut answer = vec![0u8; 512];
    let n = tokio::time::timeout(Duration::from_secs(10), socket.read(&mut answer))
        .await
        .expect("answered within the timeout")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let calls = w.calls_since(0);
    assert_eq!(calls.len(), 1);
    assert!(calls[0].has_problem(ProblemCode::BodyUnreadable));
    // Waiting with no deadline at all is allowed, and still returns on arrival.
    let found = w.wait_for_calls(0, Duration::MAX).await;
    assert_eq!(found.len(), 1);
}
