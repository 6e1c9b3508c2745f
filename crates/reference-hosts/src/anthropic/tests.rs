//! The server over loopback: what it accepts and refuses (one verdict string per
//! request: `"200 saw: text, image image/png 123 B"`, `"400 invalid_request_error"`),
//! its stream, its faults, and forwarding to an upstream.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::{AnthropicConfig, AnthropicFault, MULTIMODAL_MODEL, TEXT_MODEL, base_url, spawn};
use crate::mock_upstream::{MockUpstream, REPLY};
use crate::test_support::{client, loopback};

fn b64(mime: &str) -> String {
    STANDARD.encode(mmconform_media::generate(mime, "an1"))
}

fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

fn image(media_type: &str, data: &str) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}})
}

fn pdf() -> Value {
    json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf",
        "data": b64("application/pdf")}})
}

fn ask(model: &str, content: Value) -> Value {
    json!({"model": model, "max_tokens": 64, "messages": [{"role": "user", "content": content}]})
}

/// `"<status> <error type or the answer's text>"`.
async fn verdict(config: AnthropicConfig, body: Value) -> String {
    let server = spawn(config, loopback()).await.unwrap();
    let response = client()
        .post(format!("{}/messages", base_url(&server)))
        .header("anthropic-version", "2023-06-01")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let answer: Value = response.json().await.unwrap();
    let what = match answer["type"].as_str() {
        Some("message") => answer["content"][0]["text"].as_str().unwrap().to_string(),
        Some("error") => answer["error"]["type"].as_str().unwrap().to_string(),
        _ => answer.to_string(),
    };
    format!("{status} {what}")
}

async fn faithful(body: Value) -> String {
    verdict(AnthropicConfig::default(), body).await
}

#[tokio::test]
async fn every_image_type_a_pdf_a_text_document_and_urls_are_taken() {
    for mime in super::IMAGE_MIMES {
        let got = faithful(ask(
            MULTIMODAL_MODEL,
            json!([text("hi"), image(mime, &b64(mime))]),
        ))
        .await;
        assert!(
            got.starts_with(&format!("200 saw: text, image {mime} ")),
            "{got}"
        );
    }
    let docs = json!([pdf(),
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "plain"}},
        {"type": "image", "source": {"type": "url", "url": "https://x.test/cat.png"}}]);
    let got = faithful(ask(MULTIMODAL_MODEL, docs)).await;
    assert!(
        got.starts_with("200 saw: document application/pdf"),
        "{got}"
    );
    assert!(got.ends_with("document text/plain 5 B, image url"), "{got}");
    assert_eq!(
        faithful(ask(TEXT_MODEL, json!("plain string"))).await,
        "200 saw: text"
    );
}

#[tokio::test]
async fn malformations_and_capabilities_are_refused_400_in_the_envelope() {
    let png = b64("image/png");
    for content in [
        json!([image("image/jpeg", &png)]),
        json!([image("image/bmp", &png)]),
        json!([]),
        json!([{"type": "hologram", "data": "x"}]),
        json!([image("image/png", "not base64 !!!")]),
        json!([text("")]),
    ] {
        let got = faithful(ask(MULTIMODAL_MODEL, content.clone())).await;
        assert_eq!(got, "400 invalid_request_error", "{content}");
    }
    // `system` is a string or text blocks: no media there.
    let mut in_system = ask(MULTIMODAL_MODEL, json!("hi"));
    in_system["system"] = json!([text("be brief"), image("image/png", &png)]);
    assert_eq!(faithful(in_system).await, "400 invalid_request_error");
    let mut plain_system = ask(MULTIMODAL_MODEL, json!("hi"));
    plain_system["system"] = json!([text("be brief")]);
    assert_eq!(faithful(plain_system).await, "200 saw: text");
    assert_eq!(
        faithful(ask(TEXT_MODEL, json!([image("image/png", &png)]))).await,
        "400 invalid_request_error"
    );
    assert_eq!(
        faithful(ask(TEXT_MODEL, json!([pdf()]))).await,
        "400 invalid_request_error"
    );
    assert_eq!(
        faithful(ask("nope", json!("hi"))).await,
        "404 not_found_error"
    );
}

