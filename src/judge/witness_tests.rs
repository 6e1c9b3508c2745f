use super::*;
use crate::outcome::Level;
use crate::request::sent::sent_parts;
use crate::scenario::model::DeliveryExpectation;
use crate::witness::{Limits, Wire, decode_call};
use base64::Engine as _;
use serde_json::{Value, json};

const NONCE: &str = "ab12-c3";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// What a case sending text then a `kind` part (of `mime`) sent.
fn sent(kind: &str, mime: &str) -> Vec<SentPart> {
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "what is this? {nonce}"},
        {"$media": {"type": kind, "mime": mime}}]}]});
    sent_parts(&body, &|_| None, NONCE).unwrap()
}

/// A call whose user message holds `content`, as the witness decodes it.
fn call(seq: u64, content: Value) -> ModelCall {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": content}]});
    decode_call(
        Wire::OpenaiChat,
        "/v1/chat/completions",
        body.to_string().as_bytes(),
        &Limits::default(),
        seq,
    )
}

fn text() -> Value {
    json!({"type": "text", "text": format!("what is this? {NONCE}")})
}

fn image_url(mime: &str, bytes: &[u8]) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{}", b64(bytes))}})
}

fn checks(assertions: &[AssertionResult]) -> Vec<(&str, bool)> {
    assertions
        .iter()
        .map(|a| (a.check.as_str(), a.passed))
        .collect()
}

#[test]
fn a_faithful_call_passes_every_check() {
    let png = mmconform_media::generate("image/png", NONCE);
    let calls = [call(4, json!([text(), image_url("image/png", &png)]))];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent("image", "image/png"),
        &calls,
        NONCE,
        Answered::Success,
    );
    assert_eq!(
        checks(&got),
        [
            ("witness.reached", true),
            ("witness.bytes", true),
            ("witness.form", true),
            ("witness.mime", true),
            ("witness.detail", true),
            ("witness.order", true),
            ("witness.text", true)
        ]
    );
    assert!(got[0].actual.contains("(call 4)"), "{}", got[0].actual);
    assert_eq!(got[0].level, None);
    assert!(got[2..].iter().all(|a| a.level == Some(Level::Should)));
}

#[test]
fn no_call_and_text_only_fail_reached_with_what_was_sent() {
    let png = mmconform_media::generate("image/png", NONCE);
    let sent = sent("image", "image/png");
    let none = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &[],
        NONCE,
        Answered::Success,
    );
    assert_eq!(checks(&none), [("witness.reached", false)]);
    let size = crate::request::sent::size(png.len() as u64);
    assert_eq!(
        none[0].actual,
        format!(
            "a 2xx with no model call at all: sent image/png {size}; the model received nothing"
        )
    );
    let text_only = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &[call(7, json!([text()]))],
        NONCE,
        Answered::Success,
    );
    assert_eq!(checks(&text_only), [("witness.reached", false)]);
    assert_eq!(
        text_only[0].actual,
        format!("sent image/png {size} (lost); the model received: text only (call 7)")
    );
}

