//! Each fault of the OpenAI-compatible server changes exactly the behaviour it names.
//!
//! `signature` holds, per fault, one request on which the faithful and the faulted
//! server must answer differently, and the two expected verdicts; the match is
//! exhaustive, so a new fault cannot be added without its proof. Every probe goes over
//! real HTTP on loopback. `each_fault_leaves_valid_requests_alone` then checks that a
//! fault does not break what it does not name.

use serde_json::{Value, json};

use super::test_support::{
    audio, image, image_url, multi, observe, observe_forwarded, observe_responses, pdf, responses,
    streamed, text, text_only, upstream_parts,
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

/// A PDF file part with file_data and no filename.
fn unnamed_pdf() -> Value {
    let mut part = pdf();
    part["file"].as_object_mut().unwrap().remove("filename");
    part
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
        DropsMedia => sig(
            multi(json!([text("a"), image("image/png")])),
            "200 text,image",
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
        LaxBase64 => {
            let url = image("image/png")["image_url"]["url"]
                .as_str()
                .unwrap()
                .to_string();
            // A `*` after the first base64 group: only a lax decoder reads the image.
            let (head, payload) = url.split_once(";base64,").unwrap();
            let noisy = format!("{head};base64,{}*{}", &payload[..4], &payload[4..]);
            sig(
                multi(json!([text("a"), image_url(&noisy)])),
                "400 invalid_value messages[0].content[1].image_url.url",
                "200 text,image",
            )
        }
        AcceptsNonHttpUrl => sig(
            multi(json!([text("a"), image_url("file:///etc/passwd")])),
            "400 invalid_value messages[0].content[1].image_url.url",
            "200 text,image",
        ),
        IgnoresAuth => sig(multi(json!("hi")), "401 invalid_api_key -", "200 text"),
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
        RefusesStringContent => sig(
            multi(json!("hello")),
            "200 text",
            "400 invalid_type messages[0].content",
        ),
        RefusesTextOnlyArray => sig(
            text_only(json!([text("a"), text("b")])),
            "200 text,text",
            "400 invalid_type messages[0].content",
        ),
        RefusesDetail => sig(
            multi(
                json!([text("a"), {"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": "auto"}}]),
            ),
            "200 text,image",
            "400 invalid_value messages[0].content[1].image_url.detail",
        ),
        RefusesHttpImageUrl => sig(
            multi(json!([text("a"), image_url("https://x.test/a.png")])),
            "200 text,image",
            "400 invalid_value messages[0].content[1].image_url.url",
        ),
        AcceptsPngOnly => sig(
            multi(json!([text("a"), image("image/webp")])),
            "200 text,image",
            "400 unsupported_image_media_type messages[0].content[1]",
        ),
        AcceptsWavOnly => sig(
            multi(json!([text("a"), audio("mp3")])),
            "200 text,audio",
            "400 invalid_value messages[0].content[1].input_audio.format",
        ),
        RefusesFileId => sig(
            multi(
                json!([text("a"), {"type": "file", "file": {"file_id": super::REFERENCE_FILE_ID}}]),
            ),
            "200 text,file",
            "400 invalid_value messages[0].content[1].file.file_id",
        ),
        CompletionWithoutFinishReason => {
            sig(text_only(json!("hi")), "200 text", "200 text finish=None")
        }
        StreamWithoutFinishReason => sig(
            streamed(text_only(json!("hi")), false),
            "200 stream text stop [DONE]",
            "200 stream text no-finish [DONE]",
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
        InventsFilename => sig(
            multi(json!([text("a"), unnamed_pdf()])),
            "400 missing_required_parameter messages[0].content[1].file.filename",
            "200 text,file",
        ),
        ForwardAudioAsImage => sig(
            forwarded_media(),
            FORWARDED,
            "text image_url(image/png detail=high) image_url(audio/wav detail=-) file(report.pdf)",
        ),
        ForwardSkipsModel => sig(forwarded_media(), FORWARDED, "nothing"),
        ResponsesDropsFileIdPart => sig(
            responses(json!([
                {"type": "input_text", "text": "a"},
                {"type": "input_file", "file_id": super::REFERENCE_FILE_ID},
            ])),
            "200 text,file",
            "200 text",
        ),
        ResponsesDropsFileUrl => sig(
            responses(json!([
                {"type": "input_text", "text": "a"},
                {"type": "input_file", "file_url": "https://x.test/a.pdf", "filename": "a.pdf"},
            ])),
            "200 text,file",
            "200 text",
        ),
        ResponsesAcceptsObjectImageUrl => sig(
            responses(json!([
                {"type": "input_text", "text": "a"},
                {"type": "input_image", "image_url": {"url": image("image/png")["image_url"]["url"]}},
            ])),
            "400 invalid_type input[0].content[1].image_url",
            "200 text,image",
        ),
        ResponsesSkipsChatParts => sig(
            responses(json!([{"type": "input_text", "text": "a"}, image("image/png")])),
            "400 invalid_value input[0].content[1].type",
            "200 text",
        ),
        ResponsesStreamWithoutCompleted => sig(
            json!({"model": "reference-multimodal", "input": "hi", "stream": true}),
            "200 events completed",
            "200 events no-completed",
        ),
        ForwardUnvalidated => sig(
            multi(json!([text("a"), {"type": "input_hologram", "input_hologram": {}}])),
            "400 invalid_value messages[0].content[1].type => nothing",
            "text ?Some(\"input_hologram\")",
        ),
    }
}

/// The answer to `body` from the server with `fault`; for a forwarding fault, what
/// the upstream received.
async fn answer(fault: Option<OpenaiFault>, needs_upstream: bool, body: &Value) -> String {
    let mut config = OpenaiConfig::new(fault);
    // Only a server that requires a token can ignore it: the probe sends none.
    if fault.is_none_or(|f| f == OpenaiFault::IgnoresAuth) {
        config.token = token_for_auth_probe(body);
    }
    if body.get("input").is_some() {
        return observe_responses(config, body).await;
    }
    if needs_upstream {
        let (verdict, received) = observe_forwarded(config, body).await;
        // A refusal forwards nothing: its verdict is the answer.
        if !verdict.starts_with("200 ") {
            return verdict;
        }
        return upstream_parts(&received);
    }
    observe(config, body).await
}

/// The token the auth probe's server requires: set for the one body the IgnoresAuth
/// signature sends (plain string content "hi"), so the other probes stay open.
fn token_for_auth_probe(body: &Value) -> Option<String> {
    (body == &multi(json!("hi"))).then(|| "s3cret".to_string())
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

/// A fault breaks what it names and nothing else: a valid request of every kind, and a
/// valid stream, still get the faithful answer (the fault's own target left out).
#[tokio::test]
async fn each_fault_leaves_valid_requests_alone() {
    use OpenaiFault::*;
    let all_kinds = multi(json!([
        text("look"),
        image("image/png"),
        audio("wav"),
        pdf()
    ]));
    let streams = [
        StreamWithoutDone,
        StreamChunkNotJson,
        StreamWithoutFinishReason,
    ];
    for &fault in OpenaiFault::all() {
        let config = || OpenaiConfig::new(Some(fault));
        let (kinds, plain) = if fault == CompletionWithoutFinishReason {
            (
                "200 text,image,audio,file finish=None",
                "200 text finish=None",
            )
        } else if fault == DropsMedia {
            // Its own target: every media part of a valid request.
            ("200 text", "200 text")
        } else {
            ("200 text,image,audio,file", "200 text")
        };
        assert_eq!(observe(config(), &all_kinds).await, kinds, "{fault}");
        let hello = text_only(json!([text("hi")]));
        if fault != RefusesTextOnlyArray {
            assert_eq!(observe(config(), &hello).await, plain, "{fault}");
        }
        if !streams.contains(&fault) {
            let stream = streamed(text_only(json!("hi")), false);
            let expected = if fault == RefusesStringContent {
                "400 invalid_type messages[0].content"
            } else {
                "200 stream text stop [DONE]"
            };
            assert_eq!(observe(config(), &stream).await, expected, "{fault}");
        }
    }
}
