//! A streamed answer (`stream: true`): `chat.completion.chunk` events SSE-framed with
//! `sse-stream`'s encoder, the role first, the text in pieces, a last chunk carrying
//! `finish_reason`, a usage chunk when `stream_options.include_usage` asks for it, then
//! `data: [DONE]`. The three stream faults bend the frames here and nowhere else.

use serde_json::{Value, json};

use super::OpenaiFault;
use super::completion::Answer;

/// Words per content chunk: enough chunks that a client must join them.
const WORDS_PER_CHUNK: usize = 6;

/// The chunks of `answer`, in order (without `[DONE]`).
pub fn chunks(answer: &Answer, include_usage: bool) -> Vec<Value> {
    let chunk = |delta: Value, finish: Option<&str>| {
        let mut chunk = json!({
            "id": answer.id,
            "object": "chat.completion.chunk",
            "created": answer.created,
            "model": answer.model,
            "choices": [{"index": 0, "delta": delta, "logprobs": null, "finish_reason": finish}],
        });
        if include_usage {
            // OpenAI sends `usage: null` on every chunk but the last when asked for it.
            chunk["usage"] = Value::Null;
        }
        chunk
    };
    let mut out = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
    for piece in pieces(&answer.text) {
        out.push(chunk(json!({"content": piece}), None));
    }
    out.push(chunk(json!({}), Some(&answer.finish_reason)));
    if include_usage {
        out.push(json!({
            "id": answer.id,
            "object": "chat.completion.chunk",
            "created": answer.created,
            "model": answer.model,
            "choices": [],
            "usage": answer.usage.to_json(),
        }));
    }
    out
}

/// `text` in pieces of a few words, spaces kept, so joined they are `text` again.
pub(super) fn pieces(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    words.chunks(WORDS_PER_CHUNK).map(|w| w.concat()).collect()
}

/// The SSE body: one `data:` frame per chunk, then `data: [DONE]`, with `fault` applied.
pub fn sse_body(chunks: &[Value], fault: Option<OpenaiFault>) -> Vec<u8> {
    let mut frames: Vec<String> = chunks
        .iter()
        .map(|chunk| match fault {
            Some(OpenaiFault::StreamWithoutFinishReason) => without_finish_reason(chunk),
            _ => chunk.to_string(),
        })
        .collect();
    if fault == Some(OpenaiFault::StreamChunkNotJson)
        && let Some(frame) = frames.get_mut(1)
    {
        // Cut short, as a server that flushes half a chunk would send it.
        let half = frame.len() / 2;
        frame.truncate(frame.floor_char_boundary(half));
    }
    if fault != Some(OpenaiFault::StreamWithoutDone) {
        frames.push("[DONE]".into());
    }
    let mut body = Vec::new();
    for data in frames {
        let frame = sse_stream::Sse::default()
            .data(data)
            .encode()
            .expect("a frame with data only always encodes");
        body.extend_from_slice(&frame);
    }
    body
}

/// `chunk` with every choice's finish_reason null.
fn without_finish_reason(chunk: &Value) -> String {
    let mut chunk = chunk.clone();
    if let Some(choices) = chunk["choices"].as_array_mut() {
        for choice in choices {
            choice["finish_reason"] = Value::Null;
        }
    }
    chunk.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openai::completion::Usage;

    fn answer() -> Answer {
        Answer {
            id: "chatcmpl-1".into(),
            created: 7,
            model: "reference-text".into(),
            text: "one two three four five six seven eight".into(),
            finish_reason: "stop".into(),
            usage: Usage {
                prompt_tokens: 4,
                completion_tokens: 8,
            },
        }
    }

    /// The data lines of `body`, in order.
    fn data_lines(body: &[u8]) -> Vec<String> {
        String::from_utf8(body.to_vec())
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("data: ").map(str::to_owned))
            .collect()
    }

    #[test]
    fn chunks_rebuild_the_text_and_end_with_finish_reason_then_done() {
        let body = sse_body(&chunks(&answer(), false), None);
        let lines = data_lines(&body);
        assert_eq!(lines.last().unwrap(), "[DONE]");
        let chunks: Vec<Value> = lines[..lines.len() - 1]
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(
            chunks
                .iter()
                .all(|c| c["object"] == "chat.completion.chunk" && c.get("usage").is_none())
        );
        assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
        let text: String = chunks
            .iter()
            .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
            .collect();
        assert_eq!(text, answer().text);
        assert_eq!(chunks.len(), 1 + 2 + 1, "role, two pieces, finish");
        let last = chunks.last().unwrap();
        assert_eq!(last["choices"][0]["finish_reason"], "stop");
        assert_eq!(last["choices"][0]["delta"], json!({}));
        assert!(
            chunks[..chunks.len() - 1]
                .iter()
                .all(|c| c["choices"][0]["finish_reason"].is_null())
        );
    }

    #[test]
    fn usage_comes_last_when_asked_for() {
        let chunks = chunks(&answer(), true);
        let last = chunks.last().unwrap();
        assert_eq!(last["choices"], json!([]));
        assert_eq!(last["usage"]["total_tokens"], 12);
        assert!(
            chunks[..chunks.len() - 1]
                .iter()
                .all(|c| c["usage"].is_null())
        );
    }

    #[test]
    fn the_stream_faults_break_their_rule_only() {
        let chunks = chunks(&answer(), false);
        let lines = data_lines(&sse_body(&chunks, Some(OpenaiFault::StreamWithoutDone)));
        assert_eq!(lines.len(), chunks.len());
        assert!(
            lines
                .iter()
                .all(|l| serde_json::from_str::<Value>(l).is_ok())
        );
        let lines = data_lines(&sse_body(&chunks, Some(OpenaiFault::StreamChunkNotJson)));
        assert_eq!(lines.last().unwrap(), "[DONE]");
        let broken: Vec<_> = lines
            .iter()
            .filter(|l| serde_json::from_str::<Value>(l).is_err())
            .collect();
        assert_eq!(broken.len(), 2, "the cut chunk and [DONE]: {lines:?}");
    }
}
