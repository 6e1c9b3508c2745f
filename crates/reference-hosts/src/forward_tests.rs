//! The forwarding mode of the openwop host (`forward.rs`) over loopback, against a
//! mock model: what reaches the model for each part kind and source, what never does,
//! the seam's answers, and (`signature`, run by `fault_tests.rs`) the wrong request
//! each forwarding fault sends.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::fault_tests::{Signature, sig, with};
use super::media_ref::blob;
use super::mock_upstream::{MockUpstream, REPLY, describe, part_bytes};
use super::test_support::{
    call_verdict, client, data, forward, loopback, media, png, text, user, wav,
};
use super::{Fault, ReferenceConfig, known_media_ref, spawn};

fn every_modality() -> ReferenceConfig {
    ReferenceConfig {
        modalities: vec![
            "text".into(),
            "image".into(),
            "audio".into(),
            "document".into(),
        ],
        ..ReferenceConfig::default()
    }
}

fn compat(mut body: Value) -> Value {
    body["provider"] = json!("compat");
    body
}

/// Spawns `config` (forwarding to `mock` when given), posts `body` to the seam, and
/// returns the status and the answer.
async fn post(config: ReferenceConfig, mock: Option<&MockUpstream>, body: &Value) -> (u16, Value) {
    let config = ReferenceConfig {
        upstream: mock.map(MockUpstream::base),
        ..config
    };
    let host = spawn(config, loopback()).await.unwrap();
    let response = client()
        .post(format!("{}/v1/host/sample/ai/call", host.base_url()))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let answer = response.json().await.unwrap();
    host.shutdown().await;
    (status, answer)
}

#[tokio::test]
async fn each_part_kind_and_source_reaches_the_model_in_the_openai_shape() {
    let mock = MockUpstream::start(200).await;
    let body = compat(json!({"messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [
            text("look"),
            media("image", "image/jpeg", "data", "AAEC"),
            media("image", "image/png", "url", "https://example.com/a.png"),
            media("audio", "audio/wav", "data", "AwQF"),
            media("audio", "audio/mpeg", "data", "BgcI"),
            media("document", "application/pdf", "data", "CQoL"),
            media("document", "text/plain", "url", "https://example.com/a.txt"),
            media("file", "application/pdf", "dataBase64", "DA0O"),
        ]},
        {"role": "assistant", "content": [text("seen")]},
    ]}));
    let (status, _) = post(every_modality(), Some(&mock), &body).await;
    assert_eq!(status, 200);
    assert_eq!(
        mock.received(),
        [
            json!({"model": "mmconform-reference", "stream": false, "messages": [
                {"role": "system", "content": "be brief"},
                {"role": "user", "content": [
                    {"type": "text", "text": "look"},
                    {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,AAEC"}},
                    {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
                    {"type": "input_audio", "input_audio": {"data": "AwQF", "format": "wav"}},
                    {"type": "input_audio", "input_audio": {"data": "BgcI", "format": "mp3"}},
                    {"type": "file", "file": {"file_data": "data:application/pdf;base64,CQoL", "filename": "document.pdf"}},
                    {"type": "file", "file": {"file_id": "https://example.com/a.txt", "filename": "document.txt"}},
                    {"type": "file", "file": {"file_data": "data:application/pdf;base64,DA0O", "filename": "document.pdf"}},
                ]},
                {"role": "assistant", "content": [{"type": "text", "text": "seen"}]},
            ]})
        ]
    );
}

#[tokio::test]
async fn inline_bytes_arrive_byte_for_byte_and_media_refs_as_the_blob() {
    let nonce = "0123456789abcdef";
    let stamped = mmconform_media::generate("image/png", nonce);
    let b64 = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &stamped);
    let mock = MockUpstream::start(200).await;
    let body = compat(user(json!([
        media("image", "image/png", "data", &b64),
        media(
            "audio",
            "audio/wav",
            "mediaRef",
            known_media_ref("audio").unwrap()
        ),
        media(
            "document",
            "application/pdf",
            "mediaRef",
            known_media_ref("document").unwrap()
        ),
    ])));
    let (status, _) = post(every_modality(), Some(&mock), &body).await;
    assert_eq!(status, 200);
    let received = mock.received();
    assert_eq!(part_bytes(&received, 0), stamped);
    assert!(mmconform_media::contains_nonce(
        &part_bytes(&received, 0),
        nonce
    ));
    assert_eq!(part_bytes(&received, 1), blob("audio", Some("audio/wav")).1);
    assert_eq!(
        part_bytes(&received, 2),
        blob("document", Some("application/pdf")).1
    );
    assert_eq!(
        describe(&received),
        format!(
            "user: image(image/png {}B) audio(wav {}B) file(application/pdf 2048B document.pdf)",
            stamped.len(),
            blob("audio", None).1.len()
        )
    );
}

