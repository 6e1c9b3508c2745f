//! The server over loopback: models, completions, streams, auth, body cap, 404/405.

use serde_json::{Value, json};

use super::test_support::{
    audio, image, multi, observe, pdf, post, streamed, text, text_only, verdict,
};
use super::{MULTIMODAL_MODEL, OpenaiConfig, TEXT_MODEL, base_url, spawn};
use crate::test_support::{client, loopback};

#[tokio::test]
async fn models_are_listed_and_found() {
    let server = spawn(OpenaiConfig::default(), loopback()).await.unwrap();
    let base = base_url(&server);
    let list = client().get(format!("{base}/models")).send().await.unwrap();
    assert_eq!(list.status().as_u16(), 200);
    let list: Value = list.json().await.unwrap();
    assert_eq!(
        verdict(200, &list),
        format!("200 models {TEXT_MODEL},{MULTIMODAL_MODEL}")
    );
    let one: Value = client()
        .get(format!("{base}/models/{TEXT_MODEL}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(one["id"], TEXT_MODEL);
    assert_eq!(one["object"], "model");
    let missing = client()
        .get(format!("{base}/models/gpt-5"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 404);
    let missing: Value = missing.json().await.unwrap();
    assert_eq!(verdict(404, &missing), "404 model_not_found -");
    server.shutdown().await;
}

#[tokio::test]
async fn completions_name_what_the_model_saw() {
    let body = multi(json!([
        text("look"),
        image("image/png"),
        audio("wav"),
        pdf()
    ]));
    assert_eq!(
        observe(OpenaiConfig::default(), &body).await,
        "200 text,image,audio,file"
    );
    let server = spawn(OpenaiConfig::default(), loopback()).await.unwrap();
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
    let content = answer["choices"][0]["message"]["content"].as_str().unwrap();
    for stamp in ["stamp img", "stamp aud", "stamp doc", "\"report.pdf\""] {
        assert!(content.contains(stamp), "{stamp}: {content}");
    }
    assert!(answer["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(answer["model"], MULTIMODAL_MODEL);
    assert!(answer["created"].as_u64().unwrap() > 0);
    assert!(answer["usage"]["total_tokens"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn refusals_are_openai_envelopes_over_http() {
    let config = OpenaiConfig::default;
    let image_to_text = text_only(json!([text("a"), image("image/png")]));
    assert_eq!(
        observe(config(), &image_to_text).await,
        "400 image_content_not_supported messages[0].content[1]"
    );
    assert_eq!(
        observe(config(), &multi(json!([{"type": "hologram"}]))).await,
        "400 invalid_value messages[0].content[0].type"
    );
    let server = spawn(config(), loopback()).await.unwrap();
    let not_json = client()
        .post(format!("{}/chat/completions", base_url(&server)))
        .body("{nope")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status().as_u16(), 400);
    let body: Value = not_json.json().await.unwrap();
    assert_eq!(verdict(400, &body), "400 invalid_json -");
    server.shutdown().await;
}

#[tokio::test]
async fn streams_end_with_finish_reason_and_done() {
    let body = streamed(multi(json!([text("look"), image("image/png")])), false);
    assert_eq!(
        observe(OpenaiConfig::default(), &body).await,
        "200 stream text,image stop [DONE]"
    );
    let body = streamed(text_only(json!("hi")), true);
    assert_eq!(
        observe(OpenaiConfig::default(), &body).await,
        "200 stream text stop usage [DONE]"
    );
    // A refused streamed request is a plain JSON error, never a stream.
    let body = streamed(text_only(json!([image("image/png")])), false);
    assert_eq!(
        observe(OpenaiConfig::default(), &body).await,
        "400 image_content_not_supported messages[0].content[0]"
    );
}

#[tokio::test]
async fn the_token_is_required_on_every_route_and_never_echoed() {
    let config = OpenaiConfig {
        token: Some("s3cret".into()),
        ..OpenaiConfig::default()
    };
    let server = spawn(config, loopback()).await.unwrap();
    let base = base_url(&server);
    let hello = text_only(json!("hi"));
    assert_eq!(post(&base, &hello, Some("s3cret")).await, "200 text");
    for bearer in [None, Some("wrong")] {
        let verdict = post(&base, &hello, bearer).await;
        assert_eq!(verdict, "401 invalid_api_key -", "{bearer:?}");
    }
    let models = client().get(format!("{base}/models")).send().await.unwrap();
    assert_eq!(models.status().as_u16(), 401);
    assert_eq!(models.headers()["www-authenticate"], "Bearer");
    assert!(!models.text().await.unwrap().contains("s3cret"));
    let models = client()
        .get(format!("{base}/models"))
        .bearer_auth("s3cret")
        .send()
        .await
        .unwrap();
    assert_eq!(models.status().as_u16(), 200);
    server.shutdown().await;
}

#[tokio::test]
async fn bodies_are_capped_and_unknown_routes_are_openai_404s() {
    let config = OpenaiConfig {
        max_request_body_bytes: Some(1000),
        ..OpenaiConfig::default()
    };
    let server = spawn(config, loopback()).await.unwrap();
    let base = base_url(&server);
    let big = multi(json!([text(&"x".repeat(2000))]));
    assert_eq!(post(&base, &big, None).await, "413 request_too_large -");
    assert_eq!(post(&base, &multi(json!("small")), None).await, "200 text");
    let wrong_path = client()
        .post(format!("{base}/completions"))
        .json(&big)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_path.status().as_u16(), 404);
    let body: Value = wrong_path.json().await.unwrap();
    assert_eq!(
        body["error"]["message"],
        "Invalid URL (POST /v1/completions)"
    );
    let get = client()
        .get(format!("{base}/chat/completions"))
        .send()
        .await
        .unwrap();
    assert_eq!(get.status().as_u16(), 405);
    let body: Value = get.json().await.unwrap();
    assert_eq!(verdict(405, &body), "405 - -");
    server.shutdown().await;
}

#[tokio::test]
async fn hostile_bodies_are_refused_not_crashed() {
    let server = spawn(OpenaiConfig::default(), loopback()).await.unwrap();
    let url = format!("{}/chat/completions", base_url(&server));
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let many_parts: Vec<Value> = (0..20_000)
        .map(|_| json!({"type": "image_url", "image_url": "x"}))
        .collect();
    let bodies: Vec<Vec<u8>> = vec![
        deep.into_bytes(),
        b"\xff\xfe\x00garbage".to_vec(),
        serde_json::to_vec(&multi(Value::Array(many_parts))).unwrap(),
        serde_json::to_vec(&json!({"model": MULTIMODAL_MODEL, "messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", "A".repeat(4_000_000))}}]}]}))
        .unwrap(),
        serde_json::to_vec(&json!({"model": {"nested": [1, 2]}, "messages": null})).unwrap(),
    ];
    for body in bodies {
        let response = client().post(&url).body(body).send().await.unwrap();
        let status = response.status().as_u16();
        assert_eq!(status, 400);
        let answer: Value = response.json().await.unwrap();
        assert!(answer["error"]["message"].is_string(), "{answer}");
    }
    server.shutdown().await;
}
