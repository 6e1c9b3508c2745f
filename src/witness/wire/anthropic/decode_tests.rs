use crate::witness::config::Limits;
use crate::witness::decode::{Decoded, decode as decode_body};
use crate::witness::record::{Part, PartKind, ProblemCode, SourceKind, Wire};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

fn decode(body: Value) -> Decoded {
    decode_body(
        Wire::AnthropicMessages,
        body.to_string().as_bytes(),
        &Limits::default(),
    )
}

fn user(content: Value) -> Decoded {
    decode(
        json!({"model": "claude", "max_tokens": 16, "messages": [{"role": "user", "content": content}]}),
    )
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
fn system_and_text_blocks_are_text() {
    let d = decode(json!({
        "system": [{"type": "text", "text": "be brief"}],
        "messages": [{"role": "user", "content": "hi"}],
    }));
    assert_eq!(d.parts.len(), 2);
    let system = &d.parts[0];
    assert_eq!(
        (system.message, system.role.as_str(), system.at.as_str()),
        (None, "system", "/system/0")
    );
    assert_eq!(system.wire_form, "anthropic.text");
    assert_eq!(d.parts[1].wire_form, "string");
    assert_eq!(d.messages, 1);
    assert_eq!(d.roles, ["user"]);
    let d = decode(json!({"system": "s", "messages": []}));
    assert_eq!(d.parts[0].at, "/system");
    assert_eq!(d.problems[0].code, ProblemCode::EmptyMessages);
}

#[test]
fn base64_image_and_document_blocks_are_decoded() {
    let d = user(json!([
        {"type": "image", "source": {"type": "base64", "media_type": "image/webp", "data": b64("image/webp", "i-p0")}},
        {"type": "document", "title": "Report", "source": {"type": "base64", "media_type": "application/pdf", "data": b64("application/pdf", "d-p1")}},
        {"type": "text", "text": "what are these?"},
    ]));
    let [image, document, text] = &d.parts[..] else {
        panic!("{:?}", d.parts)
    };
    assert_eq!(
        (image.kind, image.wire_form.as_str(), image.source),
        (PartKind::Image, "anthropic.image", Some(SourceKind::Data))
    );
    assert_eq!(image.mime.as_deref(), Some("image/webp"));
    assert_eq!(image.stamps, ["i-p0"]);
    assert_eq!(document.kind, PartKind::Document);
    assert_eq!(document.filename.as_deref(), Some("Report"));
    assert_eq!(document.stamps, ["d-p1"]);
    assert_eq!(text.wire_form, "anthropic.text");
    for p in &d.parts {
        assert!(p.problems.is_empty(), "{:?}", p.problems);
    }
}

#[test]
fn url_text_and_file_sources_are_recorded() {
    let d = user(json!([
        {"type": "image", "source": {"type": "url", "url": "https://example.test/a.jpg"}},
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "notes mmconform-nonce:t-p1"}},
        {"type": "document", "source": {"type": "file", "file_id": "file_01"}},
    ]));
    let [url, text, file] = &d.parts[..] else {
        panic!("{:?}", d.parts)
    };
    assert_eq!(url.source, Some(SourceKind::Url));
    assert_eq!(url.url.as_deref(), Some("https://example.test/a.jpg"));
    assert_eq!(text.source, Some(SourceKind::Text));
    assert_eq!(text.mime.as_deref(), Some("text/plain"));
    assert_eq!(text.text.as_deref(), Some("notes mmconform-nonce:t-p1"));
    assert_eq!(text.bytes, Some(26));
    assert_eq!(text.stamps, ["t-p1"]);
    assert_eq!(file.source, Some(SourceKind::FileId));
    assert_eq!(file.file_id.as_deref(), Some("file_01"));
    for p in &d.parts {
        assert!(p.problems.is_empty(), "{:?}", p.problems);
    }
}

