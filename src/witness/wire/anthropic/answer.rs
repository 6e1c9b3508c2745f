//! What the witness answers on the Messages wire: a `message` whose one text block
//! says what was seen, or that message streamed as the events from `message_start` to
//! `message_stop` ([`anthropic::EVENTS`]). Errors use `crate::wire::anthropic::error`.

use crate::wire::anthropic;
use crate::witness::answer::words;
use crate::witness::tools::{ToolCallMade, Way};
use serde_json::{Map, Value, json};

/// The stop reason of a message that calls a tool.
const STOP_TOOL_USE: &str = "tool_use";

/// A message whose one block calls the tool (`stop_reason: tool_use`).
pub fn tool_call(seq: u64, model: &str, call: &ToolCallMade) -> Value {
    let mut out = message(seq, model, "");
    out["content"] = json!([{"type": "tool_use", "id": call.id, "name": call.name,
        "input": input(call)}]);
    out["stop_reason"] = json!(STOP_TOOL_USE);
    out["usage"]["output_tokens"] = json!(1);
    out
}

/// The same call streamed: the `tool_use` block started with `input: {}`, its input in
/// one `input_json_delta`, `stop_reason: tool_use`.
pub fn tool_call_events(seq: u64, model: &str, call: &ToolCallMade) -> String {
    let block = json!({"type": "tool_use", "id": call.id, "name": call.name, "input": {}});
    let delta = json!({"type": "input_json_delta", "partial_json": input(call).to_string()});
    stream(seq, model, block, delta, STOP_TOOL_USE, 1)
}

/// The call's input: the tool's arguments, or a client tool search's selection of the
/// tool by its exact name (`ToolSearch`: `{"query": "select:<name>", "max_results": 1}`;
/// its schema requires both).
fn input(call: &ToolCallMade) -> Value {
    match &call.way {
        // Code mode is a Responses way; the Messages wire never decides on it.
        Way::Direct | Way::CodeMode { .. } => call.arguments(),
        Way::Search { tool } => json!({"query": format!("select:{tool}"), "max_results": 1}),
    }
}

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
    let block = json!({"type": "text", "text": ""});
    let delta = json!({"type": "text_delta", "text": text});
    stream(seq, model, block, delta, "end_turn", words(text))
}

/// One block streamed: its start, one delta, its stop, the stop reason, the end.
fn stream(seq: u64, model: &str, block: Value, delta: Value, stop: &str, tokens: usize) -> String {
    let mut start = message(seq, model, "");
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    start["usage"]["output_tokens"] = json!(0);
    // Each event's data carries its name as `type`, in the order the wire streams them.
    let data = [
        json!({"message": start}),
        json!({"index": 0, "content_block": block}),
        json!({"index": 0, "delta": delta}),
        json!({"index": 0}),
        json!({"delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": tokens}}),
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
    fn a_tool_call_is_one_tool_use_block_json_or_streamed() {
        let call = ToolCallMade::direct(
            "call_mmconform_4",
            "mcp__mmconform__mmconform_tool_media",
            "c",
            "wav",
        );
        let whole = tool_call(4, "claude", &call);
        assert_eq!(whole["stop_reason"], "tool_use");
        assert_eq!(whole["content"][0]["type"], "tool_use");
        assert_eq!(
            whole["content"][0]["input"],
            json!({"case": "c", "medium": "wav"})
        );
        let body = tool_call_events(4, "claude", &call);
        let data: Vec<Value> = data_lines(&body)
            .iter()
            .map(|d| serde_json::from_str(d).unwrap())
            .collect();
        assert_eq!(data[1]["content_block"]["input"], json!({}));
        assert_eq!(data[1]["content_block"]["name"], call.name);
        let input: Value =
            serde_json::from_str(data[2]["delta"]["partial_json"].as_str().unwrap()).unwrap();
        assert_eq!(input, json!({"case": "c", "medium": "wav"}));
        assert_eq!(data[4]["delta"]["stop_reason"], "tool_use");
    }

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
