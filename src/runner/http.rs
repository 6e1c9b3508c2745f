//! Sending one request and recording it, redacted, with a `curl` line that replays it.

use crate::outcome::{Exchange, RecordedRequest, RecordedResponse};
use crate::redact::Redactor;
use serde_json::Value;
use std::time::Duration;

/// Strings in recorded bodies longer than this are elided (base64 media).
const ELIDE_STRINGS_OVER: usize = 160;
/// Request bodies larger than this are not inlined into the curl line.
const CURL_INLINE_LIMIT: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct HttpSettings {
    pub base_url: String,
    pub token: Option<String>,
    pub headers: Vec<(String, String)>,
    pub timeout: Duration,
    pub max_response_bytes: usize,
}

#[derive(Debug, Clone)]
pub struct HttpRequest {
    pub method: reqwest::Method,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<Value>,
    /// Send the bearer token (when one is configured).
    pub auth: bool,
}

#[derive(Debug, Clone)]
pub struct HttpResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
    pub truncated: bool,
}

pub struct HttpClient {
    client: reqwest::Client,
    settings: HttpSettings,
    redactor: Redactor,
}

/// Replaces long strings so transcripts stay readable: `iVBORw0K…[+1234 chars]`.
pub fn elide(value: &Value) -> Value {
    match value {
        Value::String(s) if s.chars().count() > ELIDE_STRINGS_OVER => {
            let head: String = s.chars().take(24).collect();
            Value::String(format!("{head}…[+{} chars]", s.chars().count() - 24))
        }
        Value::Array(items) => Value::Array(items.iter().map(elide).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), elide(v))).collect())
        }
        other => other.clone(),
    }
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

impl HttpClient {
    pub fn new(settings: HttpSettings, redactor: Redactor) -> Result<HttpClient, String> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout)
            .redirect(reqwest::redirect::Policy::limited(5))
            .user_agent(concat!("mmconform/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        Ok(HttpClient {
            client,
            settings,
            redactor,
        })
    }

    /// The configured client, for readers that consume an answer incrementally (the
    /// AG-UI event stream, `runner::sse`) instead of through `send`.
    pub fn inner(&self) -> &reqwest::Client {
        &self.client
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.base_url)
    }

    fn curl_line(&self, req: &HttpRequest, body: Option<&str>) -> String {
        let mut parts = vec![
            "curl -sS -i".to_string(),
            format!("-X {}", req.method),
            shell_quote(&self.url(&req.path)),
        ];
        let mut headers = self.settings.headers.clone();
        headers.extend(req.headers.iter().cloned());
        for (name, value) in headers {
            parts.push(format!(
                "-H {}",
                shell_quote(&format!(
                    "{name}: {}",
                    self.redactor.header_value(&name, &value)
                ))
            ));
        }
        if req.auth && self.settings.token.is_some() {
            // Double quotes so the shell expands $TOKEN; the real token is never printed.
            parts.push("-H \"Authorization: Bearer $TOKEN\"".to_string());
        }
        if let Some(body) = body {
            parts.push("-H 'Content-Type: application/json'".to_string());
            if body.len() <= CURL_INLINE_LIMIT {
                parts.push(format!(
                    "--data-raw {}",
                    shell_quote(&self.redactor.redact(body))
                ));
            } else {
                parts.push(format!(
                    "--data-binary @body.json  # {} byte body, see the JSON report",
                    body.len()
                ));
            }
        }
        parts.join(" ")
    }

    /// Sends the request. The exchange is always recorded; `Err` is a transport failure.
    pub async fn send(&self, req: &HttpRequest) -> (Exchange, Result<HttpResponse, String>) {
        let url = self.url(&req.path);
        let body_text = req.body.as_ref().map(|b| b.to_string());
        let mut builder = self.client.request(req.method.clone(), &url);
        let mut shown_headers = Vec::new();
        for (name, value) in self.settings.headers.iter().chain(req.headers.iter()) {
            builder = builder.header(name, value);
            shown_headers.push((name.clone(), self.redactor.header_value(name, value)));
        }
        if let (true, Some(token)) = (req.auth, &self.settings.token) {
            builder = builder.bearer_auth(token);
            shown_headers.push(("Authorization".into(), "Bearer [REDACTED]".into()));
        }
        if let Some(text) = &body_text {
            builder = builder
                .header("Content-Type", "application/json")
                .body(text.clone());
            shown_headers.push(("Content-Type".into(), "application/json".into()));
        }
        let request = RecordedRequest {
            method: req.method.to_string(),
            url: self.redactor.redact(&url),
            headers: shown_headers,
            body: req
                .body
                .as_ref()
                .map(|b| self.redactor.redact(&elide(b).to_string())),
        };
        let curl = self.curl_line(req, body_text.as_deref());
        let result = self.receive(builder).await;
        let response = result.as_ref().ok().map(|(r, headers)| RecordedResponse {
            status: r.status,
            headers: headers.clone(),
            body: self.redactor.redact(&shown_body(&r.body)),
            truncated: r.truncated,
        });
        let exchange = Exchange {
            request,
            response,
            curl,
        };
        (exchange, result.map(|(r, _)| r))
    }

    async fn receive(
        &self,
        builder: reqwest::RequestBuilder,
    ) -> Result<(HttpResponse, Vec<(String, String)>), String> {
        let mut response = builder.send().await.map_err(describe)?;
        let status = response.status().as_u16();
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    self.redactor
                        .header_value(k.as_str(), &String::from_utf8_lossy(v.as_bytes())),
                )
            })
            .collect();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let mut body = Vec::new();
        let mut truncated = false;
        while let Some(chunk) = response.chunk().await.map_err(describe)? {
            let room = self.settings.max_response_bytes.saturating_sub(body.len());
            if chunk.len() > room {
                body.extend_from_slice(&chunk[..room]);
                truncated = true;
                break;
            }
            body.extend_from_slice(&chunk);
        }
        Ok((
            HttpResponse {
                status,
                content_type,
                body,
                truncated,
            },
            headers,
        ))
    }
}

