//! The AG-UI reference agent (crate `reference_hosts`) read against mmconform's own
//! classifier, echo parser and declaration: the agent reads the wire description on its
//! own, and these tests pin that the two readings agree where they must.

use base64::Engine as _;
use mmconform::api::agui::{
    self as profile, Classifier, Declaration, ReadEnd, StreamClass, run_input,
};
use reference_hosts::RunningReference;
use reference_hosts::agui::{self, AGENT_PATH, AgentConfig, AguiFault};
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().no_proxy().build().unwrap()
}

async fn start(fault: Option<AguiFault>) -> RunningReference {
    let config = AgentConfig {
        fault,
        ..AgentConfig::default()
    };
    agui::spawn(config, "127.0.0.1:0".parse().unwrap())
        .await
        .unwrap()
}

/// POSTs one user message's `content` as mmconform builds a RunAgentInput; the status
/// and the `data:` payloads of the answer.
async fn post(running: &RunningReference, content: Value) -> (u16, Vec<String>) {
    let input = run_input(
        json!({"messages": [{"role": "user", "content": content}]}),
        "cross-check",
    );
    let answer = client()
        .post(format!("{}{AGENT_PATH}", running.base_url()))
        .json(&input)
        .send()
        .await
        .unwrap();
    let status = answer.status().as_u16();
    let body = answer.text().await.unwrap();
    let data = body
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(str::to_string)
        .collect();
    (status, data)
}

fn classify(status: u16, data: &[String]) -> StreamClass {
    let mut classifier = Classifier::default();
    for d in data {
        classifier.on_data(d);
    }
    classifier
        .finish(status, None, true, ReadEnd::Eof, 0)
        .classification
}

/// A text part runs to completion; a video part (undeclared by default) to RUN_ERROR.
fn inputs() -> [(Value, StreamClass); 2] {
    let video =
        json!([{"type": "video", "source": {"type": "url", "value": "http://127.0.0.1:9/v.mp4"}}]);
    [
        (json!("hello"), StreamClass::Completed),
        (video, StreamClass::RunError),
    ]
}

#[tokio::test]
async fn faithful_streams_classify_as_their_verdict_and_faulty_ones_break() {
    let faithful = start(None).await;
    for (content, class) in inputs() {
        let (status, data) = post(&faithful, content).await;
        assert_eq!(classify(status, &data), class, "{data:?}");
    }
    faithful.shutdown().await;
    for fault in [
        AguiFault::NoTerminalEvent,
        AguiFault::EventsAfterFinish,
        AguiFault::FirstEventNotRunStarted,
    ] {
        let faulty = start(Some(fault)).await;
        for (content, _) in inputs() {
            let (status, data) = post(&faulty, content).await;
            assert_eq!(classify(status, &data), StreamClass::Broken, "{fault}");
        }
        faulty.shutdown().await;
    }
}

/// The reference agent's echo is what `schemas/agui-echo.schema.json` documents for
/// third parties, and what mmconform's parser reads.
#[tokio::test]
async fn the_reference_echo_validates_against_the_published_schema() {
    let schema: Value =
        serde_json::from_str(mmconform::api::builtin_schema("agui-echo").unwrap()).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let running = start(None).await;
    let png = base64::engine::general_purpose::STANDARD
        .encode(mmconform_media::generate("image/png", "0123456789abcdef"));
    let (_, data) = post(
        &running,
        json!([
            {"type": "text", "text": "x"},
            {"type": "image", "source": {"type": "data", "value": png, "mimeType": "image/png"}},
            {"type": "audio", "source": {"type": "url", "value": "http://127.0.0.1:9/a.wav"}}
        ]),
    )
    .await;
    let value: Value = data
        .iter()
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .find(|e| e["name"] == profile::ECHO_EVENT_NAME)
        .map(|e| e["value"].clone())
        .expect("an echo event");
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{value}");
    let parts = profile::parse_echo(&value).unwrap();
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[1].nonce.as_deref(), Some("0123456789abcdef"));
    assert_eq!(
        (parts[2].bytes, parts[2].source.as_deref()),
        (None, Some("url"))
    );
    assert!(!validator.is_valid(&json!({"parts": [{"type": "image", "nonce": "XYZ"}]})));
    running.shutdown().await;
}

/// The agent's own reading of a MIME-prefix declaration matches the checker's, so the
/// declaration a run is planned with is the one the agent enforces.
#[test]
fn the_agent_and_the_checker_read_a_declaration_alike() {
    assert_eq!(agui::PART_KINDS, profile::PART_KINDS);
    assert_eq!(agui::SOURCE_KINDS, profile::SOURCE_KINDS);
    assert_eq!(agui::ECHO_EVENT_NAME, profile::ECHO_EVENT_NAME);
    let lists = [
        "image/,audio/wav,application/pdf",
        "IMAGE/*, audio/ ,video/",
        "image/png,audio/mpeg,video/webm,text/plain",
        "application/pdf,image/webp,image/webp",
    ];
    let mimes = [
        "image/png",
        "image/jpeg",
        "image/webp",
        "audio/wav",
        "Audio/WAV; rate=8000",
        "audio/wave",
        "audio/mpeg",
        "application/pdf",
        "video/mp4",
        "video/webm",
        "text/plain",
    ];
    for list in lists {
        let accepts: Vec<String> = list.split(',').map(str::to_string).collect();
        let agent = AgentConfig::new(&accepts, None).unwrap();
        let sources: Vec<String> = agent.sources().iter().map(|s| s.to_string()).collect();
        let declared = Declaration::new(
            agent.accepts.prefixes(),
            &sources,
            agent.echoes(),
            "reference agent",
        )
        .unwrap();
        assert_eq!(declared.accepts, agent.accepts.prefixes(), "{list}");
        assert_eq!(declared.kinds, agent.accepts.kinds(), "{list}");
        for mime in mimes {
            assert_eq!(
                declared.accepts_mime(mime),
                agent.accepts.accepts_mime(mime),
                "{list} {mime}"
            );
            assert_eq!(agui::kind_of_mime(mime), profile::kind_of_mime(mime));
        }
    }
    for bad in ["image", "", "audio/w av"] {
        let list = vec![bad.to_string()];
        assert_eq!(
            AgentConfig::new(&list, None).unwrap_err(),
            Declaration::from_flag(&list).unwrap_err(),
            "{bad}"
        );
    }
}
