//! POSTing an AG-UI run and reading its answer as a bounded event stream.
//!
//! The read never hangs and never grows without bound: one deadline (`--timeout`)
//! covers connecting, the headers and the whole stream; at most `--max-response-bytes`
//! are read; and once the terminal event has arrived, mmconform waits only a short
//! grace period for anything that follows it (events after the terminal one break the
//! stream). SSE framing is decoded by the `sse-stream` crate, fed chunk by chunk so the
//! caps stay ours; [`Classifier`] judges the events it yields.

use crate::http::{HttpClient, HttpRequest, Opened, shown_body};
use crate::outcome::{Exchange, RecordedResponse};
use crate::protocol::agui::StreamEvidence;
use crate::protocol::agui::classify::{Classifier, ReadEnd};
use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{FutureExt as _, StreamExt as _};
use serde_json::Value;
use sse_stream::SseByteStream;
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout_at};

/// What one run produced: the transcript always, and the classified answer unless the
/// transport failed (or the run was stopped) before any response arrived.
pub struct StreamAnswer {
    pub exchange: Exchange,
    pub evidence: Result<StreamEvidence, String>,
}

/// Whether the stream stopped inside an event: bytes after the last blank line that
/// are not comments. The decoder discards such a frame silently (as the SSE spec says
/// a client must), so the reader reports it.
pub fn unterminated_frame(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    let tail_start = ["\r\n\r\n", "\n\n", "\r\r"]
        .iter()
        .filter_map(|sep| text.rfind(sep).map(|i| i + sep.len()))
        .max()
        .unwrap_or(0);
    text[tail_start..]
        .lines()
        .any(|line| !line.trim().is_empty() && !line.starts_with(':'))
}

/// The decoder's input: chunks the read loop hands over.
type Feed = BoxStream<'static, Result<Bytes, Infallible>>;

/// The SSE decoder, fed by the read loop through a channel so the loop keeps control
/// of every byte (caps, deadline, transcript).
struct Decoder {
    feed: Option<mpsc::UnboundedSender<Result<Bytes, Infallible>>>,
    events: SseByteStream<Feed>,
    active: bool,
}

impl Decoder {
    fn new() -> Decoder {
        let (tx, mut rx) = mpsc::unbounded_channel::<Result<Bytes, Infallible>>();
        let feed: Feed = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)).boxed();
        Decoder {
            feed: Some(tx),
            events: SseByteStream::new(feed),
            active: true,
        }
    }

    /// Hands `chunk` to the decoder and passes every complete event to `classifier`.
    fn push(&mut self, chunk: Bytes, classifier: &mut Classifier) {
        if let Some(feed) = &self.feed {
            let _ = feed.send(Ok(chunk));
        }
        self.drain(classifier);
    }

    /// No more input: the decoder ends (discarding an unterminated final frame).
    fn close(&mut self, classifier: &mut Classifier) {
        self.feed = None;
        self.drain(classifier);
    }

    fn drain(&mut self, classifier: &mut Classifier) {
        while self.active {
            match self.events.next().now_or_never() {
                // Waiting for more input.
                None => break,
                Some(None) => self.active = false,
                Some(Some(Ok(event))) => {
                    // Blocks without data (`id:`, `retry:`) carry no AG-UI event.
                    if let Some(data) = event.data {
                        classifier.on_data(&data);
                    }
                }
                Some(Some(Err(e))) => {
                    classifier.framing(format!("the event stream cannot be decoded: {e}"));
                    self.active = false;
                }
            }
        }
    }
}

fn is_event_stream(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|ct| {
        ct.split(';')
            .next()
            .is_some_and(|e| e.trim().eq_ignore_ascii_case("text/event-stream"))
    })
}

/// How long and how much of an answer is read.
struct ReadLimits {
    deadline: Instant,
    /// How long to wait after the terminal event.
    grace: Duration,
    max_bytes: usize,
}

/// Reads the body chunk by chunk within `limits`, feeding an event stream's frames to
/// the classifier as they come; returns what was read and why reading ended.
async fn read_body(
    client: &HttpClient,
    response: &mut reqwest::Response,
    limits: &ReadLimits,
    mut stream: Option<(&mut Decoder, &mut Classifier)>,
) -> (Vec<u8>, ReadEnd) {
    let mut raw: Vec<u8> = Vec::new();
    let mut read_until = limits.deadline;
    let mut in_grace = false;
    let ended_by = loop {
        let next = tokio::select! {
            next = timeout_at(read_until, response.chunk()) => next,
            // Ctrl-C or --deadline: what was read is kept, the answer is unfinished.
            _ = client.stop().wait() => break ReadEnd::Deadline,
        };
        let chunk = match next {
            Err(_) if in_grace => break ReadEnd::AfterTerminal,
            Err(_) => break ReadEnd::Deadline,
            // The client's own timeout is the same deadline seen from reqwest's side.
            Ok(Err(e)) if e.is_timeout() => break ReadEnd::Deadline,
            Ok(Err(_)) => break ReadEnd::Transport,
            Ok(Ok(None)) => break ReadEnd::Eof,
            Ok(Ok(Some(chunk))) => chunk,
        };
        let room = limits.max_bytes.saturating_sub(raw.len());
        let capped = chunk.len() > room;
        let chunk = if capped { chunk.slice(..room) } else { chunk };
        raw.extend_from_slice(&chunk);
        let mut terminal_seen = false;
        if let Some((decoder, classifier)) = stream.as_mut() {
            decoder.push(chunk, classifier);
            terminal_seen = classifier.terminal_seen();
        }
        if capped {
            break ReadEnd::ReadCap;
        }
        if terminal_seen && !in_grace {
            in_grace = true;
            read_until = limits.deadline.min(Instant::now() + limits.grace);
        }
    };
    (raw, ended_by)
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
