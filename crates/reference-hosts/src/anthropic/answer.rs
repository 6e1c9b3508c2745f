//! The answer to an accepted request: a `message` object, or its event stream
//! (`message_start`, `content_block_start`, `content_block_delta`, `content_block_stop`,
//! `message_delta`, `message_stop`; Streaming Messages reference), each frame named by
//! its `event:` line.

use serde_json::{Value, json};

/// The `message` object saying `text`.
pub fn message(model: &str, text: &str) -> Value {
    json!({
        "id": "msg_reference",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": null,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    })
}

/// The events streaming `text`; without `message_stop` when `cut` (a fault).
pub fn events(model: &str, text: &str, cut: bool) -> Vec<(&'static str, Value)> {
    let mut start = message(model, "");
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    let mut out = vec![
        (
            "message_start",
            json!({"type": "message_start", "message": start}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
                "content_block": {"type": "text", "text": ""}}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0,
                "delta": {"type": "text_delta", "text": text}}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                "usage": {"output_tokens": 1}}),
        ),
    ];
    if !cut {
        out.push(("message_stop", json!({"type": "message_stop"})));
    }
    out
}

/// The SSE body of `events`.
pub fn sse_body(events: &[(&'static str, Value)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, data) in events {
        let frame = sse_stream::Sse::default()
            .event(*name)
            .data(data.to_string())
            .encode()
            .expect("a frame with an event name and data always encodes");
        body.extend_from_slice(&frame);
    }
    body
}
