//! POSTing an AG-UI run and reading its answer as a bounded event stream.
//!
//! The bounded reading is `protocol::sse_read`'s (one deadline, a read cap, a short
//! grace period after the terminal event: events after it break the stream);
//! [`Classifier`] judges the events it yields.

use crate::http::{HttpClient, HttpRequest, Opened, shown_body};
use crate::outcome::{Exchange, RecordedResponse};
use crate::protocol::agui::StreamEvidence;
use crate::protocol::agui::classify::{Classifier, ReadEnd};
pub use crate::protocol::sse_read::unterminated_frame;
use crate::protocol::sse_read::{Decoder, EventSink, ReadLimits, is_event_stream, read_body};
#[cfg(test)]
use bytes::Bytes;
use serde_json::Value;
use std::time::Duration;

/// What one run produced: the transcript always, and the classified answer unless the
/// transport failed (or the run was stopped) before any response arrived.
pub struct StreamAnswer {
    pub exchange: Exchange,
    pub evidence: Result<StreamEvidence, String>,
}

impl EventSink for Classifier {
    fn on_data(&mut self, data: &str) {
        Classifier::on_data(self, data);
    }

    fn framing(&mut self, problem: String) {
        Classifier::framing(self, problem);
    }

    fn terminal_seen(&self) -> bool {
        Classifier::terminal_seen(self)
    }
}

/// POSTs `body` to `client`'s endpoint and reads the answer as an event stream: within
/// the client's timeout, deadline and read cap, and after the terminal event for at
/// most `grace` (events after the terminal one break the stream).
pub async fn post_run(
    client: &HttpClient,
    body: &Value,
    auth: bool,
    grace: Duration,
    purpose: &str,
) -> StreamAnswer {
    let request = HttpRequest {
        purpose: purpose.to_string(),
        method: reqwest::Method::POST,
        path: String::new(),
        headers: vec![("Accept".into(), "text/event-stream".into())],
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
            return StreamAnswer {
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
    let event_stream = (200..300).contains(&status) && is_event_stream(content_type.as_deref());
    let mut classifier = Classifier::default();
    let mut decoder = Decoder::new();
    let limits = ReadLimits {
        deadline,
        grace,
        max_bytes: client.settings().max_response_bytes,
    };
    let (raw, ended_by) = read_body(
        client,
        &mut response,
        &limits,
        event_stream.then_some((&mut decoder, &mut classifier)),
    )
    .await;
    if event_stream && ended_by == ReadEnd::Eof {
        decoder.close(&mut classifier);
        if unterminated_frame(&raw) {
            classifier.framing(
                "the stream ended inside an event (its last frame has no closing blank line)"
                    .into(),
            );
        }
    }
    let evidence = classifier.finish(status, content_type, event_stream, ended_by, raw.len());
    exchange.response = Some(RecordedResponse {
        status,
        headers,
        body: client.redact(&shown_body(&raw)),
        truncated: ended_by == ReadEnd::ReadCap,
    });
    StreamAnswer {
        exchange,
        evidence: Ok(evidence),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unterminated_frames_are_found_and_comments_ignored() {
        assert!(!unterminated_frame(b"data: {}\n\n"));
        assert!(!unterminated_frame(b"data: {}\r\n\r\n: keepalive\n"));
        assert!(unterminated_frame(b"data: {}\n\ndata: {\"type\":\"RUN_FI"));
        assert!(unterminated_frame(b"data: x"));
        assert!(!unterminated_frame(b""));
    }

    #[test]
    fn the_decoder_yields_events_across_chunks() {
        let mut c = Classifier::default();
        let mut d = Decoder::new();
        d.push(Bytes::from_static(b"data: {\"type\":\"RUN_STA"), &mut c);
        assert!(!c.terminal_seen());
        d.push(
            Bytes::from_static(b"RTED\"}\n\nid: 7\n\ndata: {\"type\":\"RUN_FINISHED\"}\r\n\r\n"),
            &mut c,
        );
        assert!(c.terminal_seen());
        d.close(&mut c);
        let e = c.finish(200, None, true, ReadEnd::Eof, 0);
        assert_eq!(e.events, ["RUN_STARTED", "RUN_FINISHED"]);
        assert!(e.problems.is_empty(), "{:?}", e.problems);
    }

    #[test]
    fn invalid_utf8_is_a_framing_problem() {
        let mut c = Classifier::default();
        let mut d = Decoder::new();
        d.push(Bytes::from_static(b"data: \xff\xfe\n\n"), &mut c);
        let e = c.finish(200, None, true, ReadEnd::Eof, 0);
        assert!(
            e.problems[0].contains("cannot be decoded"),
            "{:?}",
            e.problems
        );
    }
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod hostile_tests;
