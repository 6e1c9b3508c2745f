//! What the witness answers on the Messages wire: a `message` whose one text block
//! says what was seen, or that message streamed as the events from `message_start` to
//! `message_stop` ([`anthropic::EVENTS`]). Errors use `crate::wire::anthropic::error`.

use crate::wire::anthropic;
use crate::witness::answer::words;
use serde_json::{Map, Value, json};

pub fn message(seq: u64, model: &str, text: &str) -> Value {
    json!({
        "id": format!("msg_mmconform_{seq}"),
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": null,
        "usage": {"input_tokens": 0, "output_tokens": words(text)},
    })
}

/// The Messages stream: `message_start`, one text block (start, delta, stop),
/// `message_delta` with the stop reason, `message_stop`.
pub fn events(seq: u64, model: &str, text: &str) -> String {
    let mut start = message(seq, model, "");
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    start["usage"]["output_tokens"] = json!(0);
    // Each event's data carries its name as `type`, in the order the wire streams them.
    let data = [
        json!({"message": start}),
        json!({"index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"index": 0, "delta": {"type": "text_delta", "text": text}}),
        json!({"index": 0}),
        json!({"delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": words(text)}}),
        json!({}),
    ];
    anthropic::EVENTS
        .iter()
        .zip(data)
        .map(|(name, fields)| {
            let mut event = Map::new();
            event.insert("type".into(), json!(name));
            if let Value::Object(fields) = fields {
                event.extend(fields);
            }
            format!("event: {name}\ndata: {}\n\n", Value::Object(event))
        })
        .collect()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::wire::data_lines;

    #[test]
    fn the_anthropic_stream_has_its_events_in_order() {
        let body = events(3, "claude", "seen");
        let names: Vec<&str> = body
            .lines()
            .filter_map(|l| l.strip_prefix("event: "))
            .collect();
        assert_eq!(names, anthropic::EVENTS);
        let data: Vec<Value> = data_lines(&body)
            .iter()
            .map(|d| serde_json::from_str(d).unwrap())
            .collect();
        for (name, event) in names.iter().zip(&data) {
            assert_eq!(event["type"], *name);
        }
        assert_eq!(data[0]["message"]["content"], serde_json::json!([]));
        assert_eq!(data[2]["delta"]["text"], "seen");
        assert_eq!(data[4]["delta"]["stop_reason"], "end_turn");
    }
}
