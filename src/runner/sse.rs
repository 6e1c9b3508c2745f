//! POSTing an AG-UI run and reading its answer as a bounded event stream.
//!
//! The read never hangs and never grows without bound: one deadline (`--timeout`)
//! covers connecting, the headers and the whole stream; at most `--max-response-bytes`
//! are read; and once the terminal event has arrived, mmconform waits only a short
//! grace period for anything that follows it (events after the terminal one break the
//! stream). SSE framing is decoded by the `sse-stream` crate, fed chunk by chunk so the
//! caps stay ours; [`Classifier`] judges the events it yields.

use super::http::{HttpClient, elide};
use crate::outcome::{Exchange, RecordedRequest, RecordedResponse};
use crate::profile::agui::StreamEvidence;
use crate::profile::agui::classify::{Classifier, ReadEnd};
use crate::redact::Redactor;
use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::{FutureExt as _, StreamExt as _};
use serde_json::Value;
use sse_stream::SseByteStream;
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout_at};

/// Request bodies larger than this are not inlined into the curl line.
const CURL_INLINE_LIMIT: usize = 64 * 1024;
/// Event-stream text kept in the transcript (the evidence keeps every event type).
const SHOWN_STREAM_CHARS: usize = 16 * 1024;

/// How to send and how far to read, fixed for a run.
#[derive(Debug, Clone)]
pub struct StreamSettings {
    pub token: Option<String>,
    pub headers: Vec<(String, String)>,
    /// Covers connecting, the headers and the whole stream.
    pub deadline: Duration,
    pub max_bytes: usize,
    /// How long to wait after the terminal event for events that break the stream.
    pub grace: Duration,
    pub redactor: Redactor,
}

