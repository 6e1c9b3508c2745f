use super::*;
use crate::witness::record::{Problem, ProblemCode};

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

#[test]
fn completions_carry_the_text_and_errors_take_each_wire_shape() {
    let completion = chat_answer::completion(1, "m", "t");
    assert_eq!(completion["choices"][0]["message"]["content"], "t");
    assert_eq!(completion["object"], "chat.completion");
    let message = anthropic_answer::message(1, "c", "t");
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
