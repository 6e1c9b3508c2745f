//! The forwarding mode of the reference agent (`forward.rs`) over loopback, against a
//! mock model: what reaches the model for each part kind and source, what never does,
//! the streamed reply, an upstream failure, and the wrong request each forwarding fault
//! sends.

use serde_json::{Value, json};

use super::{AgentConfig, AguiFault, known_file_id, model, spawn};
use crate::mock_upstream::{MockUpstream, REPLY, describe, part_bytes};
use crate::test_support::{client, data, loopback};

fn input(messages: Value) -> Value {
    json!({"threadId": "t", "runId": "r", "state": {}, "forwardedProps": {},
           "tools": [], "context": [], "messages": messages})
}

/// One user message with `content`.
fn say(content: Value) -> Value {
    input(json!([{"id": "m", "role": "user", "content": content}]))
}

fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

fn part(kind: &str, source: &str, value: &str, mime: Option<&str>) -> Value {
    let mut source = json!({"type": source, "value": value});
    if let Some(mime) = mime {
        source["mimeType"] = json!(mime);
    }
    json!({"type": kind, "source": source})
}

/// 16 inline bytes: PNG-signed for an image/png part, unsigned for any other type (the
/// agent refuses bytes whose signature names another type than their mimeType).
fn inline(kind: &str, mime: &str) -> Value {
    let value = if mime == "image/png" {
        data(16)
    } else {
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, [0x42; 16])
    };
    part(kind, "data", &value, Some(mime))
}

fn with(fault: Option<AguiFault>) -> AgentConfig {
    AgentConfig {
        fault,
        ..AgentConfig::default()
    }
}

/// Runs `body` against the agent (forwarding to `mock` when given): the status and the
/// stream's events.
async fn run(config: AgentConfig, mock: Option<&MockUpstream>, body: &Value) -> (u16, Vec<Value>) {
    let config = config.with_upstream(mock.map(MockUpstream::base));
    let agent = spawn(config, loopback()).await.unwrap();
    let response = client()
        .post(super::endpoint_url(&agent))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    agent.shutdown().await;
    let events = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect();
    (status, events)
}

/// `RUN_FINISHED` or `RUN_ERROR <code>`: how the run ended.
fn ending(events: &[Value]) -> String {
    let last = events.last().expect("an event");
    match last["type"].as_str() {
        Some("RUN_ERROR") => format!("RUN_ERROR {}", last["code"].as_str().unwrap_or("-")),
        other => other.unwrap_or("-").to_owned(),
    }
}

/// How the run ended, then `=>` and what the mock model received.
async fn observe(config: AgentConfig, body: &Value) -> String {
    let mock = MockUpstream::start(200).await;
    let (_, events) = run(config, Some(&mock), body).await;
    format!("{} => {}", ending(&events), describe(&mock.received()))
}

#[tokio::test]
async fn each_part_kind_and_source_reaches_the_model_in_the_openai_shape() {
    let mock = MockUpstream::start(200).await;
    let file_id = known_file_id("document").unwrap();
    let body = input(json!([
        {"id": "a", "role": "user", "content": "hello"},
        {"id": "b", "role": "assistant", "content": "not forwarded"},
        {"id": "c", "role": "user", "content": [
            text("look"),
            part("image", "data", "AAEC", Some("image/jpeg")),
            part("image", "url", "https://example.com/a.png", None),
            part("audio", "data", "AwQF", Some("audio/wav")),
            part("document", "data", "BgcI", Some("application/pdf")),
            part("document", "url", "https://example.com/a.pdf", Some("application/pdf")),
            part("document", "file", &file_id, None),
        ]},
    ]));
    let (status, events) = run(AgentConfig::default(), Some(&mock), &body).await;
    assert_eq!((status, ending(&events).as_str()), (200, "RUN_FINISHED"));
    let held = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        model::held_file("document"),
    );
    assert_eq!(
        mock.received(),
        [
            json!({"model": "mmconform-reference", "stream": false, "messages": [
                {"role": "user", "content": "hello"},
                {"role": "user", "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAEC"}},
                    {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
                    {"type": "input_audio", "input_audio": {"data": "AwQF", "format": "wav"}},
                    {"type": "file", "file": {"file_data": "data:application/pdf;base64,BgcI", "filename": "document.pdf"}},
                    {"type": "file", "file": {"file_id": "https://example.com/a.pdf", "filename": "document.pdf"}},
                    {"type": "file", "file": {"file_data": format!("data:application/pdf;base64,{held}"), "filename": "document.pdf"}},
                ]},
            ]})
        ]
    );
}

