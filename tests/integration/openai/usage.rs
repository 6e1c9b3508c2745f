//! `openai.usage.media-counted` against servers of our own on loopback: a server that
//! reports no usage leaves the case blocked (never a pass, never a failure); one whose
//! count ignores the media warns; with a witness the case does not apply.

use crate::common::run;
use axum::Router;
use axum::routing::post;
use serde_json::{Value, json};

/// A chat.completion answer; `usage` counts the request's content parts when asked.
fn completion(request: &Value, usage: Option<fn(&Value) -> u64>) -> Value {
    let mut answer = json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok", "refusal": null},
                     "logprobs": null, "finish_reason": "stop"}],
    });
    if let Some(count) = usage {
        let prompt = count(request);
        answer["usage"] =
            json!({"prompt_tokens": prompt, "completion_tokens": 1, "total_tokens": prompt + 1});
    }
    answer
}

/// Counts text parts only: the media never reached this model.
fn text_only(request: &Value) -> u64 {
    let parts = request["messages"][0]["content"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    10 + parts.iter().filter(|p| p["type"] == "text").count() as u64
}

fn serve(usage: Option<fn(&Value) -> u64>) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let app = Router::new().route(
                "/v1/chat/completions",
                post(move |axum::Json(body): axum::Json<Value>| async move {
                    axum::Json(completion(&body, usage))
                }),
            );
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    format!("http://{}/v1", rx.recv().unwrap())
}

fn against(url: &str) -> crate::common::RunResult {
    run(&[
        "--profile",
        "openai",
        "--target",
        url,
        "--model",
        "m",
        "--accepts",
        "image/png",
        "--filter",
        "openai.usage.*",
    ])
}

const CASE: &str = "openai.usage.media-counted[image,image/png]";

#[test]
fn a_server_that_reports_no_usage_is_blocked_not_judged() {
    let r = against(&serve(None));
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(r.outcome(CASE), "blocked");
    assert!(
        r.stdout.contains("reports no usage.prompt_tokens"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_count_that_ignores_the_media_warns_and_the_two_calls_are_recorded() {
    let r = against(&serve(Some(text_only)));
    assert_eq!(r.outcome(CASE), "warn", "{}", r.context());
    let case = r.cases().into_iter().find(|c| c["id"] == CASE).unwrap();
    assert_eq!(case["exchanges"].as_array().unwrap().len(), 2);
    assert!(
        r.stdout.contains("got 11 with the media, 11 without"),
        "{}",
        r.stdout
    );
}

#[test]
fn with_a_witness_the_model_calls_decide_instead() {
    let r = run(&[
        "--profile",
        "openai",
        "--target",
        "reference",
        "--witness",
        "127.0.0.1:0",
        "--witness-wait",
        "1",
        "--filter",
        "openai.usage.*",
    ]);
    assert_eq!(r.outcome(CASE), "skip", "{}", r.context());
}
