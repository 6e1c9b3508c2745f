//! Delivery outcomes as `witness: reached` judges them: a re-encoded or scaled picture
//! and a resampled sound pass with a note, a placeholder fails, a document's text is
//! its own outcome.

use super::super::witness::{Answered, judge};
use crate::outcome::{AssertionResult, DeliveryOutcome, Level};
use crate::request::sent::{SentPart, sent_parts};
use crate::scenario::model::{DeliveryExpectation, WitnessExpectation};
use crate::witness::{Limits, ModelCall, Wire, decode_call};
use base64::Engine as _;
use serde_json::{Value, json};

/// A case nonce of the run form, so generated files carry a content stamp.
const NONCE: &str = "5eed0123456789ab-c17";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn sent(kind: &str, mime: &str) -> Vec<SentPart> {
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "what is this? {nonce}"},
        {"$media": {"type": kind, "mime": mime}}]}]});
    sent_parts(&body, &|_| None, NONCE).unwrap()
}

fn call(content: Value) -> ModelCall {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": content}]});
    let body = body.to_string();
    decode_call(
        Wire::OpenaiChat,
        "/v1/chat/completions",
        body.as_bytes(),
        &Limits::default(),
        3,
    )
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

fn prompt() -> Value {
    text(&format!("what is this? {NONCE}"))
}

fn image_url(mime: &str, bytes: &[u8]) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{}", b64(bytes))}})
}

fn run(want: DeliveryExpectation, sent: &[SentPart], content: Value) -> Vec<AssertionResult> {
    judge(
        WitnessExpectation::Reached,
        want,
        sent,
        &[call(content)],
        NONCE,
        Answered::Success,
    )
}

fn get<'a>(got: &'a [AssertionResult], check: &str) -> &'a AssertionResult {
    got.iter()
        .find(|a| a.check == check)
        .unwrap_or_else(|| panic!("no {check} in {got:?}"))
}

/// The generated GIF, halved and written as a PNG (what Codex-like agents do).
fn gif_as_half_size_png() -> (Vec<u8>, Vec<u8>) {
    use mmconform_media::transform::{reencode_image, scale_image};
    let gif = mmconform_media::generate("image/gif", NONCE);
    let png = reencode_image(&scale_image(&gif, 50).unwrap(), "image/png").unwrap();
    (gif, png)
}

#[test]
fn a_re_encoded_and_scaled_picture_reaches_the_model_with_a_note() {
    let (gif, png) = gif_as_half_size_png();
    let got = run(
        DeliveryExpectation::default(),
        &sent("image", "image/gif"),
        json!([prompt(), image_url("image/png", &png)]),
    );
    assert!(got.iter().all(|a| a.passed), "{got:#?}");
    let reached = get(&got, "witness.reached");
    let note = format!(
        "transformed: image/gif {} -> image/png {}, 104x104 -> 52x52, same picture",
        crate::request::sent::size(gif.len() as u64),
        crate::request::sent::size(png.len() as u64)
    );
    assert!(reached.actual.contains(&note), "{}", reached.actual);
    let bytes = get(&got, "witness.bytes");
    let delivery = bytes.delivery.as_ref().unwrap();
    assert_eq!(delivery.outcome, DeliveryOutcome::Transformed);
    assert!(
        bytes.actual.starts_with("transformed: "),
        "{}",
        bytes.actual
    );
    // The declared type is judged against what the part carries now.
    assert!(get(&got, "witness.mime").passed);
}

#[test]
fn a_case_that_asks_for_intact_bytes_fails_a_transformed_part() {
    let (_, png) = gif_as_half_size_png();
    let got = run(
        DeliveryExpectation::Intact,
        &sent("image", "image/gif"),
        json!([prompt(), image_url("image/png", &png)]),
    );
    assert!(get(&got, "witness.reached").passed);
    let bytes = get(&got, "witness.bytes");
    assert!(!bytes.passed && bytes.level.is_none(), "{bytes:?}");
    assert!(bytes.expected.contains("expect.delivery: intact"));
}

#[test]
fn intact_bytes_pass_with_no_note() {
    let png = mmconform_media::generate("image/png", NONCE);
    let got = run(
        DeliveryExpectation::Intact,
        &sent("image", "image/png"),
        json!([prompt(), image_url("image/png", &png)]),
    );
    assert!(got.iter().all(|a| a.passed), "{got:#?}");
    assert!(!get(&got, "witness.reached").actual.contains("transformed"));
    let bytes = get(&got, "witness.bytes");
    assert_eq!(
        bytes.delivery.as_ref().map(|d| d.outcome),
        Some(DeliveryOutcome::Intact)
    );
}