#[test]
fn cut_bytes_wrong_form_wrong_mime_and_reversed_order_each_fail_their_check() {
    let pdf = mmconform_media::generate("application/pdf", NONCE);
    let sent_pdf = sent("document", "application/pdf");
    let cut = [call(
        1,
        json!([text(), {"type": "file", "file": {
        "file_data": format!("data:application/pdf;base64,{}", b64(&pdf[..pdf.len() - 1])),
        "filename": "document.pdf"}}]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent_pdf,
        &cut,
        NONCE,
        Answered::Success,
    );
    assert!(checks(&got).contains(&("witness.bytes", false)), "{got:?}");
    let as_image = [call(1, json!([text(), image_url("application/pdf", &pdf)]))];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent_pdf,
        &as_image,
        NONCE,
        Answered::Success,
    );
    let form = got.iter().find(|a| a.check == "witness.form").unwrap();
    assert!(
        !form.passed && form.actual.contains("image_url"),
        "{form:?}"
    );
    assert!(form.expected.contains("llm-provider 0015 §3.1"));
    let png = mmconform_media::generate("image/png", NONCE);
    let wrong_mime = [call(
        1,
        json!([text(), image_url("application/octet-stream", &png)]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent("image", "image/png"),
        &wrong_mime,
        NONCE,
        Answered::Success,
    );
    assert!(checks(&got).contains(&("witness.mime", false)), "{got:?}");
    let reversed = [call(1, json!([image_url("image/png", &png), text()]))];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent("image", "image/png"),
        &reversed,
        NONCE,
        Answered::Success,
    );
    let order = got.iter().find(|a| a.check == "witness.order").unwrap();
    assert!(!order.passed);
    assert_eq!(order.actual, "the model received them as: image, text");
}

#[test]
fn audio_goes_as_input_audio_with_the_format_of_its_bytes() {
    let wav = mmconform_media::generate("audio/wav", NONCE);
    let sent = sent("audio", "audio/wav");
    let good = [call(
        1,
        json!([text(), {"type": "input_audio",
        "input_audio": {"data": b64(&wav), "format": "wav"}}]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &good,
        NONCE,
        Answered::Success,
    );
    assert!(got.iter().all(|a| a.passed), "{got:?}");
    let mp3 = [call(
        1,
        json!([text(), {"type": "input_audio",
        "input_audio": {"data": b64(&wav), "format": "mp3"}}]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &mp3,
        NONCE,
        Answered::Success,
    );
    assert!(checks(&got).contains(&("witness.mime", false)), "{got:?}");
}

#[test]
fn withheld_names_what_the_host_answered() {
    let seen = [call(9, json!([text()]))];
    let refused = judge(
        WitnessExpectation::Withheld,
        DeliveryExpectation::default(),
        &[],
        &seen,
        NONCE,
        Answered::Refused,
    );
    assert!(!refused[0].passed);
    assert_eq!(
        refused[0].actual,
        "refused, but the model saw it: the model received: text only (call 9)"
    );
    let accepted = judge(
        WitnessExpectation::Withheld,
        DeliveryExpectation::default(),
        &[],
        &seen,
        NONCE,
        Answered::Success,
    );
    assert!(
        accepted[0]
            .actual
            .starts_with("answered with success and forwarded to the model")
    );
    let kept = judge(
        WitnessExpectation::Withheld,
        DeliveryExpectation::default(),
        &[],
        &[],
        NONCE,
        Answered::Refused,
    );
    assert!(kept[0].passed);
}

#[test]
fn a_reference_is_found_by_any_media_part_of_the_call() {
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "{nonce}"}, {"$media": {"type": "image", "source": "url"}}]}]});
    let sent = sent_parts(&body, &|_| None, NONCE).unwrap();
    let calls = [call(
        1,
        json!([text(), {"type": "image_url",
        "image_url": {"url": "http://127.0.0.1:1/media/image.png"}}]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &calls,
        NONCE,
        Answered::Success,
    );
    assert!(got.iter().all(|a| a.passed), "{got:?}");
    assert!(!checks(&got).contains(&("witness.bytes", true)));
}

/// A referenced document the host read out as text: the text in its place cannot carry
/// the case's stamp (the file is the host's), so it counts as converted, a SHOULD-level
/// warning by default, never as lost; with nothing in its place it is lost; a
/// referenced picture read out is lost too.
#[test]
fn a_referenced_document_read_out_as_text_is_converted_and_nothing_in_its_place_is_lost() {
    let judge_ref = |kind: &str, content: Value| {
        let body = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "{nonce}"}, {"$media": {"type": kind, "source": "url"}}]}]});
        let sent = sent_parts(&body, &|_| None, NONCE).unwrap();
        judge(
            WitnessExpectation::Reached,
            DeliveryExpectation::default(),
            &sent,
            &[call(1, content)],
            NONCE,
            Answered::Success,
        )
    };
    let read_out = json!([text(), {"type": "text", "text": "Quarterly report, page 1"}]);
    let got = judge_ref("document", read_out.clone());
    assert_eq!(
        checks(&got),
        [
            ("witness.reached", true),
            ("witness.bytes", false),
            ("witness.text", true)
        ],
        "{got:?}"
    );
    assert_eq!(got[1].level, Some(Level::Should));
    assert!(
        got[1].actual.contains("converted to text"),
        "{}",
        got[1].actual
    );

    let got = judge_ref("document", json!([text()]));
    assert_eq!(checks(&got), [("witness.reached", false)], "{got:?}");
    assert!(got[0].actual.contains("(lost)"), "{}", got[0].actual);

    let got = judge_ref("image", read_out);
    assert_eq!(checks(&got), [("witness.reached", false)], "{got:?}");
}

