use crate::wire::gemini::{file_data, inline_data, text, user_content};
use crate::witness::record::ProblemCode;
use crate::witness::{Limits, ModelCall, PartKind, SourceKind, Wire, decode_call};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

fn decode(body: &Value) -> ModelCall {
    let body = body.to_string();
    let path = "/v1beta/models/g:generateContent";
    decode_call(Wire::Gemini, path, body.as_bytes(), &Limits::default(), 1)
}

fn b64(mime: &str, nonce: &str) -> String {
    STANDARD.encode(mmconform_media::generate(mime, nonce))
}

fn codes(call: &ModelCall) -> Vec<ProblemCode> {
    call.all_problems().map(|p| p.code).collect()
}

#[test]
fn inline_media_in_both_spellings_and_the_system_instruction_are_decoded() {
    let body = json!({
    "systemInstruction": {"parts": [text("be brief")]},
    "generationConfig": {"temperature": 0},
    "contents": [
        user_content(vec![
            text("what are these? n"),
            inline_data("image/png", &b64("image/png", "n-p0")),
            json!({"inline_data": {"mime_type": "audio/wav", "data": b64("audio/wav", "n-p1")}}),
            inline_data("application/pdf", &b64("application/pdf", "n-p2")),
            file_data("image/jpeg", "https://generativelanguage.googleapis.com/v1beta/files/abc"),
            json!({"file_data": {"mime_type": "application/pdf", "file_uri": "gs://b/r.pdf"}}),
        ]),
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"function_response": {"name": "f", "response": {}}}]},
    ]});
    let call = decode(&body);
    assert_eq!(call.status, 200);
    assert!(
        codes(&call).is_empty(),
        "{:?}",
        call.all_problems().collect::<Vec<_>>()
    );
    assert_eq!(call.roles, ["user", "model", "user"]);
    let kinds: Vec<(PartKind, &str)> = call
        .parts
        .iter()
        .map(|p| (p.kind, p.wire_form.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            (PartKind::Text, "gemini.text"),
            (PartKind::Text, "gemini.text"),
            (PartKind::Image, "gemini.inline_data"),
            (PartKind::Audio, "gemini.inline_data"),
            (PartKind::Document, "gemini.inline_data"),
            (PartKind::Image, "gemini.file_data"),
            (PartKind::Document, "gemini.file_data"),
            (PartKind::Unknown, "gemini.function_call"),
            (PartKind::Unknown, "gemini.function_response"),
        ]
    );
    assert_eq!(call.parts[0].role, "system");
    assert_eq!(call.parts[0].at, "/systemInstruction/parts/0");
    assert_eq!(call.parts[3].mime.as_deref(), Some("audio/wav"));
    for (i, stamp) in [(2, "n-p0"), (3, "n-p1"), (4, "n-p2")] {
        assert_eq!(call.parts[i].stamps, [stamp]);
    }
    assert_eq!(call.parts[6].source, Some(SourceKind::Url));
}

#[test]
fn url_safe_unpadded_base64_is_read_as_the_proto_json_mapping_reads_bytes() {
    // google-genai sends URL-safe base64; the bytes must come out the same.
    let raw = mmconform_media::generate("audio/wav", "u-p0");
    let url_safe = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&raw);
    assert!(
        url_safe.contains(['-', '_']),
        "the sample exercises the URL-safe alphabet"
    );
    let call =
        decode(&json!({"contents": [user_content(vec![inline_data("audio/wav", &url_safe)])]}));
    assert!(codes(&call).is_empty(), "{:?}", codes(&call));
    let standard = decode(
        &json!({"contents": [user_content(vec![inline_data("audio/wav", &STANDARD.encode(&raw))])]}),
    );
    assert_eq!(call.parts[0].sha256, standard.parts[0].sha256);
    assert_eq!(call.parts[0].bytes, Some(raw.len() as u64));
    assert_eq!(call.parts[0].stamps, ["u-p0"]);
}

#[test]
fn a_count_tokens_body_is_read_from_its_inner_request() {
    let body = json!({"generateContentRequest": {"model": "models/g",
        "contents": [user_content(vec![inline_data("image/png", &b64("image/png", "c-p0"))])]}});
    let body = body.to_string();
    let call = decode_call(
        Wire::GeminiCountTokens,
        "/v1beta/models/g:countTokens",
        body.as_bytes(),
        &Limits::default(),
        1,
    );
    assert_eq!(call.parts[0].stamps, ["c-p0"]);
    assert!(!call.wire.reads());
}

#[test]
fn broken_parts_are_named_and_a_body_without_contents_refused() {
    let png = b64("image/png", "b");
    let body = json!({"contents": [
        {"role": "user", "parts": [
            {"inlineData": {"data": png}},
            inline_data("image/jpeg", &png),
            {"inlineData": {"mimeType": "image/png", "data": "!!"}},
            {"fileData": {"mimeType": "image/png", "fileUri": "file:///etc/passwd"}},
            {"mystery": 1},
        ]},
        {"role": "user", "parts": []},
        {"role": "user"},
    ]});
    let call = decode(&body);
    assert_eq!(
        codes(&call),
        [
            ProblemCode::EmptyContent,
            ProblemCode::MissingContent,
            ProblemCode::DataUrlWithoutMime,
            ProblemCode::MimeMismatch,
            ProblemCode::InvalidBase64,
            ProblemCode::BadUrl,
            ProblemCode::UnknownPartType,
        ]
    );
    let refused = decode(&json!({"messages": []}));
    assert_eq!(
        (refused.status, codes(&refused)),
        (400, vec![ProblemCode::BadShape])
    );
}

#[test]
fn a_function_response_is_read_as_its_text_and_the_media_of_its_parts() {
    let body = json!({"contents": [
        user_content(vec![text("go")]),
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "f", "response": {"output": "the label n-t"},
                "parts": [inline_data("image/png", &b64("image/png", "n-p0"))]}},
            {"function_response": {"name": "g", "response": {"output": "x", "more": 1}}},
        ]},
    ]});
    let call = decode(&body);
    assert!(codes(&call).is_empty(), "{:?}", codes(&call));
    let parts: Vec<(&str, PartKind, &str)> = call
        .parts
        .iter()
        .skip(2)
        .map(|p| (p.at.as_str(), p.kind, p.text.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        parts,
        [
            ("/contents/2/parts/0", PartKind::Unknown, ""),
            (
                "/contents/2/parts/0/functionResponse/response",
                PartKind::Text,
                "the label n-t"
            ),
            (
                "/contents/2/parts/0/functionResponse/parts/0",
                PartKind::Image,
                ""
            ),
            ("/contents/2/parts/1", PartKind::Unknown, ""),
            (
                "/contents/2/parts/1/functionResponse/response",
                PartKind::Text,
                r#"{"output":"x","more":1}"#
            ),
        ]
    );
    assert!(call.parts[4].carries("n-p0") && call.parts[4].bytes.is_some());
    assert_eq!(call.parts[4].message, Some(2));
}
