//! Every validation rule of the faithful host, through the pure `validate_call`.

use serde_json::{Value, json};

use super::test_support::{data, media, mp4, png, text, user, verdict_of, wav};
use super::{ErrorCode, KNOWN_BLOB_BYTES, ReferenceConfig, known_media_ref, validate_call};

fn host(modalities: &[&str]) -> ReferenceConfig {
    ReferenceConfig {
        modalities: modalities.iter().map(|m| m.to_string()).collect(),
        ..ReferenceConfig::default()
    }
}

fn verdict(config: &ReferenceConfig, body: Value) -> String {
    verdict_of(validate_call(config, &body))
}

fn default_verdict(body: Value) -> String {
    verdict(&ReferenceConfig::default(), body)
}

fn message(config: &ReferenceConfig, body: Value) -> String {
    validate_call(config, &body).unwrap_err().message
}

#[test]
fn body_must_be_an_object_with_a_messages_array() {
    for body in [
        json!([]),
        json!("hi"),
        json!(null),
        json!({}),
        json!({"messages": "hi"}),
        json!({"messages": {}}),
    ] {
        assert_eq!(
            default_verdict(body.clone()),
            "400 invalid_request",
            "{body}"
        );
    }
}

#[test]
fn empty_messages_is_a_validation_error() {
    assert_eq!(
        default_verdict(json!({"messages": []})),
        "400 validation_error"
    );
}

#[test]
fn provider_and_model_must_be_strings_when_present() {
    let mut body = user(json!("hi"));
    body["provider"] = json!("reference");
    body["model"] = json!("any");
    assert_eq!(default_verdict(body.clone()), "200 text x1");
    body["model"] = json!(7);
    assert_eq!(default_verdict(body), "400 invalid_request");
}

#[test]
fn messages_need_an_object_with_a_known_role() {
    for msg in [
        json!("hi"),
        json!({"content": "hi"}),
        json!({"role": "tool", "content": "hi"}),
        json!({"role": 1, "content": "hi"}),
    ] {
        assert_eq!(
            default_verdict(json!({"messages": [msg]})),
            "400 invalid_request",
            "{msg}"
        );
    }
    for role in ["user", "assistant", "system"] {
        let body = json!({"messages": [{"role": role, "content": "hi"}]});
        assert_eq!(default_verdict(body), "200 text x1", "{role}");
    }
}

#[test]
fn content_is_a_string_or_an_array() {
    assert_eq!(default_verdict(user(json!("hi"))), "200 text x1");
    assert_eq!(
        default_verdict(user(json!([text("a"), png()]))),
        "200 text,image x2"
    );
    // Nothing to send: an empty list and an empty text are refused like the rest.
    assert_eq!(default_verdict(user(json!([]))), "400 invalid_request");
    assert_eq!(
        default_verdict(user(json!([text("")]))),
        "400 invalid_request"
    );
    for content in [
        json!(42),
        json!({"type": "text", "text": "hi"}),
        json!(null),
        json!(true),
    ] {
        assert_eq!(
            default_verdict(user(content.clone())),
            "400 invalid_request",
            "{content}"
        );
    }
    let missing = json!({"messages": [{"role": "user"}]});
    assert_eq!(default_verdict(missing), "400 invalid_request");
}

#[test]
fn parts_need_an_object_with_a_string_type() {
    for part in [
        json!("hi"),
        json!(3),
        json!({"text": "hi"}),
        json!({"type": 5}),
    ] {
        assert_eq!(
            default_verdict(user(json!([part]))),
            "400 invalid_request",
            "{part}"
        );
    }
}

#[test]
fn text_parts_need_string_text_and_are_always_accepted() {
    assert_eq!(
        default_verdict(user(json!([{"type": "text"}]))),
        "400 invalid_request"
    );
    assert_eq!(
        default_verdict(user(json!([{"type": "text", "text": 1}]))),
        "400 invalid_request"
    );
    // Text is implicit (RFC 0091 §B), even on a host that lists only image, and on a
    // host with no input block at all.
    let image_only = host(&["image"]);
    assert_eq!(
        verdict(&image_only, user(json!([text("a")]))),
        "200 text x1"
    );
    let text_only = ReferenceConfig {
        advertise_input: false,
        ..ReferenceConfig::default()
    };
    assert_eq!(verdict(&text_only, user(json!([text("a")]))), "200 text x1");
    assert_eq!(
        verdict(&text_only, user(json!([png()]))),
        "400 unsupported_modality"
    );
}