#[tokio::test]
async fn truncated_bytes_keep_the_stamp_so_only_a_byte_comparison_sees_it() {
    let nonce = "0123456789abcdef";
    for mime in mmconform_media::supported_mimes() {
        let stamped = mmconform_media::generate(mime, nonce);
        let b64 = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &stamped);
        let kind = match mime.split('/').next() {
            Some("application") => "document",
            Some(kind) => kind,
            None => unreachable!(),
        };
        if kind == "video" {
            continue;
        }
        let mock = MockUpstream::start(200).await;
        let config = ReferenceConfig {
            fault: Some(Fault::ForwardTruncatesBytes),
            ..every_modality()
        };
        let (status, _) = post(
            config,
            Some(&mock),
            &compat(user(json!([media(kind, mime, "data", &b64)]))),
        )
        .await;
        assert_eq!(status, 200, "{mime}");
        let received = part_bytes(&mock.received(), 0);
        assert_eq!(received.len() + 1, stamped.len(), "{mime}");
        assert!(mmconform_media::contains_nonce(&received, nonce), "{mime}");
    }
}

#[tokio::test]
async fn the_answer_adds_the_models_reply() {
    let mock = MockUpstream::start(200).await;
    let body = compat(user(json!([text("what is this?"), png()])));
    let (status, answer) = post(ReferenceConfig::default(), Some(&mock), &body).await;
    assert_eq!(status, 200);
    assert_eq!(
        answer,
        json!({"ok": true, "accepted": true, "advertised": ["text", "image"],
               "modalities": ["text", "image"], "parts": 2, "provider": "compat",
               "completion": REPLY, "upstream": {"status": 200, "text": REPLY}})
    );
}

#[tokio::test]
async fn only_compat_calls_to_a_host_with_an_upstream_are_forwarded() {
    let today = json!({"ok": true, "accepted": true, "advertised": ["text", "image"],
                       "modalities": ["text", "image"], "parts": 2});
    let mock = MockUpstream::start(200).await;
    let plain = user(json!([text("look"), png()]));
    let mut other = plain.clone();
    other["provider"] = json!("reference");
    for body in [&plain, &other] {
        let (status, answer) = post(ReferenceConfig::default(), Some(&mock), body).await;
        assert_eq!((status, &answer), (200, &today), "{body}");
    }
    let (status, answer) = post(ReferenceConfig::default(), None, &compat(plain)).await;
    assert_eq!((status, answer), (200, today));
    assert_eq!(describe(&mock.received()), "nothing");
}

