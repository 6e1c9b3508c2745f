//! What the witness answers on the Chat Completions wire: a `chat.completion` whose
//! one message says what was seen, or that text streamed as chunks ending `data:
//! [DONE]`. Errors use the OpenAI envelope (`crate::wire::chat::error`).

use crate::wire::chat;
use crate::witness::answer::{unix_now, words};
use serde_json::{Value, json};

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