#[test]
fn unadvertised_and_unknown_types_are_unsupported_modality() {
    let config = ReferenceConfig::default(); // text, image
    for part in [
        wav(),
        mp4(),
        media("document", "application/pdf", "data", &data(8)),
        media("file", "application/pdf", "dataBase64", &data(8)),
        media("hologram", "x/y", "data", &data(8)),
    ] {
        let body = user(json!([text("a"), part.clone()]));
        assert_eq!(verdict(&config, body), "400 unsupported_modality", "{part}");
    }
    // Even a (misconfigured) host listing `video` refuses it: the enum is closed.
    let video_listed = host(&["text", "video"]);
    assert_eq!(
        verdict(&video_listed, user(json!([mp4()]))),
        "400 unsupported_modality"
    );
}

#[test]
fn the_modality_check_comes_before_shape_checks() {
    // An unadvertised part with no mimeType and no source is refused for its type.
    let body = user(json!([{"type": "audio"}]));
    assert_eq!(default_verdict(body), "400 unsupported_modality");
}

#[test]
fn each_advertised_modality_is_accepted() {
    let config = host(&["text", "image", "audio", "document"]);
    let body = user(json!([
        png(),
        wav(),
        media("document", "application/pdf", "data", &data(8)),
        media("document", "text/plain", "data", &data(8)),
        text("describe"),
    ]));
    assert_eq!(verdict(&config, body), "200 image,audio,document,text x5");
}

#[test]
fn mime_type_is_required_and_a_string() {
    let body = user(json!([{"type": "image", "data": data(8)}]));
    assert!(message(&ReferenceConfig::default(), body.clone()).contains("mimeType"));
    assert_eq!(default_verdict(body), "400 invalid_request");
    let body = user(json!([{"type": "image", "mimeType": 1, "data": data(8)}]));
    assert_eq!(default_verdict(body), "400 invalid_request");
}

#[test]
fn exactly_one_source() {
    let none = user(json!([{"type": "image", "mimeType": "image/png"}]));
    assert_eq!(default_verdict(none), "400 invalid_request");
    let mut two = png();
    two["url"] = json!("https://example.com/a.png");
    assert_eq!(default_verdict(user(json!([two]))), "400 invalid_request");
    let mut alias_twice = png();
    alias_twice["dataBase64"] = json!(data(8));
    assert_eq!(
        default_verdict(user(json!([alias_twice]))),
        "400 invalid_request"
    );
    let mut null_extra = png();
    null_extra["url"] = Value::Null;
    assert_eq!(default_verdict(user(json!([null_extra]))), "200 image x1");
}

#[test]
fn mime_type_must_fit_the_modality() {
    let body = user(json!([media("image", "audio/wav", "data", &data(8))]));
    assert_eq!(default_verdict(body), "415 unsupported_media_type");
    let docs = host(&["document"]);
    let body = user(json!([media(
        "document",
        "application/zip",
        "data",
        &data(8)
    )]));
    assert_eq!(verdict(&docs, body), "415 unsupported_media_type");
    for mime in ["image/jpeg", "image/webp", "image/gif"] {
        let body = user(json!([media("image", mime, "data", &data(8))]));
        assert_eq!(default_verdict(body), "200 image x1", "{mime}");
    }
}

#[test]
fn data_must_be_padded_standard_base64() {
    for bad in ["not base64!", "AAA", "AA=A", "-_-_", "QUJD\n"] {
        let body = user(json!([media("image", "image/png", "data", bad)]));
        assert_eq!(default_verdict(body), "400 invalid_request", "{bad:?}");
    }
}

#[test]
fn max_bytes_per_part_is_inclusive() {
    let config = ReferenceConfig {
        max_bytes_per_part: Some(100),
        ..ReferenceConfig::default()
    };
    let at = user(json!([media("image", "image/png", "data", &data(100))]));
    assert_eq!(verdict(&config, at), "200 image x1");
    let over = user(json!([media("image", "image/png", "data", &data(101))]));
    assert_eq!(verdict(&config, over), "413 payload_too_large");
    let uncapped = ReferenceConfig {
        max_bytes_per_part: None,
        ..config
    };
    let big = user(json!([media("image", "image/png", "data", &data(200_000))]));
    assert_eq!(verdict(&uncapped, big), "200 image x1");
}

#[test]
fn media_refs_must_be_known_and_count_as_their_attributed_size() {
    let known = known_media_ref("image").unwrap();
    let body = user(json!([media("image", "image/png", "mediaRef", known)]));
    assert_eq!(default_verdict(body.clone()), "200 image x1");
    let small_cap = ReferenceConfig {
        max_bytes_per_part: Some(KNOWN_BLOB_BYTES - 1),
        ..ReferenceConfig::default()
    };
    assert_eq!(verdict(&small_cap, body), "413 payload_too_large");
    let exact_cap = ReferenceConfig {
        max_bytes_per_part: Some(KNOWN_BLOB_BYTES),
        ..ReferenceConfig::default()
    };
    let body = user(json!([media("image", "image/png", "mediaRef", known)]));
    assert_eq!(verdict(&exact_cap, body), "200 image x1");

    for unknown in ["blob:run-7/chart", known_media_ref("audio").unwrap(), ""] {
        let body = user(json!([media("image", "image/png", "mediaRef", unknown)]));
        assert_eq!(default_verdict(body.clone()), "400 invalid_request");
        assert!(message(&ReferenceConfig::default(), body).contains("unknown mediaRef"));
    }
}

