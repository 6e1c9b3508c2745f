//! POSTing an AG-UI run and reading its answer as a bounded event stream.
//!
//! The POST and its bounded reading are `protocol::stream_post`'s (one deadline, a read
//! cap, a short grace period after the terminal event: events after it break the
//! stream); [`Classifier`] judges the events it yields.

use crate::http::{HttpClient, HttpRequest};
use crate::protocol::agui::StreamEvidence;
use crate::protocol::agui::classify::Classifier;
#[cfg(test)]
use crate::protocol::agui::classify::ReadEnd;
use crate::protocol::sse_read::EventSink;
#[cfg(test)]
use crate::protocol::sse_read::{Decoder, unterminated_frame};
use crate::protocol::stream_post::{Answered, post_and_read};
#[cfg(test)]
use bytes::Bytes;
use serde_json::Value;
use std::time::Duration;

/// What one run produced: the transcript always, and the classified answer unless the
/// transport failed (or the run was stopped) before any response arrived.
pub type StreamAnswer = Answered<StreamEvidence>;

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
    // Whatever the answer, the classifier says what it was (a JSON refusal included).
    post_and_read(
        client,
        &request,
        grace,
        true,
        Classifier::default(),
        |read| {
            let bytes = read.raw.len();
            let (status, ct, stream) = (read.status, read.content_type, read.event_stream);
            read.sink.finish(status, ct, stream, read.ended_by, bytes)
        },
    )
    .await
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
