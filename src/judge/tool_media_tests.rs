use super::*;
use crate::tool_media::{Directive, TOOL_NAME, label};
use crate::witness::{Limits, Wire, decode_call};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

const CASE: &str = "0123456789abcdef-c4";
const NAME: &str = "mcp__mmconform__mmconform_tool_media";

/// A Chat request of the case; with `result`, the tool call and its result follow.
fn call(seq: u64, result: Option<Value>) -> ModelCall {
    let prompt = format!("Use the tool. {}", Directive::text(CASE, "png"));
    let mut messages = vec![json!({"role": "user", "content": prompt})];
    if let Some(result) = result {
        messages.push(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_mmconform_1", "type": "function", "function": {"name": NAME, "arguments": "{}"}}]}));
        messages
            .push(json!({"role": "tool", "tool_call_id": "call_mmconform_1", "content": result}));
    }
    let body = json!({"model": "m", "messages": messages,
        "tools": [{"type": "function", "function": {"name": NAME}}]});
    decode_call(
        Wire::OpenaiChat,
        "/v1/chat/completions",
        body.to_string().as_bytes(),
        &Limits::default(),
        seq,
    )
}

/// The two calls of a case on `wire`: the first asks for the tool (`body(false)`), the
/// second carries its result (`body(true)`); the witness answered the first with the
/// tool call and the second with text.
fn asked_then_answered(wire: Wire, path: &str, body: impl Fn(bool) -> Value) -> [ModelCall; 2] {
    let decode = |seq, with_result| {
        decode_call(
            wire,
            path,
            body(with_result).to_string().as_bytes(),
            &Limits::default(),
            seq,
        )
    };
    let calls = [decode(1, false), decode(2, true)];
    assert!(calls[0].tool_call.is_some() && calls[1].tool_call.is_none());
    calls
}

fn called() -> ServerLog {
    ServerLog::parse(&format!(
        r#"{{"at":0,"pid":1,"dir":"in","method":"tools/call","case":"{CASE}","medium":"png"}}"#
    ))
}

fn image(bytes: &[u8]) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{}", STANDARD.encode(bytes))}})
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

fn outcome(medium: Medium, result: Value) -> (ToolOutcome, AssertionResult) {
    let calls = [call(1, None), call(2, Some(result))];
    match judge(medium, CASE, &calls, &called()) {
        Judged::Assertion(outcome, assertion) => (outcome, assertion),
        Judged::Blocked(why) => panic!("blocked: {why}"),
    }
}

fn medium_bytes(medium: Medium) -> Vec<u8> {
    medium.sent(CASE).bytes.unwrap()
}

#[test]
fn the_same_image_is_intact_and_a_resized_one_transformed() {
    let bytes = medium_bytes(Medium::Png);
    let (o, a) = outcome(Medium::Png, json!([text(&label(CASE)), image(&bytes)]));
    assert_eq!(o, ToolOutcome::Intact, "{}", a.actual);
    assert!(a.passed);
    let large = medium_bytes(Medium::LargePng);
    let resized = media::transform::scale_image(&large, 50).unwrap();
    let (o, a) = outcome(
        Medium::LargePng,
        json!([text(&label(CASE)), image(&resized)]),
    );
    assert_eq!(o, ToolOutcome::Transformed, "{}", a.actual);
    assert!(
        a.passed && a.actual.contains("2080x520 -> 1040x260"),
        "{}",
        a.actual
    );
}

#[test]
fn a_missing_image_is_a_silent_drop_unless_the_host_says_so() {
    let (o, a) = outcome(Medium::Png, json!([text(&label(CASE))]));
    assert_eq!(o, ToolOutcome::DroppedSilently);
    assert!(!a.passed && a.level.is_none(), "MUST");
    let claim = json!([
        text(&label(CASE)),
        text("[Image: provided the following image data]")
    ]);
    assert_eq!(outcome(Medium::Png, claim).0, ToolOutcome::DroppedSilently);
    let notice = json!([
        text(&label(CASE)),
        text("[image omitted: this model cannot take images]")
    ]);
    let (o, a) = outcome(Medium::Png, notice);
    assert_eq!(o, ToolOutcome::DroppedWithNotice);
    assert_eq!((a.passed, a.level), (false, Some(Level::Should)));
    let (o, _) = outcome(Medium::Png, json!("the tool ran"));
    assert_eq!(o, ToolOutcome::DroppedSilently, "no label, no medium");
}

/// A note standing for the medium (what it was, or where it went) is the medium
/// converted to text (issue 34: "a note, a path"), a warning; a note that claims the
/// medium was provided stays a silent drop.
#[test]
fn a_note_or_a_path_in_place_of_the_medium_is_converted_to_text() {
    for note in [
        "[audio: audio/wav]",
        "[Image: screenshot.png]",
        "The image was saved to /tmp/agent/tool-1.png",
    ] {
        let (o, a) = outcome(Medium::Wav, json!([text(&label(CASE)), text(note)]));
        assert_eq!(o, ToolOutcome::ConvertedToText, "{note}: {}", a.actual);
        assert_eq!((a.passed, a.level), (false, Some(Level::Should)), "{note}");
        assert!(a.actual.contains("a note standing for"), "{}", a.actual);
    }
    let claim = json!([
        text(&label(CASE)),
        text("[Image: provided the following image data]")
    ]);
    let (o, a) = outcome(Medium::Png, claim);
    assert_eq!(o, ToolOutcome::DroppedSilently, "{}", a.actual);
    assert!(a.actual.contains("claiming"), "{}", a.actual);
}
#[test]
fn the_medium_as_text_is_converted_and_text_media_are_intact_as_text() {
    let nonce = medium_nonce(CASE);
    let as_text = json!([
        text(&label(CASE)),
        text(&format!("saved: mmconform-nonce:{nonce}"))
    ]);
    let (o, a) = outcome(Medium::Png, as_text.clone());
    assert_eq!(o, ToolOutcome::ConvertedToText, "{}", a.actual);
    assert_eq!(a.level, Some(Level::Should));
    assert!(
        a.actual
            .ends_with(&format!(": \"saved: mmconform-nonce:{nonce}\"")),
        "{}",
        a.actual
    );
    let (o, a) = outcome(Medium::TextOnly, as_text);
    assert_eq!(o, ToolOutcome::Intact, "{}", a.actual);
    let (o, _) = outcome(Medium::TextResource, json!([text(&label(CASE))]));
    assert_eq!(o, ToolOutcome::DroppedSilently);
}

#[test]
fn no_call_after_the_tool_call_is_a_broken_turn() {
    match judge(Medium::Png, CASE, &[call(1, None)], &called()) {
        Judged::Assertion(ToolOutcome::TurnBroken, a) => assert!(!a.passed),
        other => panic!("{other:?}"),
    }
}

#[test]
fn what_was_not_observed_is_blocked() {
    let Judged::Blocked(why) = judge(Medium::Png, CASE, &[], &called()) else {
        panic!("no call")
    };
    assert!(why.contains("never called its model"));
    let Judged::Blocked(why) = judge(
        Medium::Png,
        CASE,
        &[call(1, None), call(2, None)],
        &ServerLog::default(),
    ) else {
        panic!("the server was never called")
    };
    assert!(why.contains("never called the MCP server's tool"), "{why}");
    assert!(!why.contains("told instead"), "{why}");
    // The agent refused the call itself and told its model why: quoted as a hint.
    let refused = call(2, Some(json!("Auto mode is blocking this action")));
    let Judged::Blocked(why) = judge(
        Medium::Png,
        CASE,
        &[call(1, None), refused],
        &ServerLog::default(),
    ) else {
        panic!("the server was never called")
    };
    assert!(
        why.ends_with("the model was told instead: \"Auto mode is blocking this action\""),
        "{why}"
    );
    let mut undeclared = call(1, None);
    undeclared.tool_call = None;
    let Judged::Blocked(why) = judge(Medium::Png, CASE, &[undeclared], &called()) else {
        panic!("the tool was never offered")
    };
    assert!(why.contains(TOOL_NAME), "{why}");
    let mut searched = call(1, None);
    if let Some(made) = searched.tool_call.as_mut() {
        made.way = crate::witness::tools::Way::Search { tool: NAME.into() };
    }
    let Judged::Blocked(why) = judge(Medium::Png, CASE, &[searched], &called()) else {
        panic!("a search that never offered the tool")
    };
    assert!(why.contains("searched for the tool"), "{why}");
}

#[test]
fn an_image_inside_an_anthropic_tool_result_is_found() {
    let bytes = medium_bytes(Medium::Png);
    let body = |result: bool| {
        let prompt = format!("Use the tool. {}", Directive::text(CASE, "png"));
        let mut messages =
            vec![json!({"role": "user", "content": [{"type": "text", "text": prompt}]})];
        if result {
            messages.push(json!({"role": "assistant", "content": [
                {"type": "tool_use", "id": "t1", "name": NAME, "input": {}}]}));
            messages.push(
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                "content": [{"type": "text", "text": label(CASE)},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                        "data": STANDARD.encode(&bytes)}}]}]}),
            );
        }
        json!({"model": "claude", "max_tokens": 10, "messages": messages,
            "tools": [{"name": NAME, "input_schema": {"type": "object"}}]})
    };
    let calls = asked_then_answered(Wire::AnthropicMessages, "/v1/messages", body);
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::Intact, a) => assert!(a.passed),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_image_in_a_responses_function_call_output_is_found() {
    let bytes = medium_bytes(Medium::Png);
    let body = |result: bool| {
        let prompt = format!("Use the tool. {}", Directive::text(CASE, "png"));
        let mut input = vec![json!({"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": prompt}]})];
        if result {
            input.push(json!({"type": "function_call", "call_id": "c1", "name": "mmconform_tool_media", "arguments": "{}"}));
            input.push(json!({"type": "function_call_output", "call_id": "c1", "output": [
                {"type": "input_text", "text": label(CASE)},
                {"type": "input_image", "image_url": format!("data:image/png;base64,{}", STANDARD.encode(&bytes))}]}));
        }
        json!({"model": "gpt", "input": input, "tools": [{"type": "namespace", "name": "mcp__mmconform",
            "tools": [{"type": "function", "name": "mmconform_tool_media"}]}]})
    };
    let calls = asked_then_answered(Wire::OpenaiResponses, "/v1/responses", body);
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::Intact, a) => assert!(a.passed),
        other => panic!("{other:?}"),
    }
}

