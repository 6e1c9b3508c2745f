//! POSTing one request to an OpenAI door and reading its answer within bounds
//! (`protocol::stream_post`): a 2xx `text/event-stream` answering `stream: true` is read
//! as the door's chunk stream (one deadline, the read cap, a short grace after its end
//! event), anything else as a body the door classifies.

use super::CompletionEvidence;
use super::wire::Wire;
use crate::http::{HttpClient, HttpRequest};
use crate::protocol::sse_read::is_event_stream;
use crate::protocol::stream_post::{Answered, post_and_read};
use crate::scenario::stream::StreamClass;
use serde_json::Value;
use std::time::Duration;

/// What one call produced: the transcript always, and the classified answer unless
/// the transport failed (or the run was stopped) before any response arrived.
pub type CompletionAnswer = Answered<CompletionEvidence>;

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
    // A stream asked for and a stream given are read as one; a stream given where JSON
    // was asked for is read as a body and classified broken.
    let classifier = (wire.stream_classifier)();
    post_and_read(
        client,
        &request,
        grace,
        stream_requested,
        classifier,
        |read| {
            if read.event_stream {
                let bytes = read.raw.len();
                return read.sink.finish(
                    read.status,
                    read.content_type,
                    true,
                    read.ended_by,
                    bytes,
                );
            }
            let (status, content_type) = (read.status, read.content_type);
            let mut evidence = (wire.classify_body)(
                status,
                content_type,
                stream_requested,
                read.raw,
                read.ended_by,
            );
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
        },
    )
    .await
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;
