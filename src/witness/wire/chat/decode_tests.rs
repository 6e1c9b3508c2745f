use crate::witness::config::Limits;
use crate::witness::decode::{Decoded, decode as decode_body};
use crate::witness::record::{Part, PartKind, ProblemCode, SourceKind, Wire};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

fn decode(body: Value) -> Decoded {
    decode_body(
        Wire::OpenaiChat,
        body.to_string().as_bytes(),
        &Limits::default(),
    )
}

fn user(content: Value) -> Decoded {
    decode(json!({"model": "m", "messages": [{"role": "user", "content": content}]}))
}

fn b64(mime: &str, nonce: &str) -> String {
    STANDARD.encode(mmconform_media::generate(mime, nonce))
}

fn codes(part: &Part) -> Vec<ProblemCode> {
    part.problems.iter().map(|p| p.code).collect()
}

fn only(d: &Decoded) -> &Part {
    assert_eq!(d.parts.len(), 1, "{:?}", d.parts);
    &d.parts[0]
}

#[test]
fn string_content_and_text_parts_are_text() {
    let d = decode(json!({"messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "hi mmconform-nonce:t0"}]},
        {"role": "assistant", "content": null, "tool_calls": []},
    ]}));
    assert_eq!(d.roles, ["system", "user", "assistant"]);
    assert_eq!(d.messages, 3);
    assert_eq!(d.parts.len(), 2);
    let (system, text) = (&d.parts[0], &d.parts[1]);
    assert_eq!(
        (system.kind, system.wire_form.as_str(), system.at.as_str()),
        (PartKind::Text, "string", "/messages/0/content")
    );
    assert_eq!(system.text.as_deref(), Some("be brief"));
    assert_eq!(text.wire_form, "text");
    assert_eq!((text.message, text.position), (Some(1), 0));
    assert_eq!(text.stamps, ["t0"]);
    assert_eq!(text.source, Some(SourceKind::Text));
    assert!(d.problems.is_empty() && system.problems.is_empty() && text.problems.is_empty());
}

#[test]
fn an_inline_image_with_detail_is_decoded_whole() {
    let url = format!("data:image/png;base64,{}", b64("image/png", "n-p0"));
    let d = user(json!([{"type": "image_url", "image_url": {"url": url, "detail": "high"}}]));
    let p = only(&d);
    assert_eq!(
        (p.kind, p.wire_form.as_str(), p.source),
        (PartKind::Image, "image_url", Some(SourceKind::Data))
    );
    assert_eq!(p.mime.as_deref(), Some("image/png"));
    assert_eq!(p.sniffed.as_deref(), Some("image/png"));
    assert_eq!(p.detail.as_deref(), Some("high"));
    assert_eq!(p.stamps, ["n-p0"]);
    assert_eq!(p.sha256.as_ref().map(String::len), Some(64));
    assert!(p.problems.is_empty(), "{:?}", p.problems);
}

#[test]
fn an_image_url_is_recorded_not_fetched() {
    let d =
        user(json!([{"type": "image_url", "image_url": {"url": "https://example.test/a.png"}}]));
    let p = only(&d);
    assert_eq!(p.source, Some(SourceKind::Url));
    assert_eq!(p.url.as_deref(), Some("https://example.test/a.png"));
    assert_eq!((p.bytes, p.detail.as_deref()), (None, None));
    assert!(p.problems.is_empty());
}

#[test]
fn detail_must_be_absent_or_low_high_auto() {
    for (detail, bad) in [
        (json!("low"), false),
        (json!("auto"), false),
        (json!("medium"), true),
        (json!(null), true),
        (json!(3), true),
    ] {
        let url = format!("data:image/png;base64,{}", b64("image/png", "n"));
        let d = user(json!([{"type": "image_url", "image_url": {"url": url, "detail": detail}}]));
        let expected = if bad {
            vec![ProblemCode::BadDetail]
        } else {
            vec![]
        };
        assert_eq!(codes(only(&d)), expected, "{detail}");
    }
}