/// What one run produced: the transcript always, and the classified answer unless the
/// transport failed before any response arrived.
pub struct StreamAnswer {
    pub exchange: Exchange,
    pub evidence: Result<StreamEvidence, String>,
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A failure in one line with its cause chain (reqwest hides the useful part).
fn describe(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else {
        "transport error"
    };
    let mut message = kind.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    message
}

fn curl_line(url: &str, settings: &StreamSettings, auth: bool, body: &str) -> String {
    let mut parts = vec![
        "curl -sS -i -N".to_string(),
        "-X POST".to_string(),
        shell_quote(url),
    ];
    for (name, value) in &settings.headers {
        let shown = settings.redactor.header_value(name, value);
        parts.push(format!("-H {}", shell_quote(&format!("{name}: {shown}"))));
    }
    parts.push("-H 'Accept: text/event-stream'".to_string());
    if auth && settings.token.is_some() {
        // Double quotes so the shell expands $TOKEN; the real token is never printed.
        parts.push("-H \"Authorization: Bearer $TOKEN\"".to_string());
    }
    parts.push("-H 'Content-Type: application/json'".to_string());
    if body.len() <= CURL_INLINE_LIMIT {
        parts.push(format!(
            "--data-raw {}",
            shell_quote(&settings.redactor.redact(body))
        ));
    } else {
        parts.push(format!(
            "--data-binary @body.json  # {} byte body, see the JSON report",
            body.len()
        ));
    }
    parts.join(" ")
}

/// The body as the transcript shows it: JSON with long strings elided, event streams
/// and other text as text, cut at a readable length.
fn shown_body(raw: &[u8]) -> String {
    if let Ok(v) = serde_json::from_slice::<Value>(raw) {
        return elide(&v).to_string();
    }
    let text = String::from_utf8_lossy(raw);
    let count = text.chars().count();
    if count > SHOWN_STREAM_CHARS {
        format!(
            "{}…[+{} chars]",
            text.chars().take(SHOWN_STREAM_CHARS).collect::<String>(),
            count - SHOWN_STREAM_CHARS
        )
    } else {
        text.into_owned()
    }
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

/// POSTs `body` to `client`'s endpoint and reads the answer within `settings`.
pub async fn post_run(
    client: &HttpClient,
    settings: &StreamSettings,
    body: &Value,
    auth: bool,
) -> StreamAnswer {
    let url = client.url("");
    let body_text = body.to_string();
    let mut builder = client.inner().post(&url);
    let mut shown_headers = Vec::new();
    for (name, value) in &settings.headers {
        builder = builder.header(name, value);
        shown_headers.push((name.clone(), settings.redactor.header_value(name, value)));
    }
    builder = builder.header("Accept", "text/event-stream");
    shown_headers.push(("Accept".into(), "text/event-stream".into()));
    if let (true, Some(token)) = (auth, &settings.token) {
        builder = builder.bearer_auth(token);
        shown_headers.push(("Authorization".into(), "Bearer [REDACTED]".into()));
    }
    builder = builder
        .header("Content-Type", "application/json")
        .body(body_text.clone());
    shown_headers.push(("Content-Type".into(), "application/json".into()));
    let request = RecordedRequest {
        method: "POST".into(),
        url: settings.redactor.redact(&url),
        headers: shown_headers,
        body: Some(settings.redactor.redact(&elide(body).to_string())),
    };
    let curl = curl_line(&url, settings, auth, &body_text);
    let deadline = Instant::now() + settings.deadline;
    let mut response = match timeout_at(deadline, builder.send()).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return no_answer(request, curl, describe(&e)),
        Err(_) => {
            let secs = settings.deadline.as_secs_f64();
            return no_answer(
                request,
                curl,
                format!("timed out after {secs}s (--timeout)"),
            );
        }
    };
    let status = response.status().as_u16();
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(k, v)| {
            let value = String::from_utf8_lossy(v.as_bytes());
            (
                k.to_string(),
                settings.redactor.header_value(k.as_str(), &value),
            )
        })
        .collect();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let event_stream = (200..300).contains(&status)
        && content_type.as_deref().is_some_and(|ct| {
            ct.split(';')
                .next()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case("text/event-stream"))
        });

    let mut classifier = Classifier::default();
    let mut decoder = Decoder::new();
    let mut raw: Vec<u8> = Vec::new();
    let mut read_until = deadline;
    let mut in_grace = false;
    let ended_by = loop {
        match timeout_at(read_until, response.chunk()).await {
            Err(_) if in_grace => break ReadEnd::AfterTerminal,
            Err(_) => break ReadEnd::Deadline,
            // The client's own timeout is the same deadline seen from reqwest's side.
            Ok(Err(e)) if e.is_timeout() => break ReadEnd::Deadline,
            Ok(Err(_)) => break ReadEnd::Transport,
            Ok(Ok(None)) => break ReadEnd::Eof,
            Ok(Ok(Some(chunk))) => {
                let room = settings.max_bytes.saturating_sub(raw.len());
                let capped = chunk.len() > room;
                let chunk = if capped { chunk.slice(..room) } else { chunk };
                raw.extend_from_slice(&chunk);
                if event_stream {
                    decoder.push(chunk, &mut classifier);
                }
                if capped {
                    break ReadEnd::ReadCap;
                }
                if classifier.terminal_seen() && !in_grace {
                    in_grace = true;
                    read_until = deadline.min(Instant::now() + settings.grace);
                }
            }
        }
    };
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
    let exchange = Exchange {
        request,
        response: Some(RecordedResponse {
            status,
            headers,
            body: settings.redactor.redact(&shown_body(&raw)),
            truncated: ended_by == ReadEnd::ReadCap,
        }),
        curl,
    };
    StreamAnswer {
        exchange,
        evidence: Ok(evidence),
    }
}

fn no_answer(request: RecordedRequest, curl: String, why: String) -> StreamAnswer {
    StreamAnswer {
        exchange: Exchange {
            request,
            response: None,
            curl,
        },
        evidence: Err(why),
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

    #[test]
    fn curl_lines_stream_and_hide_the_token() {
        let settings = StreamSettings {
            token: Some("s3cret".into()),
            headers: vec![("Cookie".into(), "id=s3cret".into())],
            deadline: Duration::from_secs(1),
            max_bytes: 1024,
            grace: Duration::from_millis(10),
            redactor: Redactor::new(["s3cret"]),
        };
        let line = curl_line(
            "http://127.0.0.1:1/agui",
            &settings,
            true,
            r#"{"a":"it's"}"#,
        );
        assert!(
            line.starts_with("curl -sS -i -N -X POST 'http://127.0.0.1:1/agui'"),
            "{line}"
        );
        assert!(line.contains("-H 'Accept: text/event-stream'"), "{line}");
        assert!(line.contains("\"Authorization: Bearer $TOKEN\""), "{line}");
        assert!(!line.contains("s3cret"), "{line}");
    }
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod hostile_tests;
