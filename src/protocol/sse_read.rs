//! Reading an answer as a bounded server-sent event stream, shared by the protocols
//! whose answers are event streams (AG-UI runs, OpenAI `stream: true` completions).
//!
//! The read never hangs and never grows without bound: one deadline (`--timeout`)
//! covers connecting, the headers and the whole stream; at most `--max-response-bytes`
//! are read; and once the sink has seen the end of the answer, only a short grace
//! period is waited for anything that follows it. SSE framing is decoded by the
//! `sse-stream` crate, fed chunk by chunk so the caps stay ours; an [`EventSink`]
//! (the protocol's classifier) judges the events it yields.

use crate::http::HttpClient;
use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{FutureExt as _, StreamExt as _};
use serde::{Deserialize, Serialize};
use sse_stream::SseByteStream;
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout_at};

/// Why reading the answer stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReadEnd {
    /// The server ended the response.
    Eof,
    /// The terminal event arrived and nothing more came within the grace period.
    AfterTerminal,
    /// The per-request deadline (`--timeout`) passed.
    Deadline,
    /// `--max-response-bytes` were read.
    ReadCap,
    /// The connection failed mid-answer.
    Transport,
}

/// What consumes the events of one answer, in order.
pub trait EventSink {
    /// One SSE event's `data` (events without data are metadata and never reach here).
    fn on_data(&mut self, data: &str);
    /// A framing problem found by the reader (bad UTF-8, an unterminated final frame).
    fn framing(&mut self, problem: String);
    /// Whether the event that ends the answer has arrived (the grace period starts).
    fn terminal_seen(&self) -> bool;
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
pub struct Decoder {
    feed: Option<mpsc::UnboundedSender<Result<Bytes, Infallible>>>,
    events: SseByteStream<Feed>,
    active: bool,
}

impl Default for Decoder {
    fn default() -> Decoder {
        Decoder::new()
    }
}

impl Decoder {
    pub fn new() -> Decoder {
        let (tx, mut rx) = mpsc::unbounded_channel::<Result<Bytes, Infallible>>();
        let feed: Feed = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)).boxed();
        Decoder {
            feed: Some(tx),
            events: SseByteStream::new(feed),
            active: true,
        }
    }

    /// Hands `chunk` to the decoder and passes every complete event to `classifier`.
    pub fn push<S: EventSink>(&mut self, chunk: Bytes, classifier: &mut S) {
        if let Some(feed) = &self.feed {
            let _ = feed.send(Ok(chunk));
        }
        self.drain(classifier);
    }

    /// No more input: the decoder ends (discarding an unterminated final frame).
    pub fn close<S: EventSink>(&mut self, classifier: &mut S) {
        self.feed = None;
        self.drain(classifier);
    }

    fn drain<S: EventSink>(&mut self, classifier: &mut S) {
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

pub fn is_event_stream(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|ct| {
        ct.split(';')
            .next()
            .is_some_and(|e| e.trim().eq_ignore_ascii_case("text/event-stream"))
    })
}

/// How long and how much of an answer is read.
pub struct ReadLimits {
    pub deadline: Instant,
    /// How long to wait after the terminal event.
    pub grace: Duration,
    pub max_bytes: usize,
}

/// Reads the body chunk by chunk within `limits`, feeding an event stream's frames to
/// the classifier as they come; returns what was read and why reading ended.
pub async fn read_body<S: EventSink>(
    client: &HttpClient,
    response: &mut reqwest::Response,
    limits: &ReadLimits,
    mut stream: Option<(&mut Decoder, &mut S)>,
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
            decoder.push(chunk, &mut **classifier);
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
