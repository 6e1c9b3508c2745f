//! What the witness answers: a valid completion (or stream) whose text says what it
//! saw, so the host's call succeeds and a person reading the host's output learns
//! what reached the model; and each wire's own error body when a call is refused.

use super::record::{ModelCall, Part, PartKind, SourceKind, Wire};
use super::wire::anthropic::answer as anthropic_answer;
use super::wire::chat::answer as chat_answer;
use super::wire::{gemini as gemini_answer, responses as responses_answer};
use crate::wire::{anthropic, chat, gemini};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Parts and problems named in the answer text; the rest are counted.
const SHOWN: usize = 16;

/// `mmconform witness saw call 3 (openai.chat): image/png 1234 B nonce n-p0; text 12 B`
pub fn saw(call: &ModelCall) -> String {
    let mut items: Vec<String> = call.parts.iter().take(SHOWN).map(describe).collect();
    let unshown = call.parts_total.saturating_sub(items.len());
    if unshown > 0 {
        items.push(format!("and {unshown} more part(s)"));
    }
    if !call.more_stamps.is_empty() {
        items.push(format!("more nonces {}", call.more_stamps.join(",")));
    }
    if items.is_empty() {
        items.push("no content parts".into());
    }
    let mut text = format!(
        "mmconform witness saw call {} ({}): {}",
        call.seq,
        call.wire.as_str(),
        items.join("; ")
    );
    let problems: Vec<&str> = call.all_problems().map(|p| p.message.as_str()).collect();
    if !problems.is_empty() {
        let total = problems.len() + call.problems_dropped;
        let shown: Vec<&str> = problems.into_iter().take(3).collect();
        text.push_str(&format!(". {total} problem(s): {}", shown.join("; ")));
    }
    text
}

/// One part in a few words.
pub fn describe(part: &Part) -> String {
    let mut out = match part.kind {
        PartKind::Text => format!("text {} B", part.text_bytes.unwrap_or(0)),
        PartKind::Unknown => format!("unknown {}", part.wire_form),
        kind => {
            let label = part
                .mime
                .clone()
                .or_else(|| part.sniffed.clone())
                .unwrap_or_else(|| kind.as_str().to_string());
            let what = match (part.source, part.bytes) {
                (Some(SourceKind::Url), _) => format!("url {}", part.url.as_deref().unwrap_or("")),
                (Some(SourceKind::FileId), _) => {
                    format!("file_id {}", part.file_id.as_deref().unwrap_or(""))
                }
                (_, Some(bytes)) => format!("{bytes} B"),
                (_, None) => "undecoded".to_string(),
            };
            format!("{} {label} {what}", part.wire_form)
        }
    };
    if !part.stamps.is_empty() {
        out.push_str(&format!(" nonce {}", part.stamps.join(",")));
    }
    out
}

pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// How a recorded call is to be answered, beyond what its record says.
#[derive(Debug, Clone, Copy, Default)]
pub struct Reply<'a> {
    /// Why the call is refused (its status is not 200).
    pub refusal: Option<&'a str>,
    /// OpenAI `stream_options.include_usage`: end the stream with a usage chunk.
    pub stream_usage: bool,
    /// The model answered as when the call names none.
    pub default_model: &'a str,
    /// Gemini `?alt=sse`: a stream as server-sent events, not a JSON array.
    pub sse: bool,
}