/// Response bodies in transcripts: JSON with long strings elided, else lossy text.
fn shown_body(body: &[u8]) -> String {
    match serde_json::from_slice::<Value>(body) {
        Ok(v) => elide(&v).to_string(),
        Err(_) => {
            let text = String::from_utf8_lossy(body);
            if text.chars().count() > 4096 {
                format!(
                    "{}…[+{} chars]",
                    text.chars().take(4096).collect::<String>(),
                    text.chars().count() - 4096
                )
            } else {
                text.into_owned()
            }
        }
    }
}

/// A transport failure in one line, with its cause chain (reqwest hides the useful part).
fn describe(e: reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else {
        "transport error"
    };
    let mut message = kind.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn elides_long_strings_only() {
        let long = "A".repeat(500);
        let v = elide(&json!({"data": long, "mimeType": "image/png"}));
        assert_eq!(v["mimeType"], "image/png");
        assert!(v["data"].as_str().unwrap().ends_with("…[+476 chars]"));
    }

    #[test]
    fn curl_line_quotes_and_hides_the_token() {
        let settings = HttpSettings {
            base_url: "http://127.0.0.1:1".into(),
            token: Some("s3cret-token".into()),
            headers: vec![("Cookie".into(), "id=s3cret".into())],
            timeout: Duration::from_secs(1),
            max_response_bytes: 1024,
        };
        let client = HttpClient::new(settings, Redactor::new(["s3cret-token"])).unwrap();
        let req = HttpRequest {
            method: reqwest::Method::POST,
            path: "/x".into(),
            headers: vec![],
            body: None,
            auth: true,
        };
        let line = client.curl_line(&req, Some(r#"{"t":"it's"}"#));
        assert!(line.contains("\"Authorization: Bearer $TOKEN\""), "{line}");
        assert!(line.contains(r#"--data-raw '{"t":"it'\''s"}'"#), "{line}");
        assert!(!line.contains("s3cret"), "{line}");
    }
}