#[test]
fn media_type_must_match_the_bytes_and_be_present() {
    let d = user(
        json!([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("image/jpeg", "n")}}]),
    );
    assert_eq!(codes(only(&d)), [ProblemCode::MimeMismatch]);
    let d = user(
        json!([{"type": "image", "source": {"type": "base64", "data": b64("image/png", "n")}}]),
    );
    assert_eq!(codes(only(&d)), [ProblemCode::DataUrlWithoutMime]);
    let d = user(
        json!([{"type": "image", "source": {"type": "base64", "media_type": "", "data": b64("image/png", "n")}}]),
    );
    let problems: Vec<&str> = only(&d)
        .problems
        .iter()
        .map(|p| p.message.as_str())
        .collect();
    assert!(
        problems.iter().all(|m| !m.contains("declared ,")),
        "{problems:?}"
    );
    let d = user(
        json!([{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "%%%"}}]),
    );
    assert_eq!(codes(only(&d)), [ProblemCode::InvalidBase64]);
    let d = user(
        json!([{"type": "image", "source": {"type": "base64", "media_type": "application/pdf", "data": b64("application/pdf", "n")}}]),
    );
    assert_eq!(codes(only(&d)), [ProblemCode::KindMismatch]);
}

#[test]
fn tool_results_are_looked_into_once() {
    let d = user(
        json!([{"type": "tool_result", "tool_use_id": "t1", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("image/png", "tool-p0")}},
        ]}]),
    );
    assert_eq!(d.parts.len(), 2);
    assert_eq!(d.parts[0].wire_form, "anthropic.tool_result");
    assert_eq!(d.parts[0].kind, PartKind::Unknown);
    assert_eq!(d.parts[1].at, "/messages/0/content/0/content/0");
    assert_eq!(d.parts[1].stamps, ["tool-p0"]);
    assert!(d.parts.iter().all(|p| p.problems.is_empty()));
    let d = user(
        json!([{"type": "tool_result", "tool_use_id": "t1", "content": "out tool-t9"},
        {"type": "tool_result", "tool_use_id": "t2", "content": [
            {"type": "tool_reference", "tool_name": "mcp__s__t"}]}]),
    );
    assert_eq!(d.parts.len(), 4, "{:?}", d.parts);
    assert_eq!(d.parts[1].kind, PartKind::Text);
    assert_eq!(d.parts[1].at, "/messages/0/content/0/content");
    assert_eq!(d.parts[1].text.as_deref(), Some("out tool-t9"));
    assert_eq!(d.parts[3].wire_form, "anthropic.tool_reference");
    assert!(
        d.parts.iter().all(|p| p.problems.is_empty()),
        "{:?}",
        d.parts
    );
}

#[test]
fn shape_problems_and_unknown_blocks() {
    let d = decode(json!({"messages": [{"role": "assistant", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64("image/png", "n")}},
    ]}]}));
    assert_eq!(codes(only(&d)), [ProblemCode::MediaOnNonUser]);
    let d = user(json!([{"type": "text", "text": ""}]));
    assert_eq!(codes(only(&d)), [ProblemCode::EmptyText]);
    let d = user(json!([]));
    assert_eq!(d.problems[0].code, ProblemCode::EmptyContent);
    let d = user(json!([{"type": "image"}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadPart]);
    let d = user(json!([{"type": "image", "source": {"type": "text", "data": "x"}}]));
    assert_eq!(codes(only(&d)), [ProblemCode::BadPart]);
    let d = user(json!([{"type": "image_url", "image_url": {"url": "https://x.test"}}]));
    let p = only(&d);
    assert_eq!(
        (p.kind, p.wire_form.as_str()),
        (PartKind::Unknown, "image_url")
    );
    assert_eq!(codes(p), [ProblemCode::UnknownPartType]);
    let d = user(json!([{"type": "thinking", "thinking": "hm"}]));
    assert!(only(&d).problems.is_empty());
}

#[test]
fn a_clients_extras_are_recorded_never_refused() {
    // Claude Code puts a system message inside `messages`; SDKs add tools, metadata,
    // thinking and stream options. None of it is a reason to refuse the call.
    let png = b64("image/png", "x-p0");
    let d = decode(json!({"model": "claude", "max_tokens": 16, "stream": true,
    "tools": [{"name": "f", "input_schema": {"type": "object"}}],
    "metadata": {"user_id": "u"}, "thinking": {"type": "enabled", "budget_tokens": 1024},
    "messages": [
        {"role": "system", "content": "you are a helper"},
        {"role": "user", "content": [
            {"type": "text", "text": "look", "cache_control": {"type": "ephemeral"}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
        ]},
    ]}));
    assert_eq!(d.status, 200);
    assert!(d.stream);
    assert_eq!(d.roles, ["system", "user"]);
    assert!(d.problems.is_empty(), "{:?}", d.problems);
    assert!(
        d.parts.iter().all(|p| p.problems.is_empty()),
        "{:?}",
        d.parts
    );
    assert_eq!(d.parts[2].stamps, ["x-p0"]);
}
