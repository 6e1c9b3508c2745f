//! The validation table: every request the faithful server must refuse, with the
//! status, code and param it refuses it with; every capability refusal per model; and
//! the valid shapes it must take. Checked through `validate` directly (the HTTP path
//! is `server_tests.rs`).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::OpenaiConfig;
use super::refusal::Cause;
use super::request::validate;
use super::test_support::{audio, b64, image, image_url, multi, pdf, text, text_only};

/// `ok text,image` (the kinds the last message kept) or `400 <code> <param>`.
fn check(body: &Value) -> String {
    match validate(&OpenaiConfig::default(), body) {
        Ok(request) => {
            let kinds: Vec<&str> = request
                .messages
                .last()
                .unwrap()
                .parts
                .iter()
                .map(|p| p.kind)
                .collect();
            format!("ok {}", kinds.join(","))
        }
        Err(refused) => format!(
            "{} {} {}",
            refused.error.status.as_u16(),
            refused.error.code.unwrap_or("-"),
            refused.error.param.as_deref().unwrap_or("-")
        ),
    }
}

fn cause(body: &Value) -> Cause {
    validate(&OpenaiConfig::default(), body).unwrap_err().cause
}

/// A 1x1 GIF (mmconform-media has no GIF generator).
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";

const P: &str = "messages[0].content[1]";

/// Checks every `(name, body, expected verdict)` row.
fn table(cases: Vec<(&str, Value, String)>) {
    for (name, body, expected) in cases {
        assert_eq!(check(&body), expected, "{name}");
    }
}

/// Part shapes: type, object, text, the content list.
#[test]
fn malformed_parts_are_400_invalid_request_errors() {
    table(vec![
        (
            "unknown part type",
            multi(json!([text("a"), {"type": "hologram"}])),
            format!("400 invalid_value {P}.type"),
        ),
        (
            "part without type",
            multi(json!([text("a"), {"text": "b"}])),
            format!("400 missing_required_parameter {P}.type"),
        ),
        (
            "part not an object",
            multi(json!([text("a"), "b"])),
            format!("400 invalid_type {P}"),
        ),
        (
            "image_url a bare string",
            multi(json!([text("a"), {"type": "image_url", "image_url": "https://x.test/a.png"}])),
            format!("400 invalid_type {P}.image_url"),
        ),
        (
            "image_url without url",
            multi(json!([text("a"), {"type": "image_url", "image_url": {}}])),
            format!("400 missing_required_parameter {P}.image_url.url"),
        ),
        (
            "empty content list",
            multi(json!([])),
            "400 empty_array messages[0].content".into(),
        ),
        (
            "empty text block",
            multi(json!([text("a"), text("")])),
            format!("400 invalid_value {P}.text"),
        ),
        (
            "empty string content",
            multi(json!("")),
            "400 invalid_value messages[0].content".into(),
        ),
        (
            "content a number",
            multi(json!(42)),
            "400 invalid_type messages[0].content".into(),
        ),
    ]);
}

/// Image parts: inline bytes, URLs, detail.
#[test]
fn malformed_images_are_400_invalid_request_errors() {
    let png = b64("image/png", "x");
    table(vec![
        (
            "invalid base64",
            multi(json!([
                text("a"),
                image_url("data:image/png;base64,!!not base64!!")
            ])),
            format!("400 invalid_value {P}.image_url.url"),
        ),
        (
            "data URL without MIME",
            multi(json!([
                text("a"),
                image_url(&format!("data:;base64,{png}"))
            ])),
            format!("400 invalid_value {P}.image_url.url"),
        ),
        (
            "data URL without base64",
            multi(json!([text("a"), image_url("data:image/png,abc")])),
            format!("400 invalid_value {P}.image_url.url"),
        ),
        (
            "MIME disagrees with bytes",
            multi(json!([
                text("a"),
                image_url(&format!("data:image/jpeg;base64,{png}"))
            ])),
            format!("400 invalid_value {P}.image_url.url"),
        ),
        (
            "bytes are no image at all",
            multi(json!([
                text("a"),
                image_url("data:image/png;base64,aGVsbG8=")
            ])),
            format!("400 invalid_value {P}.image_url.url"),
        ),
        (
            "URL scheme not http(s)",
            multi(json!([text("a"), image_url("ftp://x.test/a.png")])),
            format!("400 invalid_value {P}.image_url.url"),
        ),
        (
            "unknown detail",
            multi(
                json!([text("a"), {"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": "ultra"}}]),
            ),
            format!("400 invalid_value {P}.image_url.detail"),
        ),
    ]);
}

