use crate::wire::responses::{
    Source, input_audio, input_file, input_image, input_text, user_message,
};
use crate::witness::record::ProblemCode;
use crate::witness::{Limits, ModelCall, PartKind, SourceKind, Wire, decode_call};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

fn decode(body: &Value) -> ModelCall {
    let body = body.to_string();
    decode_call(
        Wire::OpenaiResponses,
        "/v1/responses",
        body.as_bytes(),
        &Limits::default(),
        1,
    )
}

fn b64(mime: &str, nonce: &str) -> String {
    STANDARD.encode(mmconform_media::generate(mime, nonce))
}

fn codes(call: &ModelCall) -> Vec<ProblemCode> {
    call.all_problems().map(|p| p.code).collect()
}

#[test]
fn every_input_part_the_encoders_write_is_decoded_with_its_stamp() {
    let png = format!("data:image/png;base64,{}", b64("image/png", "n-p0"));
    let pdf = format!(
        "data:application/pdf;base64,{}",
        b64("application/pdf", "n-p1")
    );
    let body = json!({"model": "gpt-x", "stream": true, "store": false,
    "instructions": "be brief",
    "reasoning": {"effort": "low"}, "tools": [{"type": "function", "name": "f"}],
    "input": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        user_message(vec![
            input_text("what are these? n"),
            input_image(Source::Data(&png), Some("high")),
            input_file(Source::Data(&pdf), Some("report.pdf")),
            input_audio(&b64("audio/wav", "n-p2"), Some("wav")),
        ]),
        {"role": "assistant", "content": "earlier answer"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    ]});
    let call = decode(&body);
    assert_eq!(call.status, 200);
    assert!(
        codes(&call).is_empty(),
        "{:?}",
        call.all_problems().collect::<Vec<_>>()
    );
    assert!(call.stream);
    assert_eq!(call.model.as_deref(), Some("gpt-x"));
    assert_eq!(
        call.roles,
        ["reasoning", "user", "assistant", "function_call"]
    );
    let forms: Vec<&str> = call.parts.iter().map(|p| p.wire_form.as_str()).collect();
    assert_eq!(
        forms,
        [
            "responses.instructions",
            "responses.reasoning",
            "responses.input_text",
            "responses.input_image",
            "responses.input_file",
            "responses.input_audio",
            "string",
            "responses.function_call"
        ]
    );
    let image = &call.parts[3];
    assert_eq!(image.kind, PartKind::Image);
    assert_eq!(image.mime.as_deref(), Some("image/png"));
    assert_eq!(image.detail.as_deref(), Some("high"));
    assert_eq!(image.stamps, ["n-p0"]);
    assert_eq!(image.at, "/input/1/content/1");
    let file = &call.parts[4];
    assert_eq!(
        (file.kind, file.filename.as_deref()),
        (PartKind::Document, Some("report.pdf"))
    );
    assert_eq!(file.stamps, ["n-p1"]);
    let audio = &call.parts[5];
    assert_eq!(
        (audio.kind, audio.mime.as_deref()),
        (PartKind::Audio, Some("wav"))
    );
    assert_eq!(audio.stamps, ["n-p2"]);
    assert!(call.carries("n"));
    assert_eq!(call.parts[0].role, "system");
}

#[test]
fn a_string_input_is_one_user_text_and_no_input_is_refused() {
    let call = decode(&json!({"model": "m", "input": "hello mmconform-nonce:s1"}));
    assert_eq!(call.parts.len(), 1);
    assert_eq!(
        (call.parts[0].role.as_str(), call.parts[0].at.as_str()),
        ("user", "/input")
    );
    assert_eq!(call.parts[0].stamps, ["s1"]);
    let refused = decode(&json!({"model": "m", "messages": []}));
    assert_eq!(refused.status, 400);
    assert_eq!(codes(&refused), [ProblemCode::BadShape]);
    // A continuation of a stored response needs no input of its own.
    let continued = decode(&json!({"model": "m", "previous_response_id": "resp_1"}));
    assert_eq!(continued.status, 200);
}

#[test]
fn broken_parts_are_named_not_refused() {
    let png = b64("image/png", "b");
    let body = json!({"input": [user_message(vec![
        json!({"type": "input_image", "image_url": {"url": format!("data:image/png;base64,{png}")}}),
        input_image(Source::Data(&format!("data:image/png;base64,{png}")), Some("ultra")),
        json!({"type": "input_file", "file_data": format!("data:application/pdf;base64,{}", b64("application/pdf", "b"))}),
        json!({"type": "input_file", "filename": "x.pdf"}),
        json!({"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}),
        input_image(Source::Data(&format!("data:image/jpeg;base64,{png}")), None),
        input_text(""),
    ])]});
    let call = decode(&body);
    assert_eq!(call.status, 200);
    assert_eq!(
        codes(&call),
        [
            ProblemCode::BadPart,
            ProblemCode::BadDetail,
            ProblemCode::FileIncomplete,
            ProblemCode::BadPart,
            ProblemCode::UnknownPartType,
            ProblemCode::MimeMismatch,
            ProblemCode::EmptyText,
        ]
    );
    // The object form is still read: its bytes are found.
    assert_eq!(call.parts[0].stamps, ["b"]);
}

#[test]
fn tool_output_parts_are_decoded_and_references_kept_without_bytes() {
    let png = b64("image/png", "t-p0");
    let body = json!({"input": [
        {"type": "function_call_output", "call_id": "c1", "output": [
            input_image(Source::Data(&format!("data:image/png;base64,{png}")), None),
        ]},
        user_message(vec![
            json!({"type": "input_image", "file_id": "file-1", "detail": "auto"}),
            json!({"type": "input_file", "file_url": "https://x.test/r.pdf"}),
        ]),
    ]});
    let call = decode(&body);
    assert!(codes(&call).is_empty(), "{:?}", codes(&call));
    assert_eq!(call.parts[1].stamps, ["t-p0"]);
    assert_eq!(call.parts[1].at, "/input/0/output/0");
    assert_eq!(call.parts[2].source, Some(SourceKind::FileId));
    assert_eq!(call.parts[3].source, Some(SourceKind::Url));
}

/// A code-mode call's output (a list, as its `image()` helper makes it) and a function
/// call's output given as a string (one text, where a host put structured content).
#[test]
fn custom_tool_call_output_and_string_outputs_are_decoded() {
    let png = b64("image/png", "t-p1");
    let body = json!({"input": [
        {"type": "custom_tool_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": "Script completed\nWall time 0.1 seconds\nOutput:\n"},
            input_image(Source::Data(&format!("data:image/png;base64,{png}")), Some("high")),
        ]},
        {"type": "function_call_output", "call_id": "c2",
         "output": "Wall time: 0.0057 seconds\nOutput:\n{\"case\":\"t-c1-t\",\"width\":104}"},
    ]});
    let call = decode(&body);
    assert!(codes(&call).is_empty(), "{:?}", codes(&call));
    let image = call
        .parts
        .iter()
        .find(|p| p.at == "/input/0/output/1")
        .unwrap();
    assert_eq!(image.stamps, ["t-p1"]);
    assert_eq!(image.role, "tool");
    let text = call
        .parts
        .iter()
        .find(|p| p.at == "/input/1/output")
        .unwrap();
    assert_eq!(text.kind, PartKind::Text);
    assert!(text.text.as_deref().unwrap().contains("t-c1-t"));
}
