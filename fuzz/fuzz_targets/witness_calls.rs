//! What a client sends the witness, fuzzed: the first byte picks the wire (Chat
//! Completions, Messages, Responses, Gemini, Gemini countTokens), the rest is the request
//! body. Decoding, judging against the wire rules and the case the standalone witness
//! reports must never panic, and what is kept must stay within the limits (parts, text,
//! problems), whatever the body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmconform::api::witness::{Limits, Wire, decode_call, judge, observe};
use mmconform::api::{Findings, decide};

const WIRES: [(Wire, &str); 5] = [
    (Wire::OpenaiChat, "/v1/chat/completions"),
    (Wire::AnthropicMessages, "/v1/messages"),
    (Wire::OpenaiResponses, "/v1/responses"),
    (Wire::Gemini, "/v1beta/models/m:generateContent"),
    (Wire::GeminiCountTokens, "/v1beta/models/m:countTokens"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let (wire, path) = WIRES[usize::from(pick) % WIRES.len()];
    let limits = Limits {
        max_parts_per_call: 8,
        max_text_bytes_per_call: 256,
        max_problems_per_call: 8,
        ..Limits::default()
    };
    let call = decode_call(wire, path, body, &limits, 1);
    assert!(call.parts.len() <= limits.max_parts_per_call);
    assert!(call.problems.len() <= limits.max_problems_per_call);
    let kept: usize = call
        .parts
        .iter()
        .filter_map(|p| p.text.as_ref())
        .map(String::len)
        .sum();
    assert!(kept <= limits.max_text_bytes_per_call);
    assert!(call.status == 200 || call.status == 400, "{}", call.status);
    let _ = judge(&call);
    let _ = decide(Findings::observed(observe(&call)), false);
});