/// The two Gemini calls of a case whose tool result came back as `result` (the parts
/// of the user content after the model's `functionCall`), as Gemini CLI sends them.
fn gemini_calls(medium: &str, result: Value) -> [ModelCall; 2] {
    let name = "mcp_mmconform_mmconform_tool_media";
    let body = |with_result: bool| {
        let prompt = format!("Use the tool. {}", Directive::text(CASE, medium));
        let mut contents = vec![json!({"role": "user", "parts": [{"text": prompt}]})];
        if with_result {
            contents.push(
                json!({"role": "model", "parts": [{"functionCall": {"name": name, "args": {}}}]}),
            );
            contents.push(json!({"role": "user", "parts": result}));
        }
        json!({"contents": contents, "tools": [{"functionDeclarations": [{"name": name}]}]})
    };
    asked_then_answered(Wire::Gemini, "/v1beta/models/m:streamGenerateContent", body)
}

#[test]
fn an_image_beside_a_gemini_function_response_is_found() {
    let bytes = medium_bytes(Medium::Png);
    let name = "mcp_mmconform_mmconform_tool_media";
    let calls = gemini_calls(
        "png",
        json!([
            {"functionResponse": {"name": name, "response": {"content": label(CASE)}}},
            {"inlineData": {"mimeType": "image/png", "data": STANDARD.encode(&bytes)}}]),
    );
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::Intact, a) => assert!(a.passed),
        other => panic!("{other:?}"),
    }
}

