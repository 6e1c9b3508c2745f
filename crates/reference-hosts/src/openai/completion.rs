//! The answer to an accepted request: a `chat.completion` whose text says what the
//! model saw, part by part (kinds, types, sizes and the mmconform stamps in the
//! bytes), so a person reading a run can tell a silent drop from a real look.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::request::ChatRequest;

/// One answer, streamed or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub id: String,
    pub created: u64,
    pub model: String,
    pub text: String,
    pub finish_reason: String,
    pub usage: Usage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    pub fn to_json(self) -> Value {
        json!({
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.prompt_tokens + self.completion_tokens,
        })
    }
}

/// A fresh `chatcmpl-…` id (unique in this process).
pub fn completion_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "chatcmpl-mmconform-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Seconds since the epoch (0 if the clock is before it).
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `reference-multimodal received 1 message. messages[0] user: text 5 chars; image
/// image/png 1234 bytes stamp abc.`
pub fn describe(request: &ChatRequest) -> String {
    let count = request.messages.len();
    let mut text = format!(
        "{} received {count} message{}.",
        request.model.id,
        if count == 1 { "" } else { "s" }
    );
    for (i, message) in request.messages.iter().enumerate() {
        let parts: Vec<String> = message.parts.iter().map(|p| p.describe()).collect();
        let parts = if parts.is_empty() {
            "nothing".to_owned()
        } else {
            parts.join("; ")
        };
        text.push_str(&format!(" messages[{i}] {}: {parts}.", message.role));
    }
    text
}

/// The reference model's own answer to `request`.
pub fn answer(request: &ChatRequest) -> Answer {
    let text = describe(request);
    let prompt_tokens = request
        .messages
        .iter()
        .map(|m| 3 + m.parts.iter().map(|p| p.tokens).sum::<u64>())
        .sum();
    Answer {
        id: completion_id(),
        created: now(),
        model: request.model.id.to_owned(),
        usage: Usage {
            prompt_tokens,
            completion_tokens: text.split_whitespace().count() as u64,
        },
        text,
        finish_reason: "stop".into(),
    }
}

impl Answer {
    /// The non-streamed `chat.completion`.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "object": "chat.completion",
            "created": self.created,
            "model": self.model,
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": self.text, "refusal": null},
                "logprobs": null,
                "finish_reason": self.finish_reason,
            }],
            "usage": self.usage.to_json(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openai::models::find;
    use crate::openai::request::SeenMessage;
    use crate::openai::seen::Seen;

    #[test]
    fn the_answer_names_every_part_and_counts_tokens() {
        let png = mmconform_media::generate("image/png", "feedface");
        let request = ChatRequest {
            model: find("reference-multimodal").unwrap(),
            stream: false,
            include_usage: false,
            messages: vec![
                SeenMessage {
                    role: "system".into(),
                    parts: vec![Seen::text("be brief")],
                },
                SeenMessage {
                    role: "user".into(),
                    parts: vec![
                        Seen::text("look"),
                        Seen::inline("image", "image/png", &png, None),
                    ],
                },
            ],
            door: Default::default(),
        };
        let answer = answer(&request);
        assert_eq!(
            answer.text,
            format!(
                "reference-multimodal received 2 messages. messages[0] system: text 8 chars. messages[1] user: text 4 chars; image image/png {} bytes stamp feedface.",
                png.len()
            )
        );
        assert_eq!(answer.usage.prompt_tokens, 3 + 2 + 3 + 1 + 85);
        let json = answer.to_json();
        assert_eq!(json["object"], "chat.completion");
        assert_eq!(json["choices"][0]["message"]["role"], "assistant");
        assert_eq!(json["choices"][0]["finish_reason"], "stop");
        assert_eq!(
            json["usage"]["total_tokens"].as_u64().unwrap(),
            answer.usage.prompt_tokens + answer.usage.completion_tokens
        );
        assert_ne!(completion_id(), completion_id());
    }
}
