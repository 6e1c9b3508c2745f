//! Sending one request and recording it, redacted, with a `curl` line that replays it.
//!
//! Whatever the host does, a send ends: each attempt is bounded by `--timeout`
//! (connect, headers and the whole body) and by the run's stop signal (`--deadline`,
//! Ctrl-C); bodies are read up to `--max-response-bytes` and never decompressed (no
//! `Accept-Encoding` is offered and reqwest is built without decoders, so a gzip bomb
//! is read as the few raw bytes it is); redirects stay on the target's origin
//! ([`redirect`]); request starts are paced by `--rate`; and only a missing answer or a
//! 429/503 with `Retry-After` is tried again ([`retry`]).

pub mod curl;
mod failure;
pub mod json_body;
mod open;
pub mod record;
pub mod redirect;
pub mod replay;
pub mod retry;
mod transport;
pub mod wire;

use crate::outcome::{Exchange, RecordedResponse};
use crate::redact::Redactor;
use crate::stop::{Stop, StopReason};
use serde_json::Value;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

pub use failure::SendError;
use failure::{Failure, describe, no_answer_at_all};
pub use json_body::JsonBody;
pub use open::Opened;
pub use record::shown_body;
pub use transport::Transports;
use transport::transport;

pub use crate::config::TlsSettings;

#[derive(Debug, Clone)]
pub struct HttpSettings {
    pub base_url: String,
    pub token: Option<String>,
    /// The header the token travels in as it is (Anthropic's `x-api-key`); `None`:
    /// `Authorization: Bearer <token>`.
    pub api_key_header: Option<&'static str>,
    pub headers: Vec<(String, String)>,
    pub timeout: Duration,
    pub max_response_bytes: usize,
    pub max_redirects: usize,
    /// Retries after a missing answer or a 429/503 with `Retry-After`.
    pub retries: u32,
    /// Least time between two request starts (`--rate`).
    pub min_interval: Option<Duration>,
    pub tls: TlsSettings,
    /// Honour HTTP_PROXY/HTTPS_PROXY/ALL_PROXY/NO_PROXY (off for the embedded host).
    pub env_proxy: bool,
}

impl HttpSettings {
    /// The header carrying the token, its value spelled with `token` (the token itself,
    /// or a placeholder where it is shown).
    pub fn auth_header(&self, token: &str) -> (String, String) {
        match self.api_key_header {
            Some(name) => (name.to_string(), token.to_string()),
            None => ("Authorization".into(), format!("Bearer {token}")),
        }
    }

    /// Defaults for everything but the target: tests and tools that only need a client.
    pub fn new(base_url: impl Into<String>) -> HttpSettings {
        HttpSettings {
            base_url: base_url.into(),
            token: None,
            api_key_header: None,
            headers: Vec::new(),
            timeout: Duration::from_secs(30),
            max_response_bytes: 4 * 1024 * 1024,
            max_redirects: 5,
            retries: 2,
            min_interval: None,
            tls: TlsSettings::default(),
            env_proxy: true,
        }
    }

    /// The settings a run's configuration asks for; `api_key_header` is the run's
    /// protocol's (the caller knows the protocol, the client does not).
    pub fn for_run(
        config: &crate::config::RunConfig,
        base_url: &str,
        api_key_header: Option<&'static str>,
    ) -> HttpSettings {
        HttpSettings {
            base_url: base_url.to_string(),
            token: config.token.as_ref().map(|t| t.value.clone()),
            api_key_header,
            headers: config.headers.clone(),
            timeout: config.timeout,
            max_response_bytes: config.max_response_bytes,
            max_redirects: config.max_redirects,
            retries: config.retries,
            min_interval: config.min_interval,
            tls: config.tls.clone(),
            env_proxy: config.env_proxy,
        }
    }
}

#[derive(Debug, Clone)]
pub struct HttpRequest {
    pub method: reqwest::Method,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
    /// Send the bearer token (when one is configured).
    pub auth: bool,
    /// Why it is sent (`discovery`, `probe ...`, a case id), for the report's request list.
    pub purpose: String,
}