/// Claude Code's deferred tools: the tool listed, its `ToolSearch` called first, the
/// tool after the search's `tool_reference` result, then its result.
fn searched_calls(bytes: &[u8]) -> Vec<ModelCall> {
    let prompt = format!("Use the tool. {}", Directive::text(CASE, "png"));
    let listing = format!("Deferred tools, load with ToolSearch:\nWebFetch\n{NAME}\n");
    let steps = [
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_mmconform_1",
            "name": "ToolSearch", "input": {"query": format!("select:{NAME}"), "max_results": 1}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_mmconform_1",
            "content": [{"type": "tool_reference", "tool_name": NAME}]}]}),
        json!({"role": "assistant", "content": [{"type": "tool_use", "id": "call_mmconform_2",
            "name": NAME, "input": {}}]}),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_mmconform_2",
            "content": [{"type": "text", "text": label(CASE)},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                    "data": STANDARD.encode(bytes)}}]}]}),
    ];
    (0..3)
        .map(|n| {
            let mut messages = vec![
                json!({"role": "user", "content": [{"type": "text", "text": prompt}]}),
                json!({"role": "system", "content": [{"type": "text", "text": listing}]}),
            ];
            messages.extend(steps.iter().take(2 * n).cloned());
            let mut tools = vec![json!({"name": "ToolSearch", "input_schema": {}})];
            if n > 0 {
                tools.push(json!({"name": NAME, "input_schema": {}, "defer_loading": true}));
            }
            let body =
                json!({"model": "claude", "max_tokens": 10, "messages": messages, "tools": tools});
            decode_call(
                Wire::AnthropicMessages,
                "/v1/messages",
                body.to_string().as_bytes(),
                &Limits::default(),
                n as u64 + 1,
            )
        })
        .collect()
}

