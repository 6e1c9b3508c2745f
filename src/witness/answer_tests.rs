use super::*;
use crate::witness::record::{Problem, ProblemCode};
use serde_json::Value;

fn call() -> ModelCall {
    let mut image = Part::new(Some(0), "user", 0, "/messages/0/content/0".into());
    image.kind = PartKind::Image;
    image.wire_form = "image_url".into();
    image.mime = Some("image/png".into());
    image.source = Some(SourceKind::Data);
    image.bytes = Some(1234);
    image.stamps = vec!["abcd-p0".into()];
    let mut text = Part::new(Some(0), "user", 1, "/messages/0/content/1".into());
    text.kind = PartKind::Text;
    text.wire_form = "text".into();
    text.text_bytes = Some(12);
    let mut call = crate::witness::log::tests::call(3, "x");
    call.parts = vec![image, text];
    call.parts_total = 2;
    call
}

#[test]
fn the_text_names_each_part_and_its_nonce() {
    assert_eq!(
        saw(&call()),
        "mmconform witness saw call 3 (openai.chat): image_url image/png 1234 B nonce abcd-p0; text 12 B"
    );
    let mut with_problems = call();
    with_problems
        .problems
        .push(Problem::new(ProblemCode::EmptyContent, "p1"));
    with_problems.problems_dropped = 4;
    with_problems.parts_total = 40;
    let text = saw(&with_problems);
    assert!(text.contains("and 38 more part(s)"), "{text}");
    assert!(text.ends_with(". 5 problem(s): p1"), "{text}");
}

/// The `data:` payloads of an SSE body, in order.
fn data_lines(body: &str) -> Vec<&str> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect()
}

#[test]
fn the_openai_stream_is_chunks_then_done() {
    let body = openai_chunks(3, "m", "hello there", true);
    let data = data_lines(&body);
    assert_eq!(data.last(), Some(&"[DONE]"));
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    assert_eq!(chunks.len(), 4);
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(text, "hello there");
    assert_eq!(chunks[2]["choices"][0]["finish_reason"], "stop");
    assert_eq!(chunks[3]["usage"]["completion_tokens"], 2);
    assert!(
        chunks
            .iter()
            .all(|c| c["object"] == "chat.completion.chunk")
    );
    assert_eq!(data_lines(&openai_chunks(3, "m", "x", false)).len(), 4);
}

#[test]
fn the_anthropic_stream_has_its_events_in_order() {
    let body = anthropic_events(3, "claude", "seen");
    let names: Vec<&str> = body
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    assert_eq!(
        names,
        [
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop"
        ]
    );
    let data: Vec<Value> = data_lines(&body)
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    for (name, event) in names.iter().zip(&data) {
        assert_eq!(event["type"], *name);
    }
    assert_eq!(data[0]["message"]["content"], serde_json::json!([]));
    assert_eq!(data[2]["delta"]["text"], "seen");
    assert_eq!(data[4]["delta"]["stop_reason"], "end_turn");
}

#[test]
fn completions_carry_the_text_and_errors_take_each_wire_shape() {
    let completion = openai_completion(1, "m", "t");
    assert_eq!(completion["choices"][0]["message"]["content"], "t");
    assert_eq!(completion["object"], "chat.completion");
    let message = anthropic_message(1, "c", "t");
    assert_eq!(message["content"][0]["text"], "t");
    assert_eq!(message["stop_reason"], "end_turn");
    let models = models("mmconform-witness");
    assert_eq!(models["data"][0]["id"], "mmconform-witness");
    let r = error(Wire::OpenaiChat, StatusCode::BAD_REQUEST, "bad");
    assert_eq!(r.status(), 400);
    let r = error(
        Wire::AnthropicMessages,
        StatusCode::PAYLOAD_TOO_LARGE,
        "big",
    );
    assert_eq!(r.status(), 413);
}
