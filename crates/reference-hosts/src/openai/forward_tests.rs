//! The forwarding mode over loopback, against a mock model: an accepted request
//! reaches the upstream as it came (non-streamed), the upstream's answer is relayed
//! (re-chunked for a streamed request), a refused request never leaves, a part a
//! fault let through is not forwarded, and upstream failures are relayed or 502.

use serde_json::{Value, json};

use super::test_support::{
    audio, image, image_url, multi, observe, observe_forwarded, pdf, post, streamed, text,
    text_only, upstream_parts,
};
use super::{MULTIMODAL_MODEL, OpenaiConfig, OpenaiFault, base_url, spawn};
use crate::mock_upstream::{MockUpstream, REPLY};
use crate::test_support::{client, loopback};

fn every_kind() -> Value {
    multi(json!([
        text("look"),
        {"type": "image_url", "image_url": {"url": image("image/png")["image_url"]["url"], "detail": "low"}},
        image_url("https://x.test/cat.png"),
        audio("mp3"),
        pdf(),
        {"type": "file", "file": {"file_id": super::REFERENCE_FILE_ID}},
    ]))
}

#[tokio::test]
async fn an_accepted_request_reaches_the_upstream_as_it_came() {
    let mut body = every_kind();
    body["temperature"] = json!(0);
    let mock = MockUpstream::start(200).await;
    let server = spawn(
        OpenaiConfig::default().with_upstream(Some(mock.base())),
        loopback(),
    )
    .await
    .unwrap();
    let answer: Value = client()
        .post(format!("{}/chat/completions", base_url(&server)))
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    server.shutdown().await;
    assert_eq!(
        answer["choices"][0]["message"]["content"], REPLY,
        "relayed as it is"
    );
    let received = mock.received();
    assert_eq!(received.len(), 1);
    let mut expected = body.clone();
    expected["stream"] = json!(false);
    assert_eq!(received[0], expected, "only `stream` is set");
}

#[tokio::test]
async fn a_streamed_request_goes_upstream_unstreamed_and_comes_back_rechunked() {
    let body = streamed(multi(json!([text("look"), image("image/png")])), true);
    let mock = MockUpstream::start(200).await;
    let server = spawn(
        OpenaiConfig::default().with_upstream(Some(mock.base())),
        loopback(),
    )
    .await
    .unwrap();
    let text = client()
        .post(format!("{}/chat/completions", base_url(&server)))
        .json(&body)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    server.shutdown().await;
    assert!(text.trim_end().ends_with("data: [DONE]"), "{text}");
    let content: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|c| {
            c["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(content, REPLY);
    let received = mock.received();
    assert_eq!(received[0]["stream"], false);
    assert!(received[0].get("stream_options").is_none());
    assert_eq!(received[0]["model"], MULTIMODAL_MODEL);
}

#[tokio::test]
async fn refused_requests_never_leave() {
    for body in [
        text_only(json!([text("a"), image("image/png")])),
        multi(json!([{"type": "hologram"}])),
        json!({"model": "gpt-5", "messages": [{"role": "user", "content": "hi"}]}),
    ] {
        let (verdict, received) = observe_forwarded(OpenaiConfig::default(), &body).await;
        assert!(verdict.starts_with("40"), "{verdict}");
        assert!(received.is_empty(), "{verdict}");
    }
}

#[tokio::test]
async fn parts_a_fault_lets_through_are_not_forwarded() {
    let config = OpenaiConfig::new(Some(OpenaiFault::DropsUnsupportedParts));
    let body = text_only(json!([text("a"), image("image/png"), audio("wav")]));
    let (verdict, received) = observe_forwarded(config, &body).await;
    assert!(verdict.starts_with("200 "), "{verdict}");
    assert_eq!(upstream_parts(&received), "text");
    let config = OpenaiConfig::new(Some(OpenaiFault::AcceptsUnknownPartType));
    let body = multi(json!([{"type": "hologram"}, text("a")]));
    let (_, received) = observe_forwarded(config, &body).await;
    assert_eq!(upstream_parts(&received), "text");
}

#[tokio::test]
async fn upstream_failures_are_relayed_or_502() {
    let refusal = json!({"error": {"message": "no", "type": "invalid_request_error", "param": null, "code": "image_content_not_supported"}});
    let mock = MockUpstream::with_body(400, refusal.to_string()).await;
    let config = OpenaiConfig::default().with_upstream(Some(mock.base()));
    let body = multi(json!([image("image/png")]));
    assert_eq!(
        observe(config, &body).await,
        "400 image_content_not_supported -"
    );
    let closed = url::Url::parse(&format!("http://127.0.0.1:{}/v1", mock.closed_port())).unwrap();
    let server = spawn(
        OpenaiConfig::default().with_upstream(Some(closed)),
        loopback(),
    )
    .await
    .unwrap();
    assert_eq!(
        post(&base_url(&server), &body, None).await,
        "502 upstream_unavailable -"
    );
    server.shutdown().await;
    let garbage = MockUpstream::with_body(200, "<html>".into()).await;
    let config = OpenaiConfig::default().with_upstream(Some(garbage.base()));
    assert_eq!(observe(config, &body).await, "502 upstream_unavailable -");
}

#[tokio::test]
async fn without_an_upstream_the_forwarding_faults_change_nothing() {
    for fault in OpenaiFault::all().iter().filter(|f| f.needs_upstream()) {
        let verdict = observe(OpenaiConfig::new(Some(*fault)), &every_kind()).await;
        assert_eq!(verdict, "200 text,image,image,audio,file,file", "{fault}");
    }
}

#[tokio::test]
async fn a_gateway_translating_into_responses_sends_input_items_and_answers_in_chat() {
    let answer = json!({"id": "resp_1", "object": "response", "status": "completed",
        "output": [{"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": REPLY}]}]});
    let mock = MockUpstream::with_body(200, answer.to_string()).await;
    let config = OpenaiConfig::new(Some(OpenaiFault::ForwardDropsDetail))
        .with_upstream(Some(mock.base()))
        .with_upstream_wire(crate::upstream::UpstreamWire::Responses);
    let server = spawn(config, loopback()).await.unwrap();
    let completion: Value = client()
        .post(format!("{}/chat/completions", base_url(&server)))
        .json(&every_kind())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    server.shutdown().await;
    assert_eq!(completion["object"], "chat.completion");
    assert_eq!(completion["choices"][0]["message"]["content"], REPLY);
    let received = mock.received();
    assert_eq!(received.len(), 1);
    let content = &received[0]["input"][0]["content"];
    let types: Vec<&str> = content
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "input_text",
            "input_image",
            "input_image",
            "input_audio",
            "input_file",
            "input_file"
        ]
    );
    // The forwarding fault bent the request before it was translated.
    assert!(content[1].get("detail").is_none(), "{}", content[1]);
    assert!(
        content[1]["image_url"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,")
    );
}