#[test]
fn a_tool_loaded_through_a_search_is_judged_from_the_call_after_its_own() {
    let bytes = medium_bytes(Medium::Png);
    let calls = searched_calls(&bytes);
    let made: Vec<_> = calls.iter().map(|c| c.tool_call.clone()).collect();
    assert!(
        made[0].as_ref().is_some_and(|t| !t.calls_the_tool()),
        "{made:?}"
    );
    assert!(
        made[1].as_ref().is_some_and(|t| t.calls_the_tool()),
        "{made:?}"
    );
    assert!(made[2].is_none());
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::Intact, a) => assert!(a.passed),
        other => panic!("{other:?}"),
    }
    // The search made, the tool never loaded: nothing about the medium was observed.
    let Judged::Blocked(why) = judge(Medium::Png, CASE, &calls[..1], &called()) else {
        panic!("a search alone is no tool call")
    };
    assert!(
        why.contains("never loaded") && why.contains("call 1"),
        "{why}"
    );
}

/// Codex with a model that calls tools directly hands its model the structured content
/// alone, as a string: the image and the tool's text block are gone.
#[test]
fn structured_content_in_place_of_the_content_is_a_silent_drop_named_as_such() {
    let structured = format!(
        "Wall time: 0.0057 seconds\nOutput:\n{{\"case\":\"{}\",\"mimeType\":\"image/png\",\"width\":104,\"height\":104}}",
        crate::tool_media::label_nonce(CASE)
    );
    let (alone, said) = outcome(Medium::ImageStructured, json!(structured));
    assert_eq!(alone, ToolOutcome::DroppedSilently);
    assert!(
        said.actual.contains("structuredContent arrived"),
        "{}",
        said.actual
    );
    let beside = json!([text(&label(CASE)), text(&structured)]);
    let (labelled, said) = outcome(Medium::ImageStructured, beside);
    assert_eq!(labelled, ToolOutcome::DroppedSilently);
    assert!(
        said.actual.contains("the tool's text arrived"),
        "the label arrived too: {}",
        said.actual
    );
}