/// Audio and file parts.
#[test]
fn malformed_audio_and_files_are_400_invalid_request_errors() {
    let wav = b64("audio/wav", "x");
    table(vec![
        (
            "audio with unknown format",
            multi(
                json!([text("a"), {"type": "input_audio", "input_audio": {"data": wav, "format": "ogg"}}]),
            ),
            format!("400 invalid_value {P}.input_audio.format"),
        ),
        (
            "audio format not matching bytes",
            multi(
                json!([text("a"), {"type": "input_audio", "input_audio": {"data": wav, "format": "mp3"}}]),
            ),
            format!("400 invalid_value {P}.input_audio.data"),
        ),
        (
            "audio with invalid base64",
            multi(
                json!([text("a"), {"type": "input_audio", "input_audio": {"data": "%%%", "format": "wav"}}]),
            ),
            format!("400 invalid_value {P}.input_audio.data"),
        ),
        (
            "audio without data",
            multi(json!([text("a"), {"type": "input_audio", "input_audio": {"format": "wav"}}])),
            format!("400 missing_required_parameter {P}.input_audio.data"),
        ),
        (
            "file without file_data or file_id",
            multi(json!([text("a"), {"type": "file", "file": {"filename": "a.pdf"}}])),
            format!("400 missing_required_parameter {P}.file.file_data"),
        ),
        (
            "file_data without filename",
            multi(
                json!([text("a"), {"type": "file", "file": {"file_data": format!("data:application/pdf;base64,{}", b64("application/pdf", "x"))}}]),
            ),
            format!("400 missing_required_parameter {P}.file.filename"),
        ),
        (
            "file with both sources",
            multi(
                json!([text("a"), {"type": "file", "file": {"file_id": super::REFERENCE_FILE_ID, "file_data": "data:application/pdf;base64,"}}]),
            ),
            format!("400 invalid_value {P}.file"),
        ),
        (
            "unknown file_id",
            multi(json!([text("a"), {"type": "file", "file": {"file_id": "file-nope"}}])),
            format!("400 invalid_value {P}.file.file_id"),
        ),
    ]);
}

/// Roles, media outside user messages, model, messages, stream.
#[test]
fn malformed_messages_and_fields_are_400s() {
    table(vec![
        (
            "media on a system message",
            json!({"model": "reference-multimodal", "messages": [
            {"role": "system", "content": [text("a"), image("image/png")]},
            {"role": "user", "content": "hi"}]}),
            "400 invalid_value messages[0].content[1]".into(),
        ),
        (
            "media on an assistant message",
            json!({"model": "reference-multimodal", "messages": [
            {"role": "user", "content": "hi"}, {"role": "assistant", "content": [audio("wav")]}]}),
            "400 invalid_value messages[1].content[0]".into(),
        ),
        (
            "unknown role",
            json!({"model": "reference-multimodal", "messages": [{"role": "robot", "content": "hi"}]}),
            "400 invalid_value messages[0].role".into(),
        ),
        (
            "tool without tool_call_id",
            json!({"model": "reference-multimodal", "messages": [{"role": "tool", "content": "42"}]}),
            "400 missing_required_parameter messages[0].tool_call_id".into(),
        ),
        (
            "no messages",
            json!({"model": "reference-multimodal", "messages": []}),
            "400 empty_array messages".into(),
        ),
        (
            "messages missing",
            json!({"model": "reference-multimodal"}),
            "400 missing_required_parameter messages".into(),
        ),
        (
            "model missing",
            json!({"messages": [{"role": "user", "content": "hi"}]}),
            "400 missing_required_parameter model".into(),
        ),
        (
            "stream not a boolean",
            json!({"model": "reference-text", "messages": [{"role": "user", "content": "hi"}], "stream": "yes"}),
            "400 invalid_type stream".into(),
        ),
        (
            "stream_options without stream",
            json!({"model": "reference-text", "messages": [{"role": "user", "content": "hi"}], "stream_options": {"include_usage": true}}),
            "400 invalid_value stream_options".into(),
        ),
        (
            "unknown model",
            json!({"model": "gpt-5", "messages": [{"role": "user", "content": "hi"}]}),
            "404 model_not_found model".into(),
        ),
    ]);
}

#[test]
fn malformed_parts_are_refused_before_capability() {
    // A text-only model still names the shape error, not its missing capability.
    let bad = text_only(json!([text("a"), image_url("data:image/png;base64,!!")]));
    assert_eq!(check(&bad), format!("400 invalid_value {P}.image_url.url"));
    assert_eq!(cause(&bad), Cause::BadBase64);
    assert_eq!(
        cause(&multi(json!([{"type": "hologram"}]))),
        Cause::UnknownPartType
    );
    assert_eq!(cause(&multi(json!([text("")]))), Cause::Shape);
}