#[tokio::test]
async fn stamped_bytes_arrive_byte_for_byte_and_the_reply_is_streamed() {
    let stamped = mmconform_media::generate("image/png", "0123456789abcdef");
    let b64 = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &stamped);
    let mock = MockUpstream::start(200).await;
    let body = say(json!([
        part("image", "data", &b64, Some("image/png")),
        text("what?")
    ]));
    let (_, events) = run(AgentConfig::default(), Some(&mock), &body).await;
    assert_eq!(part_bytes(&mock.received(), 0), stamped);
    let deltas: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "TEXT_MESSAGE_CONTENT")
        .filter_map(|e| e["delta"].as_str())
        .collect();
    assert_eq!(deltas.len(), 2, "{events:?}");
    assert_eq!(deltas[1], REPLY);
    assert!(events.iter().any(|e| e["name"] == super::ECHO_EVENT_NAME));
    assert_eq!(ending(&events), "RUN_FINISHED");
}

#[tokio::test]
async fn a_failing_upstream_ends_the_run_with_upstream_unavailable() {
    let body = say(json!([text("look"), inline("image", "image/png")]));
    for mock in [
        MockUpstream::start(500).await,
        MockUpstream::with_body(200, "not json".into()).await,
    ] {
        let (status, events) = run(AgentConfig::default(), Some(&mock), &body).await;
        assert_eq!(
            (status, ending(&events).as_str()),
            (200, "RUN_ERROR upstream_unavailable")
        );
        assert!(
            events.last().unwrap()["message"]
                .as_str()
                .unwrap()
                .contains("upstream model")
        );
        assert_eq!(mock.received().len(), 1);
    }
}

#[tokio::test]
async fn refused_runs_are_never_forwarded() {
    let mock = MockUpstream::start(200).await;
    let cases = [
        (
            say(json!([text("a"), inline("video", "video/mp4")])),
            "RUN_ERROR unsupported_part_kind",
        ),
        (
            say(json!([inline("audio", "audio/mpeg")])),
            "RUN_ERROR unsupported_media_type",
        ),
        (
            say(json!([part("image", "data", "%%", Some("image/png"))])),
            "RUN_ERROR invalid_media",
        ),
        (
            say(json!([part("image", "file", "nope", None)])),
            "RUN_ERROR file_not_found",
        ),
    ];
    for (body, expected) in &cases {
        let (_, events) = run(AgentConfig::default(), Some(&mock), body).await;
        assert_eq!(ending(&events), *expected, "{body}");
    }
    let (status, _) = run(AgentConfig::default(), Some(&mock), &say(json!(42))).await;
    assert_eq!(status, 422);
    assert_eq!(describe(&mock.received()), "nothing");
}

#[tokio::test]
async fn forwarding_faults_change_nothing_without_an_upstream() {
    let bodies = [
        say(json!([
            text("look"),
            inline("image", "image/png"),
            inline("audio", "audio/wav")
        ])),
        say(json!([text("look"), inline("video", "video/mp4")])),
    ];
    for &fault in AguiFault::all().iter().filter(|f| f.needs_upstream()) {
        for body in &bodies {
            assert_eq!(
                run(with(Some(fault)), None, body).await,
                run(with(None), None, body).await,
                "{fault}"
            );
        }
    }
}