#[tokio::test]
async fn each_fault_breaks_its_own_requirement() {
    let png = b64("image/png");
    // Valid base64 of the PNG with `*` between its 16-character groups.
    let noisy: String = png
        .as_bytes()
        .chunks(16)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join("*");
    let gopher =
        json!({"type": "image", "source": {"type": "url", "url": "gopher://127.0.0.1:9/_x"}});
    for strict in [json!([image("image/png", &noisy)]), json!([gopher.clone()])] {
        let got = faithful(ask(MULTIMODAL_MODEL, strict)).await;
        assert_eq!(got, "400 invalid_request_error");
    }
    let cases: [(AnthropicFault, Value, &str); 12] = [
        (
            AnthropicFault::LaxBase64,
            json!([image("image/png", &noisy)]),
            "200 saw: image image/png",
        ),
        (
            AnthropicFault::AcceptsNonHttpUrl,
            json!([gopher]),
            "200 saw: image url",
        ),
        (
            AnthropicFault::CrashOnUnknownBlock,
            json!([{"type": "hologram"}]),
            "500 api_error",
        ),
        (
            AnthropicFault::AcceptsUnknownBlock,
            json!([text("a"), {"type": "hologram"}]),
            "200 saw: text",
        ),
        (
            AnthropicFault::AcceptsMismatchedMediaType,
            json!([image("image/jpeg", &png)]),
            "200 saw: image image/jpeg",
        ),
        (
            AnthropicFault::AcceptsMediaTypeOutsideSet,
            json!([image("image/bmp", &b64("image/bmp"))]),
            "200 saw: image image/bmp",
        ),
        (AnthropicFault::AcceptsEmptyContent, json!([]), "200 saw: "),
        (
            AnthropicFault::AcceptsInvalidBase64,
            json!([image("image/png", "!!")]),
            "200 saw: image image/png undecoded",
        ),
        (
            AnthropicFault::DropsDocuments,
            json!([text("a"), pdf()]),
            "200 saw: text",
        ),
        (
            AnthropicFault::RefusesUrlSource,
            json!([{"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}]),
            "400 invalid_request_error",
        ),
        (
            AnthropicFault::RefusesTextDocument,
            json!([{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "x"}}]),
            "400 invalid_request_error",
        ),
        (
            AnthropicFault::AcceptsPngOnly,
            json!([image("image/gif", &b64("image/gif"))]),
            "400 invalid_request_error",
        ),
    ];
    for (fault, content, expected) in cases {
        let got = verdict(
            AnthropicConfig::new(Some(fault)),
            ask(MULTIMODAL_MODEL, content),
        )
        .await;
        assert!(got.starts_with(expected), "{fault}: {got}");
    }
    let text_model = verdict(
        AnthropicConfig::new(Some(AnthropicFault::IgnoresImageOnTextModel)),
        ask(TEXT_MODEL, json!([text("a"), image("image/png", &png)])),
    )
    .await;
    assert_eq!(text_model, "200 saw: text");
    let text_model_doc = verdict(
        AnthropicConfig::new(Some(AnthropicFault::IgnoresDocumentOnTextModel)),
        ask(TEXT_MODEL, json!([text("a"), pdf()])),
    )
    .await;
    assert_eq!(text_model_doc, "200 saw: text");
    let crash = verdict(
        AnthropicConfig::new(Some(AnthropicFault::CrashOnMalformed)),
        ask(MULTIMODAL_MODEL, json!([image("image/png", "!!")])),
    )
    .await;
    assert_eq!(crash, "500 api_error");
    let open = AnthropicConfig {
        api_key: Some("k".into()),
        ..AnthropicConfig::new(Some(AnthropicFault::IgnoresAuth))
    };
    assert!(
        verdict(open, ask(MULTIMODAL_MODEL, json!("hi")))
            .await
            .starts_with("200 ")
    );
    let flat = verdict(
        AnthropicConfig::new(Some(AnthropicFault::ErrorBodyNotAnthropic)),
        ask(MULTIMODAL_MODEL, json!([])),
    )
    .await;
    assert!(flat.starts_with("400 {\"error\":"), "{flat}");
}

async fn stream_events(config: AnthropicConfig) -> Vec<String> {
    let server = spawn(config, loopback()).await.unwrap();
    let mut body = ask(MULTIMODAL_MODEL, json!("hi"));
    body["stream"] = json!(true);
    let text = client()
        .post(format!("{}/messages", base_url(&server)))
        .header("anthropic-version", "2023-06-01")
        .json(&body)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("event:"))
        .map(|e| e.trim().to_string())
        .collect()
}

#[tokio::test]
async fn a_stream_runs_message_start_to_message_stop_unless_faulted() {
    let events = stream_events(AnthropicConfig::default()).await;
    assert_eq!(
        events,
        [
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop"
        ]
    );
    let cut = stream_events(AnthropicConfig::new(Some(
        AnthropicFault::StreamWithoutMessageStop,
    )))
    .await;
    assert_eq!(cut.last().map(String::as_str), Some("message_delta"));
}

#[tokio::test]
async fn the_key_and_version_headers_are_required() {
    let config = AnthropicConfig {
        api_key: Some("sk-ant-secret".into()),
        ..AnthropicConfig::default()
    };
    let server = spawn(config, loopback()).await.unwrap();
    let url = format!("{}/models", base_url(&server));
    let status = |r: reqwest::Response| r.status().as_u16();
    let no_key = client()
        .get(&url)
        .header("anthropic-version", "2023-06-01")
        .send()
        .await
        .unwrap();
    assert_eq!(status(no_key), 401);
    let no_version = client()
        .get(&url)
        .header("x-api-key", "sk-ant-secret")
        .send()
        .await
        .unwrap();
    assert_eq!(status(no_version), 400);
    let listed: Value = client()
        .get(&url)
        .header("x-api-key", "sk-ant-secret")
        .header("anthropic-version", "2023-06-01")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["data"][1]["id"], MULTIMODAL_MODEL);
    assert!(!listed.to_string().contains("secret"));
}

