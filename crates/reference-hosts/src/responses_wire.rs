//! A Chat Completions request on its way to an OpenAI Responses upstream (the OpenAI
//! API reference, "Responses", input items), for a gateway that takes Chat and calls
//! Responses (as the OpenAI-compatible reference server does with `--upstream-wire
//! responses`): each message becomes an input message item, each part its Responses
//! counterpart, with nothing dropped or renamed on the way. A forwarding fault has
//! already bent the Chat body (`openai/forward.rs`); this only translates it.
//!
//! The tool's witness reads this wire with its own decoder; this crate never uses the
//! tool's code, so the encoding is written here, small and on its own.

use serde_json::{Map, Value, json};

/// The Responses request for the Chat Completions request `chat` (not streamed).
pub fn from_chat(chat: &Value) -> Value {
    let input: Vec<Value> = chat["messages"]
        .as_array()
        .map(|messages| messages.iter().map(item).collect())
        .unwrap_or_default();
    json!({"model": chat["model"], "input": input, "stream": false})
}

/// One message as a message item.
fn item(message: &Value) -> Value {
    let role = message["role"].as_str().unwrap_or("user");
    let content = match &message["content"] {
        Value::Array(parts) => Value::Array(parts.iter().map(|p| part(role, p)).collect()),
        other => other.clone(),
    };
    json!({"type": "message", "role": role, "content": content})
}

/// One part: `text` -> `input_text` (`output_text` from the assistant), `image_url
/// {url, detail}` -> `input_image {image_url, detail}`, `input_audio` as it is, `file
/// {file_data | file_id, filename}` -> `input_file {...}`; anything else as it came.
fn part(role: &str, part: &Value) -> Value {
    let field = |outer: &str, name: &str| part[outer].get(name).cloned();
    match part["type"].as_str() {
        Some("text") if role == "assistant" => json!({"type": "output_text", "text": part["text"]}),
        Some("text") => json!({"type": "input_text", "text": part["text"]}),
        Some("image_url") => {
            let mut out = Map::new();
            out.insert("type".into(), json!("input_image"));
            let url = field("image_url", "url").unwrap_or_else(|| part["image_url"].clone());
            out.insert("image_url".into(), url);
            if let Some(detail) = field("image_url", "detail") {
                out.insert("detail".into(), detail);
            }
            Value::Object(out)
        }
        Some("file") => {
            let mut out = Map::new();
            out.insert("type".into(), json!("input_file"));
            for name in ["file_data", "file_id", "filename"] {
                if let Some(value) = field("file", name) {
                    out.insert(name.into(), value);
                }
            }
            Value::Object(out)
        }
        _ => part.clone(),
    }
}

/// The text of a Responses answer: every `output_text` of its output messages, joined.
pub fn reply_text(answer: &Value) -> String {
    let Some(output) = answer["output"].as_array() else {
        return String::new();
    };
    output
        .iter()
        .filter_map(|item| item["content"].as_array())
        .flatten()
        .filter(|c| c["type"] == "output_text")
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_chat_part_becomes_its_responses_counterpart() {
        let chat = json!({"model": "m", "stream": true, "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": [
                {"type": "text", "text": "look"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAEC", "detail": "low"}},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
                {"type": "input_audio", "input_audio": {"data": "AwQF", "format": "wav"}},
                {"type": "file", "file": {"file_data": "data:application/pdf;base64,BgcI", "filename": "r.pdf"}},
                {"type": "file", "file": {"file_id": "file-1"}},
            ]},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
        ]});
        assert_eq!(
            from_chat(&chat),
            json!({"model": "m", "stream": false, "input": [
                {"type": "message", "role": "system", "content": "be brief"},
                {"type": "message", "role": "user", "content": [
                    {"type": "input_text", "text": "look"},
                    {"type": "input_image", "image_url": "data:image/png;base64,AAEC", "detail": "low"},
                    {"type": "input_image", "image_url": "https://x.test/a.png"},
                    {"type": "input_audio", "input_audio": {"data": "AwQF", "format": "wav"}},
                    {"type": "input_file", "file_data": "data:application/pdf;base64,BgcI", "filename": "r.pdf"},
                    {"type": "input_file", "file_id": "file-1"},
                ]},
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
            ]})
        );
    }

    #[test]
    fn the_reply_text_is_every_output_text() {
        let answer = json!({"output": [
            {"type": "reasoning", "summary": []},
            {"type": "message", "content": [{"type": "output_text", "text": "a"}, {"type": "refusal", "refusal": "x"}]},
            {"type": "message", "content": [{"type": "output_text", "text": "b"}]},
        ]});
        assert_eq!(reply_text(&answer), "ab");
        assert_eq!(reply_text(&json!({})), "");
    }
}