/// The answer to a recorded call: the completion, or the wire's error body.
pub fn respond(call: &ModelCall, reply: Reply) -> Response {
    let Reply {
        refusal,
        stream_usage,
        default_model,
        sse: alt_sse,
    } = reply;
    let status = StatusCode::from_u16(call.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Some(why) = refusal {
        return error(call.wire, status, why);
    }
    let model = call.model.as_deref().unwrap_or(default_model);
    if let Some(tool) = &call.tool_call {
        // Only the wires that read a tool turn (`super::tools`) decide on a call.
        match (call.wire, call.stream) {
            (Wire::OpenaiChat, false) => {
                return json_response(chat_answer::tool_call(call.seq, model, tool));
            }
            (Wire::OpenaiChat, true) => {
                return sse(chat_answer::tool_call_chunks(
                    call.seq,
                    model,
                    tool,
                    stream_usage,
                ));
            }
            (Wire::AnthropicMessages, false) => {
                return json_response(anthropic_answer::tool_call(call.seq, model, tool));
            }
            (Wire::AnthropicMessages, true) => {
                return sse(anthropic_answer::tool_call_events(call.seq, model, tool));
            }
            (Wire::OpenaiResponses, false) => {
                return json_response(responses_answer::answer::tool_call(call.seq, model, tool));
            }
            (Wire::OpenaiResponses, true) => {
                return sse(named_events(responses_answer::answer::tool_call_events(
                    call.seq, model, tool,
                )));
            }
            (Wire::Gemini, false) => {
                return json_response(gemini_answer::answer::tool_call(call.seq, model, tool));
            }
            (Wire::Gemini, true) => {
                let response = gemini_answer::answer::tool_call(call.seq, model, tool);
                let (kind, body) = gemini_answer::answer::stream_body(&response, alt_sse);
                return ([(header::CONTENT_TYPE, kind)], body).into_response();
            }
            _ => {}
        }
    }
    let text = saw(call);
    match (call.wire, call.stream) {
        (Wire::AnthropicMessages, false) => {
            json_response(anthropic_answer::message(call.seq, model, &text))
        }
        (Wire::AnthropicMessages, true) => sse(anthropic_answer::events(call.seq, model, &text)),
        (Wire::OpenaiResponses, false) => json_response(responses_answer::answer::response(
            call.seq, model, &text, true,
        )),
        (Wire::OpenaiResponses, true) => sse(named_events(responses_answer::answer::events(
            call.seq, model, &text,
        ))),
        (Wire::Gemini, false) => {
            json_response(gemini_answer::answer::response(call.seq, model, &text))
        }
        (Wire::Gemini, true) => {
            let response = gemini_answer::answer::response(call.seq, model, &text);
            let (kind, body) = gemini_answer::answer::stream_body(&response, alt_sse);
            ([(header::CONTENT_TYPE, kind)], body).into_response()
        }
        (Wire::GeminiCountTokens, _) => {
            json_response(gemini_answer::answer::count_tokens(text_words(call)))
        }
        (_, false) => json_response(chat_answer::completion(call.seq, model, &text)),
        (_, true) => sse(chat_answer::chunks(call.seq, model, &text, stream_usage)),
    }
}

/// Server-sent events with their names, each framed by `sse_stream`.
fn named_events(events: Vec<(&'static str, Value)>) -> String {
    events
        .into_iter()
        .filter_map(|(name, data)| {
            let frame = sse_stream::Sse::default()
                .event(name)
                .data(data.to_string())
                .encode()
                .ok()?;
            String::from_utf8(frame.to_vec()).ok()
        })
        .collect()
}

/// The words of a call's text parts, as a token count stands in for.
fn text_words(call: &ModelCall) -> usize {
    call.parts
        .iter()
        .filter_map(|p| p.text.as_deref())
        .map(words)
        .sum()
}

fn json_response(body: Value) -> Response {
    axum::Json(body).into_response()
}

fn sse(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Tokens are not counted; a word count keeps `usage` plausible for clients that read it.
pub fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

/// The wire's error body (each wire's envelope, `crate::wire::*`): OpenAI
/// `{error: {message, type, param, code}}` (Chat and Responses), Anthropic `{type:
/// error, error: {type, message}}`, Gemini `{error: {code, message, status}}`.
pub fn error(wire: Wire, status: StatusCode, message: &str) -> Response {
    let code = status.as_u16();
    let body = match wire {
        Wire::Gemini | Wire::GeminiCountTokens => gemini::error_body(code, message),
        Wire::AnthropicMessages => anthropic::error::body(code, message),
        Wire::OpenaiChat | Wire::OpenaiResponses | Wire::Unknown => {
            chat::error::body(code, message)
        }
    };
    (status, axum::Json(body)).into_response()
}

/// `GET {base}/models`: one model, in a list both OpenAI and Anthropic clients read.
pub fn models(model: &str) -> Value {
    json!({
        "object": "list",
        "data": [model_entry(model)],
        "has_more": false,
        "first_id": model,
        "last_id": model,
    })
}

/// One model as both wires describe it.
pub fn model_entry(model: &str) -> Value {
    json!({
        "id": model,
        "object": "model",
        "type": "model",
        "created": 0,
        "created_at": "1970-01-01T00:00:00Z",
        "owned_by": "mmconform",
        "display_name": "mmconform witness (echoes what it received)",
    })
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
