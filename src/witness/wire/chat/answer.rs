//! What the witness answers on the Chat Completions wire: a `chat.completion` whose
//! one message says what was seen, or that text streamed as chunks ending `data:
//! [DONE]`; or, in a tool-media case, one call to the tool (`finish_reason:
//! tool_calls`, streamed as indexed `tool_calls` deltas). Errors use the OpenAI
//! envelope (`crate::wire::chat::error`).

use crate::wire::chat;
use crate::witness::answer::{unix_now, words};
use crate::witness::tools::ToolCallMade;
use serde_json::{Value, json};

/// A completion whose message calls the tool.
pub fn tool_call(seq: u64, model: &str, call: &ToolCallMade) -> Value {
    json!({
        "id": format!("chatcmpl-mmconform-{seq}"),
        "object": chat::COMPLETION_OBJECT,
        "created": unix_now(),
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": null, "refusal": null,
                "tool_calls": [function_call(call, &call.arguments().to_string())]},
            "logprobs": null,
            "finish_reason": chat::FINISH_TOOL_CALLS,
        }],
        "usage": {"prompt_tokens": 0, "completion_tokens": 1, "total_tokens": 1},
    })
}

/// The same call streamed: its id and name with empty arguments, the arguments in
/// one delta, the finish, usage when asked, `[DONE]`.
pub fn tool_call_chunks(seq: u64, model: &str, call: &ToolCallMade, usage: bool) -> String {
    let created = unix_now();
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": format!("chatcmpl-mmconform-{seq}"),
            "object": chat::CHUNK_OBJECT,
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
        })
    };
    let mut first = function_call(call, "");
    first["index"] = json!(0);
    let arguments = json!({"index": 0, "function": {"arguments": call.arguments().to_string()}});
    let mut chunks = vec![
        chunk(
            json!({"role": "assistant", "content": null, "tool_calls": [first]}),
            Value::Null,
        ),
        chunk(json!({"tool_calls": [arguments]}), Value::Null),
        chunk(json!({}), json!(chat::FINISH_TOOL_CALLS)),
    ];
    if usage {
        chunks.push(json!({
            "id": format!("chatcmpl-mmconform-{seq}"),
            "object": chat::CHUNK_OBJECT,
            "created": created,
            "model": model,
            "choices": [],
            "usage": {"prompt_tokens": 0, "completion_tokens": 1, "total_tokens": 1},
        }));
    }
    let mut out: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    out.push_str(&format!("data: {}\n\n", chat::DONE));
    out
}

/// `{id, type: function, function: {name, arguments}}`.
fn function_call(call: &ToolCallMade, arguments: &str) -> Value {
    json!({"id": call.id, "type": chat::FUNCTION,
        "function": {"name": call.name, "arguments": arguments}})
}

pub fn completion(seq: u64, model: &str, text: &str) -> Value {
    json!({
        "id": format!("chatcmpl-mmconform-{seq}"),
        "object": chat::COMPLETION_OBJECT,
        "created": unix_now(),
        "model": model,
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": text, "refusal": null},
            "logprobs": null,
            "finish_reason": "stop",
        }],
        "usage": {"prompt_tokens": 0, "completion_tokens": words(text), "total_tokens": words(text)},
    })
}

/// `data: {chunk}` lines: the role, the text, the finish, usage when asked, `[DONE]`.
pub fn chunks(seq: u64, model: &str, text: &str, usage: bool) -> String {
    let created = unix_now();
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": format!("chatcmpl-mmconform-{seq}"),
            "object": chat::CHUNK_OBJECT,
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
        })
    };
    let mut chunks = vec![
        chunk(json!({"role": "assistant", "content": ""}), Value::Null),
        chunk(json!({"content": text}), Value::Null),
        chunk(json!({}), json!("stop")),
    ];
    if usage {
        chunks.push(json!({
            "id": format!("chatcmpl-mmconform-{seq}"),
            "object": chat::CHUNK_OBJECT,
            "created": created,
            "model": model,
            "choices": [],
            "usage": {"prompt_tokens": 0, "completion_tokens": words(text), "total_tokens": words(text)},
        }));
    }
    let mut out: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    out.push_str(&format!("data: {}\n\n", chat::DONE));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::witness::wire::data_lines;

    #[test]
    fn a_tool_call_is_one_call_with_its_arguments_json_or_streamed() {
        let call = ToolCallMade::direct(
            "call_mmconform_2",
            "mcp__mmconform__mmconform_tool_media",
            "c",
            "png",
        );
        let whole = tool_call(2, "m", &call);
        let choice = &whole["choices"][0];
        assert_eq!(choice["finish_reason"], "tool_calls");
        let made = &choice["message"]["tool_calls"][0];
        assert_eq!(made["id"], "call_mmconform_2");
        assert_eq!(made["function"]["name"], call.name);
        let args: Value =
            serde_json::from_str(made["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args, json!({"case": "c", "medium": "png"}));
        let body = tool_call_chunks(2, "m", &call, false);
        let data = data_lines(&body);
        assert_eq!(data.last(), Some(&chat::DONE));
        let parsed: Vec<Value> = data[..data.len() - 1]
            .iter()
            .map(|d| serde_json::from_str(d).unwrap())
            .collect();
        let deltas: Vec<&Value> = parsed
            .iter()
            .flat_map(|c| {
                c["choices"][0]["delta"]["tool_calls"]
                    .as_array()
                    .into_iter()
                    .flatten()
            })
            .collect();
        assert_eq!(deltas[0]["id"], "call_mmconform_2");
        assert_eq!(deltas[0]["index"], 0);
        let streamed: String = deltas
            .iter()
            .filter_map(|d| d["function"]["arguments"].as_str())
            .collect();
        assert_eq!(serde_json::from_str::<Value>(&streamed).unwrap(), args);
        assert_eq!(
            parsed.last().unwrap()["choices"][0]["finish_reason"],
            "tool_calls"
        );
    }

    #[test]
    fn the_openai_stream_is_chunks_then_done() {
        let body = chunks(3, "m", "hello there", true);
        let data = data_lines(&body);
        assert_eq!(data.last(), Some(&chat::DONE));
        let parsed: Vec<Value> = data[..data.len() - 1]
            .iter()
            .map(|d| serde_json::from_str(d).unwrap())
            .collect();
        assert_eq!(parsed.len(), 4);
        let text: String = parsed
            .iter()
            .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
            .collect();
        assert_eq!(text, "hello there");
        assert_eq!(parsed[2]["choices"][0]["finish_reason"], "stop");
        assert_eq!(parsed[3]["usage"]["completion_tokens"], 2);
        assert!(parsed.iter().all(|c| c["object"] == chat::CHUNK_OBJECT));
        assert_eq!(data_lines(&chunks(3, "m", "x", false)).len(), 4);
    }
}
