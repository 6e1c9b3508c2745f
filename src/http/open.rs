//! Requests whose answer the caller reads as it arrives (an AG-UI event stream): the
//! same pacing, bounds and redirect rules as `send`, without retries or body reading.

use super::{HttpClient, HttpRequest, JsonBody, SendError, describe};
use crate::outcome::Exchange;
use crate::stop::StopReason;
use tokio::time::Instant;

/// A request opened with [`HttpClient::open`]: its answer is read by the caller.
pub struct Opened {
    /// The request as recorded, with its curl line; `response` is the caller's to fill.
    pub exchange: Exchange,
    /// The response once its headers arrived, or why none did.
    pub response: Result<reqwest::Response, SendError>,
    /// When reading the body must end (`--timeout` from the start, or the deadline).
    pub read_until: Instant,
}

impl HttpClient {
    /// Opens a request whose answer the caller reads itself as it arrives (an AG-UI
    /// event stream), under the rules `send` follows: paced by `--rate`, redirects kept
    /// on the target's origin, and the headers awaited within the timeout, the deadline
    /// and Ctrl-C. Never retried: a run is not safe to repeat. The caller records the
    /// response into the exchange and must stop reading at `read_until` or on
    /// [`stop`](Self::stop).
    pub async fn open(&self, req: &HttpRequest) -> Opened {
        let url = self.url(&req.path);
        let shown = self.shown_request_body(req.body.as_ref());
        let body = req.body.as_ref().map(JsonBody::of);
        let mut exchange = self.recorded(req, &url, shown, body.as_ref());
        let seq = self
            .wire
            .begin(req.method.as_str(), &exchange.request.url, &req.purpose);
        exchange.seq = Some(seq);
        self.record_replay(seq, req, &url, body.as_ref());
        let mut read_until = self.attempt_limit().0;
        let response = async {
            if let Some(reason) = self.stop.reason() {
                return Err(SendError::Stopped(reason));
            }
            self.pace().await.map_err(SendError::Stopped)?;
            let (limit, deadline_first) = self.attempt_limit();
            read_until = limit;
            let sent = self.builder(req, &url, body.as_ref()).send();
            tokio::select! {
                bounded = tokio::time::timeout_at(limit, sent) => match bounded {
                    Ok(Ok(response)) => Ok(response),
                    Ok(Err(e)) => Err(SendError::Transport(describe(&e))),
                    Err(_) if deadline_first => Err(SendError::Stopped(StopReason::Deadline)),
                    Err(_) => Err(self.timed_out()),
                },
                reason = self.stop.wait() => Err(SendError::Stopped(reason)),
            }
        }
        .await;
        match &response {
            Ok(r) => self.wire.end(seq, Some(r.status().as_u16()), None),
            Err(e) => self
                .wire
                .end(seq, None, Some(self.redactor.redact(&e.to_string()))),
        }
        Opened {
            exchange,
            response,
            read_until,
        }
    }
}