#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    pub truncated: bool,
    /// The answer's headers as received, unredacted: for judges that look for a
    /// configured secret on the wire (openwop RFC 0108). Never recorded or shown: the
    /// exchange keeps the redacted copy.
    pub raw_headers: Vec<(String, String)>,
}

/// One attempt's answer, before retry decisions.
struct Received {
    response: HttpResponse,
    headers: Vec<(String, String)>,
    retry_after: Option<Duration>,
    note: Option<String>,
}

pub struct HttpClient {
    client: reqwest::Client,
    settings: HttpSettings,
    redactor: Redactor,
    stop: Stop,
    /// When the next request may start (`--rate`).
    next_start: Mutex<Option<Instant>>,
    /// Every request sent, in order.
    wire: std::sync::Arc<wire::WireLog>,
    /// What `--export-hurl` needs to send each request again, when it is asked for.
    replay: Option<std::sync::Arc<replay::ReplayLog>>,
}

impl HttpClient {
    pub fn new(
        settings: HttpSettings,
        redactor: Redactor,
        stop: Stop,
    ) -> Result<HttpClient, String> {
        HttpClient::sharing(settings, redactor, stop, None)
    }

    /// [`new`](Self::new), taking the transport (TLS configuration, connection pool)
    /// from `transports` when one with the same settings was built before: calibration
    /// runs hundreds of sessions, and each transport built loads the system CA store.
    pub fn sharing(
        settings: HttpSettings,
        redactor: Redactor,
        stop: Stop,
        transports: Option<&Transports>,
    ) -> Result<HttpClient, String> {
        let client = match transports {
            Some(shared) => shared.get(&settings)?,
            None => transport(&settings)?,
        };
        Ok(HttpClient {
            client,
            settings,
            redactor,
            stop,
            next_start: Mutex::new(None),
            wire: Default::default(),
            replay: None,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.base_url)
    }

    pub fn settings(&self) -> &HttpSettings {
        &self.settings
    }

    /// `text` with every secret of the run masked, for transcripts built elsewhere.
    pub fn redact(&self, text: &str) -> String {
        self.redactor.redact(text)
    }

    /// The run's stop signal, for readers that consume an answer as it arrives.
    pub fn stop(&self) -> &Stop {
        &self.stop
    }

    /// Every request this client sent so far, in the order sent.
    pub fn wire(&self) -> Vec<crate::event::WireEntry> {
        self.wire.entries()
    }

    /// Response headers as transcripts show them (sensitive values masked).
    pub fn shown_headers(&self, headers: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
        headers
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    self.redactor
                        .header_value(k.as_str(), &String::from_utf8_lossy(v.as_bytes())),
                )
            })
            .collect()
    }

    /// The request as reqwest sends it: configured headers, the bearer token, the body.
    fn builder(
        &self,
        req: &HttpRequest,
        url: &str,
        body: Option<&JsonBody>,
    ) -> reqwest::RequestBuilder {
        let mut builder = self.client.request(req.method.clone(), url);
        for (name, value) in self.settings.headers.iter().chain(req.headers.iter()) {
            builder = builder.header(name, value);
        }
        if let (true, Some(token)) = (req.auth, &self.settings.token) {
            let (name, value) = self.settings.auth_header(token);
            builder = builder.header(name, value);
        }
        if let Some(body) = body {
            builder = builder
                .header("Content-Type", "application/json")
                .body(body.to_body());
        }
        builder
    }

    /// When an attempt starting now must end, and whether that is the deadline rather
    /// than `--timeout`.
    fn attempt_limit(&self) -> (Instant, bool) {
        let by_timeout = Instant::now() + self.settings.timeout;
        match self.stop.deadline() {
            Some(deadline) if deadline < by_timeout => (deadline, true),
            _ => (by_timeout, false),
        }
    }

    fn timed_out(&self) -> SendError {
        SendError::Transport(format!(
            "timed out after {} s (--timeout: connect, headers and body)",
            self.settings.timeout.as_secs_f64()
        ))
    }

    fn curl_line(&self, req: &HttpRequest, body: Option<&JsonBody>) -> String {
        curl::curl_line(
            &self.settings,
            &self.redactor,
            &self.url(&req.path),
            req,
            body,
        )
    }

    /// Sends the request, retrying as [`retry`] allows. The exchange is always
    /// recorded (the last attempt, with notes on the others); `Err` means there is no
    /// answer to judge.
    pub async fn send(&self, req: &HttpRequest) -> (Exchange, Result<HttpResponse, SendError>) {
        let shown = self.shown_request_body(req.body.as_ref());
        let body = req.body.as_ref().map(JsonBody::of);
        self.send_body(req, shown, body).await
    }

    /// [`send`](Self::send), for a request the caller gives up: its body is serialized
    /// without copying its long strings (a large inline part is held once).
    pub async fn send_owned(
        &self,
        mut req: HttpRequest,
    ) -> (Exchange, Result<HttpResponse, SendError>) {
        let shown = self.shown_request_body(req.body.as_ref());
        let body = req.body.take().map(JsonBody::from_value);
        self.send_body(&req, shown, body).await
    }

    async fn send_body(
        &self,
        req: &HttpRequest,
        shown: Option<(String, bool)>,
        body: Option<JsonBody>,
    ) -> (Exchange, Result<HttpResponse, SendError>) {
        let url = self.url(&req.path);
        let mut exchange = self.recorded(req, &url, shown, body.as_ref());
        let result = loop {
            let seq = self
                .wire
                .begin(req.method.as_str(), &exchange.request.url, &req.purpose);
            exchange.seq = Some(seq);
            if exchange.retries == 0 {
                self.record_replay(seq, req, &url, body.as_ref());
            }
            let attempt = self.attempt(req, &url, body.as_ref()).await;
            match &attempt {
                Ok(r) => self.wire.end(seq, Some(r.response.status), None),
                Err(f) => {
                    self.wire
                        .end(seq, None, Some(self.redactor.redact(&f.error.to_string())))
                }
            }
            exchange.response = attempt.as_ref().ok().map(|r| RecordedResponse {
                status: r.response.status,
                headers: r.headers.clone(),
                body: self.redactor.redact(&shown_body(&r.response.body)),
                truncated: r.response.truncated,
            });
            let retry = match &attempt {
                Ok(r) => {
                    if let Some(note) = &r.note {
                        exchange.notes.push(self.redactor.redact(note));
                    }
                    match r.retry_after {
                        Some(wait) if retry::is_retry_later(r.response.status) => {
                            Some((wait, format!("HTTP {}", r.response.status)))
                        }
                        _ => None,
                    }
                }
                Err(f) if f.retryable => Some((
                    retry::transport_backoff(exchange.retries),
                    f.error.to_string(),
                )),
                Err(_) => None,
            };
            let Some((wait, why)) = retry else {
                break attempt.map(|r| r.response).map_err(|f| f.error);
            };
            if let Err(refusal) = self.may_retry(exchange.retries, wait) {
                break match attempt {
                    // The host is asking for time it cannot have: not observable.
                    Ok(r) => Err(SendError::Unavailable(format!(
                        "the host answered HTTP {} with Retry-After {}s {refusal}",
                        r.response.status,
                        wait.as_secs()
                    ))),
                    Err(f) => Err(f.error),
                };
            }
            exchange.retries += 1;
            exchange.notes.push(self.redactor.redact(&format!(
                "retry {} after {why}: waited {} ms",
                exchange.retries,
                wait.as_millis()
            )));
            if let Err(reason) = self.stop.sleep_until(Instant::now() + wait).await {
                break Err(SendError::Stopped(reason));
            }
        };
        (exchange, result)
    }

    /// Whether another attempt fits the retry budget and the deadline.
    fn may_retry(&self, done: u32, wait: Duration) -> Result<(), String> {
        if done >= self.settings.retries {
            return Err(format!(
                "on every attempt ({} in all, --retries {})",
                done + 1,
                self.settings.retries
            ));
        }
        if wait > retry::MAX_RETRY_WAIT {
            return Err(format!(
                "longer than mmconform waits ({} s)",
                retry::MAX_RETRY_WAIT.as_secs()
            ));
        }
        if self
            .stop
            .deadline()
            .is_some_and(|d| Instant::now() + wait >= d)
        {
            return Err("and the deadline leaves no time to wait".to_string());
        }
        Ok(())
    }

    /// Waits for this request's turn under `--rate`.
    async fn pace(&self) -> Result<(), StopReason> {
        let Some(interval) = self.settings.min_interval else {
            return Ok(());
        };
        let start = {
            let mut next = self
                .next_start
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let start = next.map_or_else(Instant::now, |n| n.max(Instant::now()));
            *next = Some(start + interval);
            start
        };
        self.stop.sleep_until(start).await
    }

    /// One attempt, bounded by the timeout, the deadline and Ctrl-C.
    async fn attempt(
        &self,
        req: &HttpRequest,
        url: &str,
        body: Option<&JsonBody>,
    ) -> Result<Received, Failure> {
        if let Some(reason) = self.stop.reason() {
            return Err(reason.into());
        }
        self.pace().await?;
        let (limit, deadline_first) = self.attempt_limit();
        tokio::select! {
            bounded = tokio::time::timeout_at(limit, self.exchange(req, url, body)) => match bounded {
                Ok(result) => result,
                Err(_) if deadline_first => Err(StopReason::Deadline.into()),
                Err(_) => Err(Failure {
                    error: self.timed_out(),
                    retryable: false,
                }),
            },
            reason = self.stop.wait() => Err(reason.into()),
        }
    }

    async fn exchange(
        &self,
        req: &HttpRequest,
        url: &str,
        body: Option<&JsonBody>,
    ) -> Result<Received, Failure> {
        let transport = |e: reqwest::Error| Failure {
            retryable: no_answer_at_all(&e),
            error: SendError::Transport(describe(&e)),
        };
        let mut response = self
            .builder(req, url, body)
            .send()
            .await
            .map_err(transport)?;
        let status = response.status().as_u16();
        let header_text = |name: reqwest::header::HeaderName| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header_text(reqwest::header::CONTENT_TYPE);
        let retry_after = header_text(reqwest::header::RETRY_AFTER)
            .and_then(|v| retry::parse_retry_after(&v, std::time::SystemTime::now()));
        let note = match url::Url::parse(url) {
            Ok(requested) => redirect::note(
                &requested,
                response.url(),
                status,
                header_text(reqwest::header::LOCATION).as_deref(),
                self.settings.max_redirects,
            ),
            Err(_) => None,
        };
        let headers = self.shown_headers(response.headers());
        let raw_headers = response
            .headers()
            .iter()
            .map(|(k, v)| {
                let value = String::from_utf8_lossy(v.as_bytes()).into_owned();
                (k.to_string(), value)
            })
            .collect();
        let cap = self.settings.max_response_bytes;
        let mut body = Vec::new();
        let mut truncated = false;
        while let Some(chunk) = response.chunk().await.map_err(transport)? {
            let room = cap.saturating_sub(body.len());
            let take = chunk.len().min(room);
            grow(&mut body, take, cap);
            body.extend_from_slice(&chunk[..take]);
            if take < chunk.len() {
                truncated = true;
                break;
            }
        }
        Ok(Received {
            response: HttpResponse {
                status,
                content_type,
                body,
                truncated,
                raw_headers,
            },
            headers,
            retry_after,
            note,
        })
    }
}

/// Bodies past this size grow straight to the read cap.
const LARGE_BODY: usize = 256 * 1024;

/// Makes room for `more` bytes. Small bodies grow by doubling; a large one is given the
/// whole cap at once, because doubling a multi-MiB buffer holds the old and the new
/// copy at the same time, and with `-j` bodies in flight that doubles peak memory.
fn grow(body: &mut Vec<u8>, more: usize, cap: usize) {
    let wanted = body.len() + more;
    if wanted <= body.capacity() {
        return;
    }
    let target = if wanted > LARGE_BODY {
        cap.max(wanted)
    } else {
        wanted.next_power_of_two().min(cap.max(wanted))
    };
    body.reserve_exact(target - body.len());
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