#[test]
fn a_placeholder_a_file_name_or_a_description_is_never_a_delivery() {
    for stand_in in [
        "[image]",
        "p0-image.gif",
        "An image of a blue and yellow grid.",
    ] {
        let got = run(
            DeliveryExpectation::Text,
            &sent("image", "image/gif"),
            json!([prompt(), text(stand_in)]),
        );
        let reached = get(&got, "witness.reached");
        assert!(!reached.passed, "{stand_in}");
        assert!(reached.actual.contains("(lost)"), "{}", reached.actual);
    }
}

#[test]
fn a_picture_reduced_to_text_fails_and_a_document_reduced_to_text_is_its_own_outcome() {
    let stamp_text = text(&format!("Page 1: mmconform-nonce:{NONCE}"));
    let got = run(
        DeliveryExpectation::Text,
        &sent("image", "image/png"),
        json!([prompt(), stamp_text.clone()]),
    );
    let reached = get(&got, "witness.reached");
    assert!(!reached.passed);
    assert!(
        reached.actual.contains("converted to text"),
        "{}",
        reached.actual
    );

    let pdf = sent("document", "application/pdf");
    let outcome = |want| {
        let got = run(want, &pdf, json!([prompt(), stamp_text.clone()]));
        assert!(get(&got, "witness.reached").passed, "{got:#?}");
        let bytes = get(&got, "witness.bytes").clone();
        assert_eq!(
            bytes.delivery.as_ref().map(|d| d.outcome),
            Some(DeliveryOutcome::ConvertedToText)
        );
        (bytes.passed, bytes.level)
    };
    assert_eq!(outcome(DeliveryExpectation::Text), (true, None));
    assert_eq!(
        outcome(DeliveryExpectation::Transformed),
        (false, Some(Level::Should))
    );
    assert_eq!(outcome(DeliveryExpectation::Intact), (false, None));
}

#[test]
fn a_resampled_sound_in_another_format_reaches_the_model_with_a_note() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/media/fixtures/transformed/lame-44k1-stereo-48kbps.mp3"
    );
    let mp3 = std::fs::read(path).unwrap();
    let got = run(
        DeliveryExpectation::default(),
        &sent("audio", "audio/wav"),
        json!([prompt(), {"type": "input_audio", "input_audio": {"data": b64(&mp3), "format": "mp3"}}]),
    );
    let reached = get(&got, "witness.reached");
    assert!(reached.passed, "{got:#?}");
    assert!(
        reached
            .actual
            .contains("8000 Hz mono -> 22050 Hz stereo, same sound"),
        "{}",
        reached.actual
    );
    assert!(get(&got, "witness.bytes").passed);
    assert!(get(&got, "witness.mime").passed, "{got:#?}");
}

#[test]
fn a_stamped_file_whose_content_is_not_the_one_sent_is_altered() {
    // The metadata stamp survives, but the picture is another one (another nonce's).
    let mut other = mmconform_media::generate("image/png", "ffff0123456789ab-c1");
    let ours = mmconform_media::generate("image/png", NONCE);
    other.extend_from_slice(format!("mmconform-nonce:{NONCE} ").as_bytes());
    assert_ne!(other.len(), ours.len());
    let got = run(
        DeliveryExpectation::default(),
        &sent("image", "image/png"),
        json!([prompt(), image_url("image/png", &other)]),
    );
    assert!(get(&got, "witness.reached").passed);
    let bytes = get(&got, "witness.bytes");
    assert!(!bytes.passed);
    assert_eq!(
        bytes.delivery.as_ref().map(|d| d.outcome),
        Some(DeliveryOutcome::Altered)
    );
}

#[test]
fn a_file_cut_short_is_altered_even_when_a_lenient_decoder_still_reads_it() {
    let jpeg = mmconform_media::generate("image/jpeg", NONCE);
    let cut = &jpeg[..jpeg.len() - 1];
    assert_eq!(
        mmconform_media::content::read(cut, &Default::default())
            .ok()
            .and_then(|c| c.nonce().map(str::to_string))
            .as_deref(),
        Some(NONCE),
        "the picture still reads without its last byte"
    );
    let got = run(
        DeliveryExpectation::default(),
        &sent("image", "image/jpeg"),
        json!([prompt(), image_url("image/jpeg", cut)]),
    );
    let bytes = get(&got, "witness.bytes");
    assert!(!bytes.passed, "{bytes:?}");
    assert!(bytes.actual.contains("cut short"), "{}", bytes.actual);
}
