use super::*;
use crate::witness::config::Limits;
use crate::witness::decode::decode;
use crate::witness::record::Wire;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

fn call(wire: Wire, body: &Value) -> ModelCall {
    decode(wire, body.to_string().as_bytes(), &Limits::default()).into_call(
        1,
        wire,
        "/v1/x",
        String::new(),
        0,
    )
}

fn user(content: Value) -> ModelCall {
    call(
        Wire::OpenaiChat,
        &json!({"messages": [{"role": "user", "content": content}]}),
    )
}

fn image(mime: &str, nonce: &str) -> Value {
    let b64 = STANDARD.encode(mmconform_media::generate(mime, nonce));
    json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{b64}")}})
}

/// (check, passed) of every assertion.
fn verdicts(call: &ModelCall) -> Vec<(&'static str, bool)> {
    judge(call)
        .into_iter()
        .map(|a| {
            let check = RULES
                .iter()
                .map(|r| r.check)
                .chain([PART_ORDER])
                .find(|c| *c == a.check)
                .unwrap();
            (check, a.passed)
        })
        .collect()
}

fn failed(call: &ModelCall) -> Vec<&'static str> {
    verdicts(call)
        .into_iter()
        .filter(|(_, passed)| !passed)
        .map(|(c, _)| c)
        .collect()
}

#[test]
fn a_good_call_passes_every_rule_that_applies_and_only_those() {
    let good = user(json!([
        {"type": "text", "text": "what is this?"},
        image("image/png", "n-p0"),
        image("image/webp", "n-p1"),
    ]));
    assert_eq!(
        verdicts(&good),
        [
            ("request", true),
            ("content-not-empty", true),
            ("text-not-empty", true),
            ("part-types", true),
            ("data-url", true),
            ("detail", true),
            ("media-on-user", true),
            ("media-matches-bytes", true),
            ("part-order", true),
        ]
    );
    let text_only = user(json!("hello"));
    let checks: Vec<&str> = verdicts(&text_only).iter().map(|(c, _)| *c).collect();
    assert_eq!(
        checks,
        [
            "request",
            "content-not-empty",
            "text-not-empty",
            "part-types"
        ]
    );
}

#[test]
fn each_rule_fails_on_its_own_problem() {
    let wav = STANDARD.encode(mmconform_media::generate("audio/wav", "a"));
    let pdf = STANDARD.encode(mmconform_media::generate("application/pdf", "d"));
    let cases = [
        (json!([{"type": "text", "text": ""}]), "text-not-empty"),
        (json!([{"type": "image", "data": "x"}]), "part-types"),
        (
            json!([{"type": "image_url", "image_url": {"url": "data:;base64,AAAA"}}]),
            "data-url",
        ),
        (
            json!([{"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": "max"}}]),
            "detail",
        ),
        (image("application/pdf", "d"), "media-matches-bytes"),
        (
            json!([{"type": "input_audio", "input_audio": {"data": wav, "format": "mp3"}}]),
            "audio-format",
        ),
        (
            json!([{"type": "file", "file": {"file_data": format!("data:application/pdf;base64,{pdf}")}}]),
            "file-fields",
        ),
        (json!([]), "content-not-empty"),
    ];
    for (content, rule) in cases {
        let content = if content.is_array() {
            content
        } else {
            json!([content])
        };
        assert_eq!(failed(&user(content.clone())), [rule], "{content}");
    }
    let system_image = call(
        Wire::OpenaiChat,
        &json!({"messages": [{"role": "system", "content": [image("image/png", "n")]}]}),
    );
    assert_eq!(failed(&system_image), ["media-on-user"]);
    let malformed = decode(Wire::OpenaiChat, b"{oops", &Limits::default()).into_call(
        1,
        Wire::OpenaiChat,
        "/v1/chat/completions",
        String::new(),
        5,
    );
    assert_eq!(verdicts(&malformed), [("request", false)]);
}

#[test]
fn part_order_follows_the_stamp_indices_within_a_message() {
    let swapped = user(json!([
        image("image/png", "n-p1"),
        image("image/png", "n-p0")
    ]));
    assert_eq!(failed(&swapped), ["part-order"]);
    let assertion = judge(&swapped)
        .into_iter()
        .find(|a| a.check == PART_ORDER)
        .unwrap();
    assert_eq!(
        assertion.actual,
        "n-p0 at /messages/0/content/1 comes after n-p1 at /messages/0/content/0"
    );
    // Gaps, other bases and other messages do not count; one stamp reveals nothing.
    let gaps = user(json!([
        image("image/png", "n-p0"),
        image("image/png", "m-p0"),
        image("image/png", "n-p5")
    ]));
    assert!(failed(&gaps).is_empty());
    let apart = call(
        Wire::OpenaiChat,
        &json!({"messages": [
            {"role": "user", "content": [image("image/png", "n-p1")]},
            {"role": "user", "content": [image("image/png", "n-p0")]},
        ]}),
    );
    assert!(!verdicts(&apart).iter().any(|(c, _)| *c == PART_ORDER));
}

#[test]
fn indexed_stamps_are_read_strictly() {
    assert_eq!(indexed("abc-p0"), Some(("abc", 0)));
    assert_eq!(indexed("a-pb-p12"), Some(("a-pb", 12)));
    for plain in ["abc", "abc-p", "-p1", "abc-px", "abc-p1x"] {
        assert_eq!(indexed(plain), None, "{plain}");
    }
}

#[test]
fn problems_of_parts_past_the_cap_still_break_their_rule() {
    let limits = Limits {
        max_parts_per_call: 1,
        ..Limits::default()
    };
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "text", "text": "ok"},
        {"type": "input_audio", "input_audio": {"data": "%%", "format": "wav"}},
    ]}]});
    let call = decode(Wire::OpenaiChat, body.to_string().as_bytes(), &limits).into_call(
        1,
        Wire::OpenaiChat,
        "/v1/chat/completions",
        String::new(),
        0,
    );
    assert_eq!(call.parts.len(), 1);
    assert_eq!(failed(&call), ["data-url"]);
}

#[test]
fn anthropic_calls_are_judged_by_the_rules_that_fit() {
    let b64 = STANDARD.encode(mmconform_media::generate("image/png", "n"));
    let body = json!({"messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": b64}},
    ]}]});
    let call = call(Wire::AnthropicMessages, &body);
    assert_eq!(failed(&call), ["media-matches-bytes"]);
    assert!(!verdicts(&call).iter().any(|(c, _)| *c == "detail"));
}
