//! What the witness answers on the Gemini wire: a `GenerateContentResponse` whose one
//! candidate says what was seen; for `:streamGenerateContent` the same response as one
//! SSE event (`?alt=sse`) or as a JSON array of one (without it); for `:countTokens`
//! `{totalTokens}`; the model list; and Google's error envelope `{error: {code,
//! message, status}}`.

use serde_json::{Value, json};

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

/// A finished `GenerateContentResponse` with `text` as its one candidate.
pub fn response(seq: u64, model: &str, text: &str) -> Value {
    json!({
        "candidates": [{
            "content": {"role": "model", "parts": [{"text": text}]},
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {
            "promptTokenCount": 0,
            "candidatesTokenCount": words(text),
            "totalTokenCount": words(text),
        },
        "modelVersion": model,
        "responseId": format!("mmconform-{seq}"),
    })
}

/// A response whose one part calls the tool (`functionCall {name, args, id}`); a
/// stream is this response as its one chunk.
pub fn tool_call(seq: u64, model: &str, call: &crate::witness::tools::ToolCallMade) -> Value {
    let mut out = response(seq, model, "");
    out["candidates"][0]["content"]["parts"] =
        json!([{"functionCall": {"name": call.name, "args": call.arguments(), "id": call.id}}]);
    out
}

/// `:countTokens`: a word count of the call's text stands in for tokens.
pub fn count_tokens(words: usize) -> Value {
    json!({"totalTokens": words})
}

/// How a stream is framed: `?alt=sse` or the JSON array.
pub fn stream_body(response: &Value, sse: bool) -> (&'static str, Vec<u8>) {
    if sse {
        let frame = sse_stream::Sse::default()
            .data(response.to_string())
            .encode()
            .unwrap_or_default();
        return ("text/event-stream", frame.to_vec());
    }
    ("application/json", format!("[{response}]").into_bytes())
}

/// `GET /v1beta/models`: the one model, in the list shape the clients page through.
pub fn models(model: &str) -> Value {
    json!({"models": [model_entry(model)]})
}

/// One model as the API describes it (`name` is `models/{id}`).
pub fn model_entry(model: &str) -> Value {
    json!({
        "name": format!("models/{model}"),
        "version": "001",
        "displayName": "mmconform witness (echoes what it received)",
        "description": "A mock model endpoint that records and judges what it receives.",
        "inputTokenLimit": 1_048_576,
        "outputTokenLimit": 8192,
        "supportedGenerationMethods": ["generateContent", "streamGenerateContent", "countTokens"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_one_sse_event_or_a_json_array_of_the_response() {
        let response = response(2, "m", "saw it");
        assert_eq!(
            response["candidates"][0]["content"]["parts"][0]["text"],
            "saw it"
        );
        let (kind, sse) = stream_body(&response, true);
        assert_eq!(kind, "text/event-stream");
        let sse = String::from_utf8(sse).unwrap();
        let data = sse.strip_prefix("data: ").unwrap().trim_end();
        assert_eq!(serde_json::from_str::<Value>(data).unwrap(), response);
        let (kind, array) = stream_body(&response, false);
        assert_eq!(kind, "application/json");
        let array: Value = serde_json::from_slice(&array).unwrap();
        assert_eq!(array, json!([response]));
        assert_eq!(
            crate::wire::gemini::error_body(404, "no")["error"]["status"],
            "NOT_FOUND"
        );
    }
}