#[test]
fn a_gateway_that_drops_detail_or_renames_a_file_is_told_what_changed() {
    let png = mmconform_media::generate("image/png", NONCE);
    let pdf = mmconform_media::generate("application/pdf", NONCE);
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "what is this? {nonce}"},
        {"$media": {"type": "image", "mime": "image/png", "detail": "low"}},
        {"$media": {"type": "document", "mime": "application/pdf", "filename": "r.pdf"}}]}]});
    let sent = sent_parts(&body, &|_| None, NONCE).unwrap();
    let file = |name: &str| {
        json!({"type": "file", "file": {"filename": name,
            "file_data": format!("data:application/pdf;base64,{}", b64(&pdf))}})
    };
    let kept = [call(
        1,
        json!([text(), {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", b64(&png)), "detail": "low"}}, file("r.pdf")]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &kept,
        NONCE,
        Answered::Success,
    );
    assert!(got.iter().all(|a| a.passed), "{got:?}");
    assert!(checks(&got).contains(&("witness.filename", true)));
    let changed = [call(
        2,
        json!([text(), image_url("image/png", &png), file("my_file.pdf")]),
    )];
    let got = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &changed,
        NONCE,
        Answered::Success,
    );
    let failed: Vec<&AssertionResult> = got.iter().filter(|a| !a.passed).collect();
    assert_eq!(failed.len(), 2, "{got:?}");
    assert_eq!(failed[0].check, "witness.detail");
    assert!(
        failed[0].actual.contains("detail absent"),
        "{}",
        failed[0].actual
    );
    assert_eq!(failed[1].check, "witness.filename");
    assert!(
        failed[1].actual.contains("my_file.pdf"),
        "{}",
        failed[1].actual
    );
    assert!(failed.iter().all(|a| a.level == Some(Level::Should)));
}

/// `body` as the witness decodes a call to `wire`.
fn call_on(wire: Wire, seq: u64, body: Value) -> ModelCall {
    let body = body.to_string();
    decode_call(wire, "/", body.as_bytes(), &Limits::default(), seq)
}

#[test]
fn responses_and_gemini_calls_are_judged_by_the_same_checks_in_their_own_forms() {
    let png = mmconform_media::generate("image/png", NONCE);
    let sent = sent("image", "image/png");
    let responses = call_on(
        Wire::OpenaiResponses,
        1,
        json!({"input": [{"role": "user", "content": [
            {"type": "input_text", "text": format!("what is this? {NONCE}")},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{}", b64(&png)), "detail": "auto"},
        ]}]}),
    );
    let gemini = call_on(
        Wire::Gemini,
        2,
        json!({"contents": [{"parts": [
            {"text": format!("what is this? {NONCE}")},
            {"inline_data": {"mime_type": "image/png", "data": b64(&png)}},
        ]}]}),
    );
    for (call, detail) in [(responses, true), (gemini, false)] {
        let got = judge(
            WitnessExpectation::Reached,
            DeliveryExpectation::default(),
            &sent,
            &[call],
            NONCE,
            Answered::Success,
        );
        let mut want = vec![
            ("witness.reached", true),
            ("witness.bytes", true),
            ("witness.form", true),
            ("witness.mime", true),
        ];
        // A detail not set may arrive as `auto` on input_image; Gemini has no detail.
        if detail {
            want.push(("witness.detail", true));
        }
        want.extend([("witness.order", true), ("witness.text", true)]);
        assert_eq!(checks(&got), want);
    }
}

#[test]
fn a_token_count_never_counts_as_the_model_reading_the_input() {
    let png = mmconform_media::generate("image/png", NONCE);
    let body = json!({"contents": [{"parts": [
        {"text": format!("what is this? {NONCE}")},
        {"inlineData": {"mimeType": "image/png", "data": b64(&png)}},
    ]}]});
    let count = call_on(Wire::GeminiCountTokens, 1, body.clone());
    assert!(count.carries(NONCE));
    let sent = sent("image", "image/png");
    let calls = [count.clone()];
    let reached = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &calls,
        NONCE,
        Answered::Success,
    );
    assert_eq!(checks(&reached), [("witness.reached", false)]);
    let withheld = judge(
        WitnessExpectation::Withheld,
        DeliveryExpectation::default(),
        &sent,
        &calls,
        NONCE,
        Answered::Refused,
    );
    assert_eq!(checks(&withheld), [("witness.withheld", true)]);
    // With the real call beside it, that one is judged.
    let calls = [count, call_on(Wire::Gemini, 2, body)];
    let reached = judge(
        WitnessExpectation::Reached,
        DeliveryExpectation::default(),
        &sent,
        &calls,
        NONCE,
        Answered::Success,
    );
    assert!(reached.iter().all(|a| a.passed));
    assert!(
        reached[0].actual.contains("(call 2)"),
        "{}",
        reached[0].actual
    );
}
