//! POSTing one Chat Completions request and reading its answer within bounds: a 2xx
//! `text/event-stream` is read as a chunk stream (`protocol::sse_read`: one deadline,
//! the read cap, a short grace after `data: [DONE]`), anything else as a body.

use super::CompletionEvidence;
use super::wire::Wire;
use crate::http::{HttpClient, HttpRequest, Opened, shown_body};
use crate::outcome::{Exchange, RecordedResponse};
use crate::protocol::sse_read::{
    Decoder, EventSink as _, ReadEnd, ReadLimits, is_event_stream, read_body, unterminated_frame,
};
use crate::scenario::stream::StreamClass;
use serde_json::Value;
use std::time::Duration;

/// What one call produced: the transcript always, and the classified answer unless
/// the transport failed (or the run was stopped) before any response arrived.
pub struct CompletionAnswer {
    pub exchange: Exchange,
    pub evidence: Result<CompletionEvidence, String>,
}

/// POSTs `body` to the door's path (`{base}/chat/completions`, `{base}/responses`)
/// and classifies the answer.
pub async fn post_completion(
    wire: &Wire,
    client: &HttpClient,
    body: &Value,
    auth: bool,
    grace: Duration,
    purpose: &str,
) -> CompletionAnswer {
    let stream_requested = body.get("stream") == Some(&Value::Bool(true));
    let accept = if stream_requested {
        "text/event-stream"
    } else {
        "application/json"
    };
    let request = HttpRequest {
        purpose: purpose.to_string(),
        method: reqwest::Method::POST,
        path: wire.path.to_string(),
        headers: std::iter::once(("Accept", accept))
            .chain(wire.headers.iter().copied())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: Some(body.clone()),
        auth,
    };
    let Opened {
        mut exchange,
        response,
        read_until: deadline,
    } = client.open(&request).await;
    let mut response = match response {
        Ok(r) => r,
        Err(e) => {
            return CompletionAnswer {
                exchange,
                evidence: Err(e.to_string()),
            };
        }
    };
    let status = response.status().as_u16();
    let headers = client.shown_headers(response.headers());
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    // A stream asked for and a stream given are read as one; a stream given where JSON
    // was asked for is read as a body and classified broken.
    let event_stream = stream_requested
        && (200..300).contains(&status)
        && is_event_stream(content_type.as_deref());
    let limits = ReadLimits {
        deadline,
        grace,
        max_bytes: client.settings().max_response_bytes,
    };
    let mut classifier = (wire.stream_classifier)();
    let mut decoder = Decoder::new();
    let (raw, ended_by) = read_body(
        client,
        &mut response,
        &limits,
        event_stream.then_some((&mut decoder, &mut classifier)),
    )
    .await;
    let evidence = if event_stream {
        if ended_by == ReadEnd::Eof {
            decoder.close(&mut classifier);
            if unterminated_frame(&raw) {
                classifier.framing(
                    "the stream ended inside an event (its last frame has no closing blank line)"
                        .into(),
                );
            }
        }
        classifier.finish(status, content_type, true, ended_by, raw.len())
    } else {
        let mut evidence =
            (wire.classify_body)(status, content_type, stream_requested, &raw, ended_by);
        if !stream_requested
            && is_event_stream(evidence.content_type.as_deref())
            && evidence.classification == StreamClass::Broken
        {
            evidence.problems.insert(
                0,
                "an event stream answered a request without stream: true".into(),
            );
        }
        evidence
    };
    exchange.response = Some(RecordedResponse {
        status,
        headers,
        body: client.redact(&shown_body(&raw)),
        truncated: ended_by == ReadEnd::ReadCap,
    });
    CompletionAnswer {
        exchange,
        evidence: Ok(evidence),
    }
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