#[tokio::test]
async fn refused_calls_are_never_forwarded() {
    let mock = MockUpstream::start(200).await;
    let capped = ReferenceConfig {
        max_bytes_per_part: Some(8),
        ..ReferenceConfig::default()
    };
    let with_token = ReferenceConfig {
        token: Some("s3cret".into()),
        ..ReferenceConfig::default()
    };
    let cases = [
        (
            ReferenceConfig::default(),
            user(json!([text("a"), wav()])),
            "400 unsupported_modality",
        ),
        (
            ReferenceConfig::default(),
            user(json!([{"type": "hologram"}])),
            "400 unsupported_modality",
        ),
        (
            ReferenceConfig::default(),
            user(json!([{"type": "image", "mimeType": "image/png"}])),
            "400 invalid_request",
        ),
        (
            ReferenceConfig::default(),
            user(json!([media("image", "image/png", "data", "%%")])),
            "400 invalid_request",
        ),
        (
            ReferenceConfig::default(),
            user(json!([media(
                "image",
                "image/png",
                "url",
                "http://127.0.0.1/a.png"
            )])),
            "400 invalid_request",
        ),
        (
            ReferenceConfig::default(),
            json!({"messages": []}),
            "400 validation_error",
        ),
        (
            capped,
            user(json!([media("image", "image/png", "data", &data(9))])),
            "413 payload_too_large",
        ),
        (with_token, user(json!("hi")), "401 unauthenticated"),
    ];
    for (config, body, expected) in cases {
        let (status, answer) = post(config, Some(&mock), &compat(body.clone())).await;
        assert_eq!(call_verdict(status, &answer), expected, "{body}");
    }
    assert_eq!(describe(&mock.received()), "nothing");
}

#[tokio::test]
async fn a_failing_upstream_is_a_flat_502_upstream_unavailable() {
    let body = compat(user(json!([text("look"), png()])));
    let oversized = "x".repeat(super::upstream::MAX_REPLY_BYTES + 1);
    let failing = [
        (MockUpstream::start(500).await, "500"),
        (
            MockUpstream::with_body(200, "not json".into()).await,
            "not JSON",
        ),
        (MockUpstream::with_body(200, oversized).await, "longer than"),
    ];
    for (mock, why) in &failing {
        let (status, answer) = post(ReferenceConfig::default(), Some(mock), &body).await;
        assert_eq!(
            call_verdict(status, &answer),
            "502 upstream_unavailable",
            "{why}"
        );
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(why), "{message}");
        assert_eq!(mock.received().len(), 1, "{why}");
    }
    let closed = format!("http://127.0.0.1:{}/v1", failing[0].0.closed_port());
    let config = ReferenceConfig {
        upstream: Some(url::Url::parse(&closed).unwrap()),
        ..ReferenceConfig::default()
    };
    let host = spawn(config, loopback()).await.unwrap();
    let response = client()
        .post(format!("{}/v1/host/sample/ai/call", host.base_url()))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 502);
    let answer: Value = response.json().await.unwrap();
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("cannot reach it"),
        "{answer}"
    );
}

#[tokio::test]
async fn forwarding_faults_change_nothing_without_an_upstream_or_a_compat_call() {
    let positive = user(json!([text("look"), png()]));
    let negative = user(json!([text("listen"), wav()]));
    let mock = MockUpstream::start(200).await;
    for &fault in Fault::all().iter().filter(|f| f.needs_upstream()) {
        let config = ReferenceConfig {
            fault: Some(fault),
            ..ReferenceConfig::default()
        };
        let (faithful, faulted) = (ReferenceConfig::default(), config.clone());
        for body in [compat(positive.clone()), compat(negative.clone())] {
            assert_eq!(
                post(faulted.clone(), None, &body).await,
                post(faithful.clone(), None, &body).await,
                "{fault}: no upstream"
            );
        }
        for body in [&positive, &negative] {
            assert_eq!(
                post(faulted.clone(), Some(&mock), body).await,
                post(faithful.clone(), Some(&mock), body).await,
                "{fault}: no provider"
            );
        }
    }
    assert_eq!(describe(&mock.received()), "nothing");
}

