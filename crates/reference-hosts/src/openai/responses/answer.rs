//! The Responses form of an answer (OpenAI API reference, "Responses", the response
//! object and its streaming events): a `response` object with one `message` output item
//! holding one `output_text`, or, streamed, the `response.*` events in order, each
//! named by its `event:` line and its `type`, numbered by `sequence_number`, ending with
//! `response.completed`. `responses-stream-without-completed` bends the stream here.

use serde_json::{Value, json};

use super::super::OpenaiFault;
use super::super::completion::Answer;
use super::super::stream::pieces;

/// The `response` object of `answer` with `status`.
fn response(answer: &Answer, status: &str, text: Option<&str>) -> Value {
    let output = match text {
        Some(text) => json!([message_item(answer, "completed", Some(text))]),
        None => json!([]),
    };
    let usage = answer.usage;
    json!({
        "id": response_id(answer),
        "object": "response",
        "created_at": answer.created,
        "status": status,
        "model": answer.model,
        "output": output,
        "usage": text.map(|_| json!({
            "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
            "total_tokens": usage.prompt_tokens + usage.completion_tokens,
        })),
    })
}

fn response_id(answer: &Answer) -> String {
    answer.id.replacen("chatcmpl-", "resp_", 1)
}

fn message_item(answer: &Answer, status: &str, text: Option<&str>) -> Value {
    let content = match text {
        Some(text) => json!([{"type": "output_text", "text": text, "annotations": []}]),
        None => json!([]),
    };
    json!({
        "type": "message",
        "id": format!("msg_{}", response_id(answer)),
        "status": status,
        "role": "assistant",
        "content": content,
    })
}

/// The non-streamed answer.
pub fn to_json(answer: &Answer) -> Value {
    response(answer, "completed", Some(&answer.text))
}

/// The streamed answer's events, in order.
pub fn events(answer: &Answer) -> Vec<Value> {
    let item_id = format!("msg_{}", response_id(answer));
    let text = answer.text.as_str();
    let mut out = vec![
        json!({"type": "response.created", "response": response(answer, "in_progress", None)}),
        json!({"type": "response.in_progress", "response": response(answer, "in_progress", None)}),
        json!({"type": "response.output_item.added", "output_index": 0,
               "item": message_item(answer, "in_progress", None)}),
        json!({"type": "response.content_part.added", "item_id": item_id, "output_index": 0,
               "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}),
    ];
    for piece in pieces(text) {
        out.push(
            json!({"type": "response.output_text.delta", "item_id": item_id,
                        "output_index": 0, "content_index": 0, "delta": piece}),
        );
    }
    out.extend([
        json!({"type": "response.output_text.done", "item_id": item_id, "output_index": 0,
               "content_index": 0, "text": text}),
        json!({"type": "response.content_part.done", "item_id": item_id, "output_index": 0,
               "content_index": 0, "part": {"type": "output_text", "text": text, "annotations": []}}),
        json!({"type": "response.output_item.done", "output_index": 0,
               "item": message_item(answer, "completed", Some(text))}),
        json!({"type": "response.completed", "response": to_json(answer)}),
    ]);
    for (n, event) in out.iter_mut().enumerate() {
        event["sequence_number"] = json!(n);
    }
    out
}

/// The SSE body: one `event:`/`data:` frame per event, with `fault` applied.
pub fn sse_body(events: &[Value], fault: Option<OpenaiFault>) -> Vec<u8> {
    let mut body = Vec::new();
    for event in events {
        let name = event["type"].as_str().unwrap_or("message").to_string();
        if name == "response.completed"
            && fault == Some(OpenaiFault::ResponsesStreamWithoutCompleted)
        {
            continue;
        }
        let frame = sse_stream::Sse::default()
            .event(name)
            .data(event.to_string())
            .encode()
            .expect("a frame with an event name and data always encodes");
        body.extend_from_slice(&frame);
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openai::completion::Usage;

    fn answer() -> Answer {
        Answer {
            id: "chatcmpl-mmconform-7".into(),
            created: 1,
            model: "m".into(),
            text: "one two three four five six seven eight".into(),
            finish_reason: "stop".into(),
            usage: Usage {
                prompt_tokens: 3,
                completion_tokens: 8,
            },
        }
    }

    #[test]
    fn the_response_object_holds_one_output_text() {
        let json = to_json(&answer());
        assert_eq!(json["object"], "response");
        assert_eq!(json["status"], "completed");
        assert_eq!(json["id"], "resp_mmconform-7");
        assert_eq!(json["output"][0]["content"][0]["text"], answer().text);
        assert_eq!(json["usage"]["total_tokens"], 11);
    }

    #[test]
    fn events_are_numbered_and_end_with_completed_unless_the_fault_drops_it() {
        let events = events(&answer());
        assert_eq!(events[0]["type"], "response.created");
        assert_eq!(events.last().unwrap()["type"], "response.completed");
        for (n, e) in events.iter().enumerate() {
            assert_eq!(e["sequence_number"], n);
        }
        let deltas: String = events
            .iter()
            .filter(|e| e["type"] == "response.output_text.delta")
            .map(|e| e["delta"].as_str().unwrap())
            .collect();
        assert_eq!(deltas, answer().text);
        let whole = String::from_utf8(sse_body(&events, None)).unwrap();
        assert!(whole.contains("event: response.completed\n"), "{whole}");
        let cut = String::from_utf8(sse_body(
            &events,
            Some(OpenaiFault::ResponsesStreamWithoutCompleted),
        ))
        .unwrap();
        assert!(!cut.contains("response.completed"));
        assert!(cut.contains("response.output_item.done"));
    }
}
