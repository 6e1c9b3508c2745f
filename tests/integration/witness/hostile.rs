//! Hostile traffic to `mmconform witness`: an oversized body, a 10 000-part message,
//! binary garbage, deep nesting, too many values and wrong types. Each is answered and
//! judged; the witness never panics, stays within a memory bound, and ends with its
//! reports. Nothing here talks to anything but 127.0.0.1.

use crate::common::witness::{Served, post};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::time::Duration;

/// Peak resident memory the witness may reach here (the body cap is 8 MiB).
const MEMORY_BOUND_KIB: i64 = 100 * 1024;

#[test]
fn hostile_calls_are_answered_judged_and_bounded() {
    let served = Served::start(&["--count", "6", "--max-body-bytes", "8388608"]);
    let url = served.url.clone();

    let (status, _) = post(&url, "/chat/completions", vec![b'{'; 24 << 20]);
    assert_eq!(status, 413);

    let png = STANDARD.encode(mmconform_media::generate("image/png", "x"));
    let parts: Vec<Value> = (0..10_000)
        .map(|i| {
            let nonce = format!("many-p{i}");
            let png = if i == 9_999 {
                STANDARD.encode(mmconform_media::generate("image/png", &nonce))
            } else {
                png.clone()
            };
            json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}})
        })
        .collect();
    let many = json!({"messages": [{"role": "user", "content": parts}]}).to_string();
    let (status, body) = post(&url, "/chat/completions", many);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("and 9984 more part(s)"), "{body}");

    let garbage: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    assert_eq!(post(&url, "/chat/completions", garbage).0, 400);
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    assert_eq!(post(&url, "/messages", deep).0, 400);
    let wrong = json!({"messages": [{"role": 5, "content": [1, "x", null, {"type": 5}, {"type": "image_url", "image_url": 7}]}]});
    assert_eq!(post(&url, "/chat/completions", wrong.to_string()).0, 200);
    let wide = format!("{{\"messages\": [{}]}}", "0,".repeat(300_000) + "0");
    assert_eq!(post(&url, "/chat/completions", wide).0, 400);

    let ended = served.wait(Duration::from_secs(60));
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    assert_eq!(ended.code, 1, "{}", ended.context());
    assert!(!ended.stderr.contains("panicked"), "{}", ended.stderr);
    assert!(
        usage.max_rss() <= MEMORY_BOUND_KIB,
        "peak memory {} KiB over {MEMORY_BOUND_KIB} KiB",
        usage.max_rss()
    );
    let calls: Vec<Value> = ended.cases().iter().map(|c| c["stream"].clone()).collect();
    assert_eq!(calls.len(), 6);
    assert_eq!(calls[0]["status"], 413);
    assert_eq!(calls[0]["problems"][0]["code"], "body_too_large");
    assert_eq!(calls[1]["parts_total"], 10_000);
    assert_eq!(calls[1]["parts"].as_array().unwrap().len(), 512);
    // The last part is past the cap, and its nonce is still found.
    assert_eq!(calls[1]["more_stamps"], json!(["x", "many-p9999"]));
    for (i, code) in [
        (2, "malformed_json"),
        (3, "malformed_json"),
        (5, "malformed_json"),
    ] {
        assert_eq!(calls[i]["problems"][0]["code"], code, "call {i}");
    }
    let cases = ended.cases();
    let outcomes: Vec<&str> = cases
        .iter()
        .map(|c| c["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["fail", "pass", "fail", "fail", "fail", "fail"]);
}