#[test]
fn input_audio_is_decoded_and_its_format_checked_against_the_bytes() {
    let wav = b64("audio/wav", "a-p1");
    let d = user(json!([{"type": "input_audio", "input_audio": {"data": wav, "format": "wav"}}]));
    let p = only(&d);
    assert_eq!(
        (p.kind, p.wire_form.as_str()),
        (PartKind::Audio, "input_audio")
    );
    assert_eq!(p.mime.as_deref(), Some("wav"));
    assert_eq!(p.stamps, ["a-p1"]);
    assert!(p.problems.is_empty(), "{:?}", p.problems);

    let d = user(json!([{"type": "input_audio", "input_audio": {"data": wav, "format": "mp3"}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::AudioFormatMismatch]);
    let png = b64("image/png", "a");
    let d = user(json!([{"type": "input_audio", "input_audio": {"data": png, "format": "wav"}}]));
    assert_eq!(
        codes(only(&d)),
        [ProblemCode::AudioFormatMismatch, ProblemCode::KindMismatch]
    );
    let d = user(json!([{"type": "input_audio", "input_audio": {"data": wav}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadPart]);
    let url = format!("data:audio/wav;base64,{wav}");
    let d = user(json!([{"type": "input_audio", "input_audio": {"data": url, "format": "wav"}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadUrl]);
    assert_eq!(only(&d).stamps, ["a-p1"]);
}

#[test]
fn a_file_needs_file_data_and_a_filename() {
    let pdf = format!(
        "data:application/pdf;base64,{}",
        b64("application/pdf", "d-p2")
    );
    let d = user(json!([{"type": "file", "file": {"file_data": pdf, "filename": "a.pdf"}}]));
    let p = only(&d);
    assert_eq!((p.kind, p.wire_form.as_str()), (PartKind::Document, "file"));
    assert_eq!(p.filename.as_deref(), Some("a.pdf"));
    assert_eq!(p.sniffed.as_deref(), Some("application/pdf"));
    assert_eq!(p.stamps, ["d-p2"]);
    assert!(p.problems.is_empty(), "{:?}", p.problems);

    let d = user(json!([{"type": "file", "file": {"file_data": pdf}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::FileIncomplete]);
    let d = user(json!([{"type": "file", "file": {"file_id": "file-abc"}}]));
    let p = only(&d);
    assert_eq!(
        (p.source, p.file_id.as_deref()),
        (Some(SourceKind::FileId), Some("file-abc"))
    );
    assert_eq!(codes(p), [ProblemCode::FileIncomplete]);
    assert!(p.problems[0].message.contains("file_data and filename"));
    let bare = b64("application/pdf", "d");
    let d = user(json!([{"type": "file", "file": {"file_data": bare, "filename": "a.pdf"}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadUrl]);
    let both = json!({"file_data": pdf, "file_id": "file-abc", "filename": "a.pdf"});
    let d = user(json!([{"type": "file", "file": both}]));
    let p = only(&d);
    assert_eq!(codes(p), [ProblemCode::BadPart]);
    assert!(p.problems[0].message.contains("file_data and file_id"));
}

#[test]
fn a_pdf_sent_as_image_url_is_a_kind_mismatch() {
    let url = format!(
        "data:application/pdf;base64,{}",
        b64("application/pdf", "n")
    );
    let d = user(json!([{"type": "image_url", "image_url": {"url": url}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::KindMismatch]);
}

#[test]
fn shape_problems_are_named_where_they_are() {
    let d = user(json!([]));
    assert_eq!(d.problems[0].code, ProblemCode::EmptyContent);
    let d = user(json!([{"type": "text", "text": ""}]));
    assert_eq!(codes(only(&d)), [ProblemCode::EmptyText]);
    let d = user(json!(""));
    assert_eq!(codes(only(&d)), [ProblemCode::EmptyText]);
    let d = user(json!([{"type": "text", "text": 5}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadPart]);
    let d = user(json!([{"type": "image_url", "image_url": {}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadPart]);
    let d = user(json!(7));
    assert_eq!(d.problems[0].code, ProblemCode::BadShape);
    let d = decode(json!({"messages": [{"role": "user"}]}));
    assert_eq!(d.problems[0].code, ProblemCode::MissingContent);
    let url = format!("data:image/png;base64,{}", b64("image/png", "n"));
    let d = decode(json!({"messages": [{"role": "system", "content": [
        {"type": "image_url", "image_url": {"url": url}}]}]}));
    assert_eq!(codes(only(&d)), [ProblemCode::MediaOnNonUser]);
}

#[test]
fn unknown_parts_are_recorded_with_their_type_never_guessed() {
    let d = user(json!([
        {"type": "image", "source": {"data": "AAAA"}},
        {"no": "type"},
        {"type": "video_url", "video_url": {"url": "https://x.test/v.mp4"}},
    ]));
    let forms: Vec<&str> = d.parts.iter().map(|p| p.wire_form.as_str()).collect();
    assert_eq!(forms, ["image", "(no type)", "video_url"]);
    for p in &d.parts {
        assert_eq!(p.kind, PartKind::Unknown);
        assert_eq!(codes(p), [ProblemCode::UnknownPartType]);
        assert_eq!((p.bytes, p.source), (None, None));
    }
    let d = decode(json!({"messages": [{"role": "assistant", "content": [
        {"type": "refusal", "refusal": "no"}]}]}));
    assert!(only(&d).problems.is_empty());
}
