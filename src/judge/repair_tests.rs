use super::*;
use crate::judge::witness::{Answered, judge as witness_judge};
use crate::request::sent::sent_parts;
use crate::scenario::model::DeliveryExpectation;
use crate::scenario::model::WitnessExpectation;
use crate::witness::{Limits, Wire, decode_call};
use base64::Engine as _;
use serde_json::{Value, json};

const NONCE: &str = "rp12-c3";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// What a case sent: a text, then a `$media` spec.
fn sent(media: Value) -> Vec<SentPart> {
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "malformed {nonce}"}, {"$media": media}]}]});
    sent_parts(&body, &|_| None, NONCE).unwrap()
}

fn chat(content: Value) -> ModelCall {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": content}]});
    decode_call(
        Wire::OpenaiChat,
        "/v1/chat/completions",
        body.to_string().as_bytes(),
        &Limits::default(),
        7,
    )
}

fn text() -> Value {
    json!({"type": "text", "text": format!("malformed {NONCE}")})
}

fn judged(sent: &[SentPart], calls: &[ModelCall]) -> AssertionResult {
    let all = witness_judge(
        WitnessExpectation::WithheldOrRepaired,
        DeliveryExpectation::default(),
        sent,
        calls,
        NONCE,
        Answered::Success,
    );
    assert_eq!(all.len(), 1, "{all:?}");
    all.into_iter().next().unwrap()
}

#[test]
fn nothing_forwarded_passes() {
    let a = judged(&sent(json!({"type": "image", "mime": "image/png"})), &[]);
    assert!(a.passed);
    assert_eq!(a.check, "witness.withheld");
}

#[test]
fn forwarded_as_malformed_fails_at_the_cases_level_naming_the_problem() {
    let png = mmconform_media::generate("image/png", NONCE);
    let garbage = json!([text(), {"type": "image_url",
        "image_url": {"url": format!("data:;base64,{}", b64(&png))}}]);
    let a = judged(
        &sent(json!({"type": "image", "mime": "image/png", "omit": ["mimeType"]})),
        &[chat(garbage)],
    );
    assert!(!a.passed);
    assert_eq!(a.check, "witness.withheld");
    assert_eq!(a.level, None, "the case's level (MUST) applies");
    assert!(a.actual.contains("forwarded as malformed"), "{}", a.actual);
    assert!(a.actual.contains("DataUrlWithoutMime"), "{}", a.actual);
}

#[test]
fn repaired_into_a_valid_call_is_a_should_naming_what_changed() {
    let png = mmconform_media::generate("image/png", NONCE);
    let repaired = json!([text(), {"type": "image_url",
        "image_url": {"url": format!("data:image/png;base64,{}", b64(&png))}}]);
    let a = judged(
        &sent(json!({"type": "image", "mime": "image/png", "omit": ["mimeType"]})),
        &[chat(repaired)],
    );
    assert!(!a.passed);
    assert_eq!(a.check, "witness.repaired");
    assert_eq!(a.level, Some(Level::Should));
    assert!(
        a.actual
            .contains("added the MIME type image/png (none was sent)"),
        "{}",
        a.actual
    );
    assert!(a.actual.contains("repaired into a valid openai.chat call"));
}

#[test]
fn a_dropped_part_is_reported_as_dropped_never_as_forwarded() {
    let sent = sent(json!({"type": "input_hologram", "mime": "image/png"}));
    let a = judged(&sent, &[chat(json!([text()]))]);
    assert_eq!(a.level, Some(Level::Should));
    assert!(
        a.actual.contains("dropped the input_hologram part"),
        "{}",
        a.actual
    );
    assert!(
        a.actual.contains("the model received: text only"),
        "{}",
        a.actual
    );
    // `withheld` (refusal cases) says the same of a drop.
    let strict = witness_judge(
        WitnessExpectation::Withheld,
        DeliveryExpectation::default(),
        &sent,
        &[chat(json!([text()]))],
        NONCE,
        Answered::Success,
    );
    assert!(!strict[0].passed);
    assert!(strict[0].actual.contains("dropped the input_hologram part"));
}

#[test]
fn an_invented_filename_is_reported_only_when_none_was_sent() {
    let sent = sent(json!({"type": "document", "mime": "application/pdf", "omit": ["filename"]}));
    let SentPart::Media(m) = &sent[1] else {
        panic!("{sent:?}")
    };
    let mut part = Part::new(Some(0), "user", 1, "/messages/0/content/1".into());
    part.filename = Some("my_file.pdf".into());
    let named = invented_filename(m, &part).unwrap();
    assert!(
        named.contains("\"my_file.pdf\" the gateway invented"),
        "{named}"
    );
    let mut named_by_scenario = m.clone();
    named_by_scenario.filename = Some("mine.pdf".into());
    assert_eq!(invented_filename(&named_by_scenario, &part), None);
    // The protocol's default name was sent: nothing was invented.
    let mut defaulted = m.clone();
    defaulted.omitted.clear();
    assert_eq!(invented_filename(&defaulted, &part), None);
    part.filename = None;
    assert_eq!(invented_filename(m, &part), None);
}

#[test]
fn a_part_without_a_stamp_forwarded_is_named_as_it_arrived_not_as_dropped() {
    let sent = sent(json!({"type": "image", "mime": "image/png", "data": "not base64 !!!"}));
    let garbage = json!([text(), {"type": "image_url",
        "image_url": {"url": "data:image/png;base64,not base64 !!!"}}]);
    let a = judged(&sent, &[chat(garbage)]);
    assert_eq!(a.check, "witness.withheld");
    assert!(!a.actual.contains("dropped"), "{}", a.actual);
    assert!(
        a.actual
            .contains("the image part (image/png (literal data)) arrived as"),
        "{}",
        a.actual
    );
    let unknown = sent_unknown();
    let forwarded = json!([text(), {"type": "input_hologram", "x": 1}]);
    let a = judged(&unknown, &[chat(forwarded)]);
    assert!(a.actual.contains("the input_hologram part"), "{}", a.actual);
    assert!(!a.actual.contains("dropped"), "{}", a.actual);
}

fn sent_unknown() -> Vec<SentPart> {
    sent(json!({"type": "input_hologram", "mime": "image/png"}))
}