#[test]
fn capability_refusals_name_the_part_per_model() {
    let refused = [
        (
            text_only(json!([text("a"), image("image/png")])),
            format!("400 image_content_not_supported {P}"),
            "image",
        ),
        (
            text_only(json!([text("a"), image_url("https://x.test/a.png")])),
            format!("400 image_content_not_supported {P}"),
            "image",
        ),
        (
            text_only(json!([text("a"), audio("wav")])),
            format!("400 audio_content_not_supported {P}"),
            "audio",
        ),
        (
            text_only(json!([text("a"), pdf()])),
            format!("400 unsupported_content_block {P}"),
            "file",
        ),
        (
            multi(
                json!([text("a"), {"type": "video_url", "video_url": {"url": "https://x.test/a.mp4"}}]),
            ),
            format!("400 video_content_not_supported {P}"),
            "video",
        ),
        (
            text_only(json!([text("a"), {"type": "video_url"}])),
            format!("400 video_content_not_supported {P}"),
            "video",
        ),
        (
            multi(json!([
                text("a"),
                image_url(&format!(
                    "data:application/pdf;base64,{}",
                    b64("application/pdf", "x")
                ))
            ])),
            format!("400 unsupported_image_media_type {P}"),
            "image",
        ),
        (
            multi(json!([
                text("a"),
                image_url(&format!("data:audio/wav;base64,{}", b64("audio/wav", "x")))
            ])),
            format!("400 unsupported_image_media_type {P}"),
            "image",
        ),
    ];
    for (body, expected, kind) in refused {
        assert_eq!(check(&body), expected, "{body}");
        let refusal = validate(&OpenaiConfig::default(), &body).unwrap_err();
        assert_eq!(refusal.cause, Cause::Capability(kind));
        assert!(refusal.error.is_capability());
        assert!(
            refusal.error.message.contains("not"),
            "{}",
            refusal.error.message
        );
    }
}

#[test]
fn valid_requests_are_taken() {
    let taken = [
        (multi(json!("hello")), "ok text"),
        (text_only(json!("hello")), "ok text"),
        (text_only(json!([text("a"), text("b")])), "ok text,text"),
        (
            multi(json!([
                image("image/png"),
                text("a"),
                image("image/jpeg"),
                text("b")
            ])),
            "ok image,text,image,text",
        ),
        (multi(json!([image("image/webp")])), "ok image"),
        (
            multi(json!([image_url(&format!(
                "data:image/gif;base64,{}",
                STANDARD.encode(GIF)
            ))])),
            "ok image",
        ),
        (
            multi(json!([image_url("https://x.test/a.png")])),
            "ok image",
        ),
        (multi(json!([audio("wav"), audio("mp3")])), "ok audio,audio"),
        (multi(json!([pdf()])), "ok file"),
        (
            multi(json!([{"type": "file", "file": {"file_id": super::REFERENCE_FILE_ID}}])),
            "ok file",
        ),
        (
            multi(
                json!([{"type": "file", "file": {"file_id": "https://x.test/a.pdf", "filename": "a.pdf"}}]),
            ),
            "ok file",
        ),
        (
            multi(
                json!([{"type": "file", "file": {"file_data": format!("data:text/plain;base64,{}", b64("text/plain", "t")), "filename": "a.txt"}}]),
            ),
            "ok file",
        ),
    ];
    for (body, expected) in taken {
        assert_eq!(check(&body), expected, "{body}");
    }
    for detail in super::DETAILS {
        let body = multi(
            json!([{"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": detail}}]),
        );
        assert_eq!(check(&body), "ok image", "{detail}");
    }
    let conversation = json!({"model": "reference-text", "stream": true, "stream_options": {"include_usage": true},
        "temperature": 0, "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "developer", "content": [text("really")]},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": null, "tool_calls": []},
        {"role": "tool", "tool_call_id": "c1", "content": "42"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
        {"role": "user", "content": [text("again")]}]});
    let request = validate(&OpenaiConfig::default(), &conversation).unwrap();
    assert!(request.stream && request.include_usage);
    assert_eq!(request.messages.len(), 7);
}

#[test]
fn only_served_models_are_known() {
    let config = OpenaiConfig::default()
        .with_models(&["reference-text".into()])
        .unwrap();
    let refused = validate(&config, &multi(json!("hi"))).unwrap_err();
    assert_eq!(refused.error.status.as_u16(), 404);
    assert_eq!(refused.error.code, Some("model_not_found"));
    assert!(validate(&config, &text_only(json!("hi"))).is_ok());
}
