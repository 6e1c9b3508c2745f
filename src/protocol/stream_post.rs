//! One POST whose answer may be an event stream, read within bounds: the sequence an
//! AG-UI run and an OpenAI door's call share. Send it; read the answer with
//! [`read_body`] (one deadline, the read cap, a short grace after the sink saw the
//! end), feeding a 2xx event stream's events to the protocol's [`EventSink`] as they
//! come; note a final frame left unterminated; hand what was read to the protocol's
//! classifier; record the response (redacted, marked truncated at the read cap) in
//! the exchange.

use crate::http::{HttpClient, HttpRequest, Opened, shown_body};
use crate::outcome::{Exchange, RecordedResponse};
use crate::protocol::sse_read::{
    Decoder, EventSink, ReadEnd, ReadLimits, is_event_stream, read_body, unterminated_frame,
};
use std::time::Duration;

/// What one POST produced: the transcript always, and the classified answer unless
/// the transport failed (or the run was stopped) before any response arrived.
pub struct Answered<E> {
    pub exchange: Exchange,
    pub evidence: Result<E, String>,
}

/// An answer as read, for the protocol to classify.
pub struct Read<'a, S> {
    /// The sink, having seen every event of a stream (and its framing problems).
    pub sink: S,
    pub status: u16,
    pub content_type: Option<String>,
    /// What was read, within the bounds.
    pub raw: &'a [u8],
    pub ended_by: ReadEnd,
    /// Read as an event stream: a 2xx `text/event-stream` answer, where a stream was
    /// allowed.
    pub event_stream: bool,
}

/// Sends `request` and reads its answer: as an event stream fed to `sink` when
/// `stream_allowed` and the answer is a 2xx event stream, as a body otherwise (within
/// the same bounds); `classify` turns what was read into the protocol's evidence.
pub async fn post_and_read<S: EventSink, E>(
    client: &HttpClient,
    request: &HttpRequest,
    grace: Duration,
    stream_allowed: bool,
    mut sink: S,
    classify: impl FnOnce(Read<'_, S>) -> E,
) -> Answered<E> {
    let Opened {
        mut exchange,
        response,
        read_until: deadline,
    } = client.open(request).await;
    let mut response = match response {
        Ok(r) => r,
        Err(e) => {
            return Answered {
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
    let event_stream =
        stream_allowed && (200..300).contains(&status) && is_event_stream(content_type.as_deref());
    let limits = ReadLimits {
        deadline,
        grace,
        max_bytes: client.settings().max_response_bytes,
    };
    let mut decoder = Decoder::new();
    let (raw, ended_by) = read_body(
        client,
        &mut response,
        &limits,
        event_stream.then_some((&mut decoder, &mut sink)),
    )
    .await;
    if event_stream && ended_by == ReadEnd::Eof {
        decoder.close(&mut sink);
        if unterminated_frame(&raw) {
            sink.framing(
                "the stream ended inside an event (its last frame has no closing blank line)"
                    .into(),
            );
        }
    }
    exchange.response = Some(RecordedResponse {
        status,
        headers,
        body: client.redact(&shown_body(&raw)),
        truncated: ended_by == ReadEnd::ReadCap,
    });
    let evidence = classify(Read {
        sink,
        status,
        content_type,
        raw: &raw,
        ended_by,
        event_stream,
    });
    Answered {
        exchange,
        evidence: Ok(evidence),
    }
}