/// Gemini CLI (0.61.0) to a `gemini-3-*` model: the tool's text in `response.output`,
/// with its own note that the image was provided, and the image inside the function
/// response's `parts`. The note is true there: intact, not a claim.
#[test]
fn an_image_inside_a_gemini_function_response_is_found() {
    let bytes = medium_bytes(Medium::Png);
    let name = "mcp_mmconform_mmconform_tool_media";
    let output = format!(
        "{}\n[Tool '{name}' provided the following image data with mime-type: image/png]",
        label(CASE)
    );
    let image = json!({"inlineData": {"mimeType": "image/png", "data": STANDARD.encode(&bytes)}});
    let calls = gemini_calls(
        "png",
        json!([{"functionResponse": {"id": "c1", "name": name,
            "response": {"output": output}, "parts": [image]}}]),
    );
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::Intact, a) => assert!(a.passed, "{}", a.actual),
        other => panic!("{other:?}"),
    }
    // The same note without the image is a claim: a silent drop.
    let calls = gemini_calls(
        "png",
        json!([{"functionResponse": {"name": name, "response": {"output": output}}}]),
    );
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::DroppedSilently, a) => {
            assert!(
                !a.passed && a.actual.contains("a note claiming"),
                "{}",
                a.actual
            )
        }
        other => panic!("{other:?}"),
    }
}

/// Gemini CLI (0.61.0) strips audio from a tool's result and says so in the function
/// response's text: dropped with a notice, which the witness can only tell by reading
/// `response.output`.
#[test]
fn audio_stripped_with_a_notice_in_a_gemini_function_response_warns() {
    let name = "mcp_mmconform_mmconform_tool_media";
    let output = format!(
        "[SYSTEM: Binary content (audio/wav) stripped from response due to protocol \
         limitations.]\n{}\n[Tool '{name}' provided the following audio data with \
         mime-type: audio/wav]",
        label(CASE)
    );
    let calls = gemini_calls(
        "wav",
        json!([{"functionResponse": {"name": name, "response": {"output": output}}}]),
    );
    match judge(Medium::Wav, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::DroppedWithNotice, a) => {
            assert!(!a.passed && a.actual.contains("stripped"), "{}", a.actual)
        }
        other => panic!("{other:?}"),
    }
}

/// Gemini CLI counts a turn's tokens before it sends it: a `:countTokens` call that
/// carries the image is no model seeing it, and no model call carrying the turn on.
#[test]
fn a_token_count_is_never_the_model_reading_the_medium() {
    let bytes = medium_bytes(Medium::Png);
    let name = "mcp_mmconform_mmconform_tool_media";
    let response = json!({"functionResponse": {"name": name, "response": {"output": label(CASE)}}});
    let image = json!({"inlineData": {"mimeType": "image/png", "data": STANDARD.encode(&bytes)}});
    let [asked, with_image] = gemini_calls("png", json!([response, image]));
    let [_, without] = gemini_calls("png", json!([response]));
    let count = |call: &ModelCall, seq| {
        let mut call = call.clone();
        call.wire = Wire::GeminiCountTokens;
        call.seq = seq;
        call
    };
    let mut last = without.clone();
    last.seq = 3;
    let calls = [asked.clone(), count(&with_image, 2), last];
    assert_eq!(
        judge(Medium::Png, CASE, &calls, &called()),
        judge(Medium::Png, CASE, &[asked.clone(), without], &called())
    );
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::DroppedSilently, _) => {}
        other => panic!("{other:?}"),
    }
    let calls = [asked, count(&with_image, 2)];
    match judge(Medium::Png, CASE, &calls, &called()) {
        Judged::Assertion(ToolOutcome::TurnBroken, _) => {}
        other => panic!("{other:?}"),
    }
}