#[test]
fn urls_pass_the_ssrf_guard_and_are_never_fetched() {
    // Accepted without a fetch (the host has no outbound traffic), so an unreachable
    // public name is fine.
    let body = user(json!([media(
        "image",
        "image/png",
        "url",
        "https://example.invalid/a.png"
    )]));
    assert_eq!(default_verdict(body), "200 image x1");
    for internal in [
        "http://127.0.0.1/a.png",
        "http://localhost:8080/a.png",
        "http://10.1.2.3/a.png",
        "http://192.168.0.10/a.png",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/a.png",
        "http://[fd12::1]/a.png",
        "http://[fe80::1]/a.png",
        "http://0.0.0.0/a.png",
    ] {
        let body = user(json!([media("image", "image/png", "url", internal)]));
        assert_eq!(
            default_verdict(body.clone()),
            "400 invalid_request",
            "{internal}"
        );
        assert!(
            message(&ReferenceConfig::default(), body).contains("SSRF guard"),
            "{internal}"
        );
    }
    for malformed in [
        "a.png",
        "/img/a.png",
        "ftp://example.com/a.png",
        "data:image/png;base64,AA==",
    ] {
        let body = user(json!([media("image", "image/png", "url", malformed)]));
        assert_eq!(default_verdict(body), "400 invalid_request", "{malformed}");
    }
}

#[test]
fn suite_dialect_file_and_data_base64_are_aliases() {
    let docs = host(&["text", "document"]);
    let body = user(json!([
        text("summarise"),
        media("file", "application/pdf", "dataBase64", &data(64)),
    ]));
    assert_eq!(verdict(&docs, body), "200 text,document x2");
    let bad = user(json!([media(
        "file",
        "application/pdf",
        "dataBase64",
        "%%%"
    )]));
    assert_eq!(verdict(&docs, bad), "400 invalid_request");
    let wrong_mime = user(json!([media("file", "image/png", "dataBase64", &data(8))]));
    assert_eq!(verdict(&docs, wrong_mime), "415 unsupported_media_type");
    let aliased_image = user(json!([media("image", "image/png", "dataBase64", &data(8))]));
    assert_eq!(default_verdict(aliased_image), "200 image x1");
}

#[test]
fn every_message_and_every_part_is_checked() {
    let later_part = user(json!([png(), text("b"), wav()]));
    assert_eq!(default_verdict(later_part), "400 unsupported_modality");
    for role in ["user", "assistant", "system"] {
        let body = json!({"messages": [
            {"role": "user", "content": "hi"},
            {"role": role, "content": [wav()]},
        ]});
        assert_eq!(default_verdict(body), "400 unsupported_modality", "{role}");
    }
    let later_bad_role =
        json!({"messages": [{"role": "user", "content": "hi"}, {"role": "bot", "content": "x"}]});
    assert_eq!(default_verdict(later_bad_role), "400 invalid_request");
}

#[test]
fn first_problem_wins_in_document_order() {
    let body = json!({"messages": [
        {"role": "user", "content": [{"type": "image", "mimeType": "image/png"}]},
        {"role": "user", "content": [wav()]},
    ]});
    assert_eq!(default_verdict(body), "400 invalid_request");
    // Within a part: MIME fit (415) is judged before the base64 (400).
    let body = user(json!([media("image", "audio/wav", "data", "%%%")]));
    assert_eq!(default_verdict(body), "415 unsupported_media_type");
    // Missing mimeType is reported before the source count.
    let body = user(json!([{"type": "image"}]));
    assert!(message(&ReferenceConfig::default(), body).contains("mimeType"));
}

#[test]
fn summary_echoes_advertised_with_text_and_distinct_modalities() {
    let config = host(&["image", "audio"]);
    let body = json!({"messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [png(), wav(), png(), text("x")]},
    ]});
    let summary = validate_call(&config, &body).unwrap();
    assert_eq!(summary.advertised, ["text", "image", "audio"]);
    assert_eq!(summary.modalities, ["text", "image", "audio"]);
    assert_eq!(summary.parts, 5);
}

#[test]
fn rejections_carry_the_path() {
    let body = json!({"messages": [{"role": "user", "content": "hi"}, {"role": "user", "content": [text("a"), wav()]}]});
    let rejection = validate_call(&ReferenceConfig::default(), &body).unwrap_err();
    assert_eq!(rejection.code, ErrorCode::UnsupportedModality);
    let details = rejection.details.unwrap();
    assert_eq!(details["path"], "messages[1].content[1]");
    assert_eq!(details["type"], "audio");
}