/// For each forwarding fault: a run on which the faithful and the faulted agent send
/// the model different requests, and the two observations.
fn signature(fault: AguiFault) -> (Value, &'static str, &'static str) {
    use AguiFault::*;
    let look = || say(json!([text("look"), inline("image", "image/png")]));
    let seen = "RUN_FINISHED => user: text image(image/png 16B)";
    match fault {
        ForwardSkipsModel => (look(), seen, "RUN_FINISHED => nothing"),
        ForwardDropsMedia => (look(), seen, "RUN_FINISHED => user: text"),
        ForwardDropsAudio => (
            say(json!([
                text("a"),
                inline("audio", "audio/wav"),
                inline("image", "image/png")
            ])),
            "RUN_FINISHED => user: text audio(wav 16B) image(image/png 16B)",
            "RUN_FINISHED => user: text image(image/png 16B)",
        ),
        ForwardDocumentAsImage => (
            say(json!([text("a"), inline("document", "application/pdf")])),
            "RUN_FINISHED => user: text file(application/pdf 16B document.pdf)",
            "RUN_FINISHED => user: text image(application/pdf 16B)",
        ),
        ForwardWrongMime => (
            look(),
            seen,
            "RUN_FINISHED => user: text image(application/octet-stream 16B)",
        ),
        ForwardTruncatesBytes => (
            look(),
            seen,
            "RUN_FINISHED => user: text image(image/png 15B)",
        ),
        ForwardReordersParts => (
            look(),
            seen,
            "RUN_FINISHED => user: image(image/png 16B) text",
        ),
        ForwardThenErrors => (
            say(json!([text("a"), inline("video", "video/mp4")])),
            "RUN_ERROR unsupported_part_kind => nothing",
            "RUN_ERROR unsupported_part_kind => user: text file(video/mp4 16B video.mp4)",
        ),
        other => panic!("{other} is not a forwarding fault"),
    }
}

async fn check(fault: AguiFault) {
    let (body, faithful, faulted) = signature(fault);
    assert_ne!(
        faithful, faulted,
        "{fault}: a signature must tell the agents apart"
    );
    assert_eq!(
        observe(with(None), &body).await,
        faithful,
        "{fault}: faithful agent"
    );
    assert_eq!(
        observe(with(Some(fault)), &body).await,
        faulted,
        "{fault}: faulted agent"
    );
}

macro_rules! forward_fault_tests {
    ($($test:ident => $fault:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $test() {
                check(AguiFault::$fault).await;
            }
        )*

        #[test]
        fn every_forwarding_fault_has_a_test() {
            let tested = [$(AguiFault::$fault),*];
            for fault in AguiFault::all().iter().filter(|f| f.needs_upstream()) {
                assert!(tested.contains(fault), "no test for {fault}");
            }
        }
    };
}

forward_fault_tests! {
    forward_skips_model => ForwardSkipsModel,
    forward_drops_media => ForwardDropsMedia,
    forward_drops_audio => ForwardDropsAudio,
    forward_document_as_image => ForwardDocumentAsImage,
    forward_wrong_mime => ForwardWrongMime,
    forward_truncates_bytes => ForwardTruncatesBytes,
    forward_reorders_parts => ForwardReordersParts,
    forward_then_errors => ForwardThenErrors,
}

#[tokio::test]
async fn an_agent_translating_into_gemini_sends_contents_and_streams_the_candidates_text() {
    let answer = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": REPLY}]},
                                        "finishReason": "STOP"}]});
    let mock = MockUpstream::with_body(200, answer.to_string()).await;
    let config = with(Some(AguiFault::ForwardReordersParts))
        .with_upstream_wire(crate::upstream::UpstreamWire::Gemini);
    let body = say(json!([text("look"), inline("image", "image/png")]));
    let (_, events) = run(config, Some(&mock), &body).await;
    assert_eq!(ending(&events), "RUN_FINISHED");
    assert!(
        events.iter().any(|e| e["delta"] == REPLY),
        "the candidate's text is streamed: {events:?}"
    );
    let received = mock.received();
    assert_eq!(received.len(), 1);
    let parts = &received[0]["contents"][0]["parts"];
    assert_eq!(received[0]["contents"][0]["role"], "user");
    // The forwarding fault reversed the parts on this wire too.
    assert_eq!(parts[0]["inlineData"]["mimeType"], "image/png");
    assert_eq!(parts[0]["inlineData"]["data"], data(16));
    assert_eq!(parts[1], json!({"text": "look"}));
}