#[tokio::test]
async fn forwarding_sends_the_accepted_call_on_and_never_a_refused_one() {
    let reply = json!({"type": "message", "role": "assistant",
        "content": [{"type": "text", "text": REPLY}]});
    let mock = MockUpstream::with_body(200, reply.to_string()).await;
    let config = AnthropicConfig::default().with_upstream(Some(mock.base()));
    let got = verdict(
        config.clone(),
        ask(MULTIMODAL_MODEL, json!([text("a"), pdf()])),
    )
    .await;
    assert_eq!(got, format!("200 {REPLY}"));
    let refused = verdict(config, ask(MULTIMODAL_MODEL, json!([{"type": "hologram"}]))).await;
    assert_eq!(refused, "400 invalid_request_error");
    let received = mock.received();
    assert_eq!(received.len(), 1, "{received:?}");
    assert_eq!(received[0]["model"], crate::upstream::MODEL);
    assert_eq!(received[0]["stream"], false);
    assert_eq!(received[0]["messages"][0]["content"][1]["type"], "document");
    let dropping =
        AnthropicConfig::new(Some(AnthropicFault::DropsDocuments)).with_upstream(Some(mock.base()));
    verdict(dropping, ask(MULTIMODAL_MODEL, json!([text("a"), pdf()]))).await;
    assert_eq!(
        mock.received()[1]["messages"][0]["content"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let unvalidated = AnthropicConfig::new(Some(AnthropicFault::ForwardUnvalidated))
        .with_upstream(Some(mock.base()));
    let got = verdict(
        unvalidated,
        ask(MULTIMODAL_MODEL, json!([{"type": "hologram"}])),
    )
    .await;
    assert!(got.starts_with("200 "), "{got}");
    assert_eq!(mock.received().len(), 3);
    let skipping = AnthropicConfig::new(Some(AnthropicFault::ForwardSkipsModel))
        .with_upstream(Some(mock.base()));
    let got = verdict(skipping, ask(MULTIMODAL_MODEL, json!([text("a")]))).await;
    assert_eq!(got, "200 saw: text");
    assert_eq!(mock.received().len(), 3, "the upstream was never called");
}

#[test]
fn fault_names_round_trip_and_only_forwarding_faults_need_an_upstream() {
    for fault in AnthropicFault::all() {
        assert_eq!(fault.name().parse::<AnthropicFault>(), Ok(*fault));
        assert!(fault.description().ends_with('.'), "{fault}");
        assert_eq!(fault.needs_upstream(), fault.name().starts_with("forward-"));
    }
    assert_eq!(AnthropicFault::all().len(), 20);
}
