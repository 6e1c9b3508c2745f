//! Each fault of the OpenAI-compatible server changes exactly the behaviour it names.
//!
//! `signature` holds, per fault, one request on which the faithful and the faulted
//! server must answer differently, and the two expected verdicts; the match is
//! exhaustive, so a new fault cannot be added without its proof. Every probe goes over
//! real HTTP on loopback. `each_fault_leaves_valid_requests_alone` then checks that a
//! fault does not break what it does not name.

use serde_json::{Value, json};

use super::test_support::{
    audio, image, image_url, multi, observe, observe_forwarded, pdf, streamed, text, text_only,
    upstream_parts,
};
use super::{OpenaiConfig, OpenaiFault};

/// One request, and what the faithful and the faulted server answer to it.
struct Signature {
    body: Value,
    faithful: &'static str,
    faulted: &'static str,
}

fn sig(body: Value, faithful: &'static str, faulted: &'static str) -> Signature {
    Signature {
        body,
        faithful,
        faulted,
    }
}

/// An image with `detail`, an audio part and a file, for the forwarding faults.
fn forwarded_media() -> Value {
    multi(json!([
        text("look"),
        {"type": "image_url", "image_url": {"url": image("image/png")["image_url"]["url"], "detail": "high"}},
        audio("wav"),
        pdf(),
    ]))
}

fn signature(fault: OpenaiFault) -> Signature {
    use OpenaiFault::*;
    const FORWARDED: &str =
        "text image_url(image/png detail=high) input_audio(wav) file(report.pdf)";
    match fault {
        IgnoresImageOnTextModel => sig(
            text_only(json!([text("a"), image("image/png")])),
            "400 image_content_not_supported messages[0].content[1]",
            "200 text",
        ),
        DropsUnsupportedParts => sig(
            text_only(json!([text("a"), audio("wav")])),
            "400 audio_content_not_supported messages[0].content[1]",
            "200 text",
        ),
        CrashOnInvalidBase64 => sig(
            multi(json!([
                text("a"),
                image_url("data:image/png;base64,!!not base64!!")
            ])),
            "400 invalid_value messages[0].content[1].image_url.url",
            "500 - -",
        ),
        CrashOnMalformed => sig(
            multi(json!([text("a"), text("")])),
            "400 invalid_value messages[0].content[1].text",
            "500 - -",
        ),
        AcceptsUnknownPartType => sig(
            multi(json!([text("a"), {"type": "hologram", "hologram": {}}])),
            "400 invalid_value messages[0].content[1].type",
            "200 text",
        ),
        CapabilityRefusal404 => sig(
            text_only(json!([text("a"), pdf()])),
            "400 unsupported_content_block messages[0].content[1]",
            "404 unsupported_content_block messages[0].content[1]",
        ),
        ErrorBodyNotOpenai => sig(
            text_only(json!([image("image/webp")])),
            "400 image_content_not_supported messages[0].content[0]",
            "400 not-openai",
        ),
        StreamWithoutDone => sig(
            streamed(text_only(json!("hi")), false),
            "200 stream text stop [DONE]",
            "200 stream text stop no-[DONE]",
        ),
        StreamChunkNotJson => sig(
            streamed(multi(json!([text("a"), image("image/png")])), true),
            "200 stream text,image stop usage [DONE]",
            "200 stream bad-json",
        ),
        ForwardDropsDetail => sig(
            forwarded_media(),
            FORWARDED,
            "text image_url(image/png detail=-) input_audio(wav) file(report.pdf)",
        ),
        ForwardReplacesFilename => sig(
            forwarded_media(),
            FORWARDED,
            "text image_url(image/png detail=high) input_audio(wav) file(my_file.pdf)",
        ),
        ForwardAudioAsImage => sig(
            forwarded_media(),
            FORWARDED,
            "text image_url(image/png detail=high) image_url(audio/wav detail=-) file(report.pdf)",
        ),
    }
}

/// The answer to `body` from the server with `fault`; for a forwarding fault, what
/// the upstream received.
async fn answer(fault: Option<OpenaiFault>, needs_upstream: bool, body: &Value) -> String {
    let config = OpenaiConfig::new(fault);
    if needs_upstream {
        let (verdict, received) = observe_forwarded(config, body).await;
        assert!(verdict.starts_with("200 "), "{verdict}");
        return upstream_parts(&received);
    }
    observe(config, body).await
}

#[tokio::test]
async fn every_fault_changes_its_answer() {
    for &fault in OpenaiFault::all() {
        let signature = signature(fault);
        let upstream = fault.needs_upstream();
        assert_eq!(
            answer(None, upstream, &signature.body).await,
            signature.faithful,
            "faithful server, probe of {fault}"
        );
        assert_eq!(
            answer(Some(fault), upstream, &signature.body).await,
            signature.faulted,
            "{fault}"
        );
    }
}

#[tokio::test]
async fn each_fault_leaves_valid_requests_alone() {
    let all_kinds = multi(json!([
        text("look"),
        image("image/jpeg"),
        audio("mp3"),
        pdf()
    ]));
    for &fault in OpenaiFault::all() {
        let config = || OpenaiConfig::new(Some(fault));
        assert_eq!(
            observe(config(), &all_kinds).await,
            "200 text,image,audio,file",
            "{fault}"
        );
        assert_eq!(
            observe(config(), &text_only(json!("hi"))).await,
            "200 text",
            "{fault}"
        );
        if !matches!(
            fault,
            OpenaiFault::StreamWithoutDone | OpenaiFault::StreamChunkNotJson
        ) {
            let stream = streamed(text_only(json!("hi")), false);
            assert_eq!(
                observe(config(), &stream).await,
                "200 stream text stop [DONE]",
                "{fault}"
            );
        }
    }
}