#[tokio::test]
async fn a_part_a_fault_drops_is_not_forwarded_either() {
    let mock = MockUpstream::start(200).await;
    let config = ReferenceConfig {
        fault: Some(Fault::SilentlyDropsUnadvertised),
        ..ReferenceConfig::default()
    };
    let body = compat(user(json!([text("a"), wav(), png()])));
    let (status, _) = post(config, Some(&mock), &body).await;
    assert_eq!(status, 200);
    assert_eq!(
        describe(&mock.received()),
        "user: text image(image/png 16B)"
    );
}

/// A case nonce of the run form: its generated files carry a content stamp.
const STAMPED: &str = "5eed0123456789ab-c2";

/// A description computed at run time, for a [`Signature`] (tests only).
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The forwarding faults: what the mock model receives from the faithful host and
/// from the faulted one, for the same call (`mock_upstream::describe`).
pub(super) fn signature(fault: Fault) -> Signature {
    use Fault::*;
    let look = || forward(user(json!([text("look"), png()])));
    let seen = "200 text,image x2 => user: text image(image/png 16B)";
    let pdf = || media("document", "application/pdf", "data", &data(16));
    match fault {
        ForwardSkipsModel => sig(look(), seen, "200 text,image x2 => nothing"),
        ForwardDropsMedia => sig(look(), seen, "200 text,image x2 => user: text"),
        ForwardDropsAudio => with(
            every_modality(),
            sig(
                forward(user(json!([text("a"), wav(), png()]))),
                "200 text,audio,image x3 => user: text audio(wav 16B) image(image/png 16B)",
                "200 text,audio,image x3 => user: text image(image/png 16B)",
            ),
        ),
        ForwardDocumentAsImage => with(
            every_modality(),
            sig(
                forward(user(json!([text("a"), pdf()]))),
                "200 text,document x2 => user: text file(application/pdf 16B document.pdf)",
                "200 text,document x2 => user: text image(application/pdf 16B)",
            ),
        ),
        ForwardWrongMime => sig(
            look(),
            seen,
            "200 text,image x2 => user: text image(application/octet-stream 16B)",
        ),
        ForwardTruncatesBytes => sig(
            look(),
            seen,
            "200 text,image x2 => user: text image(image/png 15B)",
        ),
        ForwardReordersParts => sig(
            look(),
            seen,
            "200 text,image x2 => user: image(image/png 16B) text",
        ),
        ForwardReencodesImages | ForwardDownscalesImages | ForwardImagePlaceholder => {
            use mmconform_media::transform::{reencode_image, scale_image};
            let png = mmconform_media::generate("image/png", STAMPED);
            let (mime, out) = match fault {
                ForwardReencodesImages => ("image/jpeg", reencode_image(&png, "image/jpeg")),
                _ => ("image/png", scale_image(&png, 50)),
            };
            let arrived = match fault {
                ForwardImagePlaceholder => "text".to_string(),
                _ => format!("image({mime} {}B)", out.unwrap().len()),
            };
            let stamped = media("image", "image/png", "data", &STANDARD.encode(&png));
            sig(
                forward(user(json!([text("look"), stamped]))),
                leak(format!(
                    "200 text,image x2 => user: text image(image/png {}B)",
                    png.len()
                )),
                leak(format!("200 text,image x2 => user: text {arrived}")),
            )
        }
        ForwardExtractsPdfText => {
            let pdf = mmconform_media::generate("application/pdf", STAMPED);
            let stamped = media(
                "document",
                "application/pdf",
                "data",
                &STANDARD.encode(&pdf),
            );
            with(
                every_modality(),
                sig(
                    forward(user(json!([text("a"), stamped]))),
                    leak(format!(
                        "200 text,document x2 => user: text file(application/pdf {}B document.pdf)",
                        pdf.len()
                    )),
                    "200 text,document x2 => user: text text",
                ),
            )
        }
        ForwardThenRefuses => sig(
            forward(user(json!([text("a"), wav()]))),
            "400 unsupported_modality => nothing",
            "400 unsupported_modality => user: text audio(wav 16B)",
        ),
        other => panic!("{other} is not a forwarding fault"),
    }
}
