//! The model a forwarding reference host calls: an OpenAI-compatible base URL
//! (`http://127.0.0.1:4010/v1`), reached with one non-streaming `POST
//! {base}/chat/completions` per call (docs/wire.md, "Forwarding to a model"), or, for a
//! host that translates wires, `POST {base}/responses` or `POST
//! {base}/v1beta/models/{model}:generateContent` ([`UpstreamWire`]).
//!
//! Bounded like everything the hosts do: a timeout on the whole exchange, no
//! redirects, at most [`MAX_REPLY_BYTES`] of the answer read, and no proxy for a
//! loopback upstream (a proxy could only break it).

use std::time::Duration;

use crate::openai_wire::{self, Distortion, WireMessage};
use crate::{gemini_wire, responses_wire};
use serde_json::{Value, json};

/// The `model` every forwarded request names.
pub const MODEL: &str = "mmconform-reference";

/// How long one upstream exchange may take, connect to last byte.
const TIMEOUT: Duration = Duration::from_secs(30);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The most of an upstream answer that is read; a longer one is an upstream failure.
pub const MAX_REPLY_BYTES: usize = 1024 * 1024;

/// What the upstream answered: its status and the reply text (`choices[0].message.content`,
/// text parts joined; empty when it has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub text: String,
}

/// What the upstream answered to a relayed request: its status and JSON body.
#[derive(Debug, Clone, PartialEq)]
pub struct Relayed {
    pub status: u16,
    pub body: Value,
}

/// Why there is no reply: unreachable, a non-2xx status, too long, or not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable(pub String);

/// The wire a host speaks to its upstream model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpstreamWire {
    /// OpenAI Chat Completions (`openai_wire.rs`).
    #[default]
    Chat,
    /// OpenAI Responses (`responses_wire.rs`).
    Responses,
    /// Gemini generateContent (`gemini_wire.rs`).
    Gemini,
}

impl UpstreamWire {
    pub const NAMES: [&'static str; 3] = ["chat", "responses", "gemini"];

    pub fn parse(name: &str) -> Result<UpstreamWire, String> {
        Ok(match name {
            "chat" => UpstreamWire::Chat,
            "responses" => UpstreamWire::Responses,
            "gemini" => UpstreamWire::Gemini,
            other => {
                return Err(format!(
                    "unknown upstream wire {other:?} (known: {})",
                    UpstreamWire::NAMES.join(", ")
                ));
            }
        })
    }

    /// The request path under the upstream's base URL.
    fn path(self) -> String {
        match self {
            UpstreamWire::Chat => "/chat/completions".into(),
            UpstreamWire::Responses => "/responses".into(),
            UpstreamWire::Gemini => format!("/v1beta/models/{MODEL}:generateContent"),
        }
    }
}

/// A configured upstream and the client that reaches it.
#[derive(Debug, Clone)]
pub struct Upstream {
    endpoint: String,
    wire: UpstreamWire,
    /// A client that could not be built is reported on every call, never a panic.
    client: Result<reqwest::Client, String>,
}

impl Upstream {
    /// An upstream spoken to in Chat Completions.
    pub fn new(base: &url::Url) -> Upstream {
        Upstream::over(base, UpstreamWire::Chat)
    }

    /// An upstream spoken to in `wire`.
    pub fn over(base: &url::Url, wire: UpstreamWire) -> Upstream {
        let endpoint = format!("{}{}", base.as_str().trim_end_matches('/'), wire.path());
        Upstream {
            endpoint,
            wire,
            client: client(base),
        }
    }

    /// An upstream that requests are relayed to as they are, at `{base}{path}`
    /// ([`Upstream::relay`] only: the Anthropic server relays Messages to Messages).
    pub fn relaying_to(base: &url::Url, path: &str) -> Upstream {
        Upstream {
            endpoint: format!("{}{path}", base.as_str().trim_end_matches('/')),
            wire: UpstreamWire::Chat,
            client: client(base),
        }
    }

    pub fn wire(&self) -> UpstreamWire {
        self.wire
    }

    /// Sends `messages` as one non-streaming call in the upstream's wire, bent by
    /// `distortion`, and reads the reply's text.
    pub async fn complete(
        &self,
        messages: &[WireMessage],
        distortion: Option<Distortion>,
    ) -> Result<Reply, Unavailable> {
        let body = match self.wire {
            UpstreamWire::Chat => json!({"model": MODEL,
                "messages": openai_wire::messages(messages, distortion), "stream": false}),
            UpstreamWire::Responses => responses_wire::from_chat(&json!({"model": MODEL,
                "messages": openai_wire::messages(messages, distortion)})),
            UpstreamWire::Gemini => gemini_wire::request(messages, distortion),
        };
        let relayed = self.relay(&body).await?;
        if !(200..300).contains(&relayed.status) {
            return Err(self.unavailable(format!("it answered {}", relayed.status)));
        }
        Ok(Reply {
            status: relayed.status,
            text: self.reply_text(&relayed.body),
        })
    }

    /// The text of an answer in the upstream's wire.
    pub fn reply_text(&self, answer: &Value) -> String {
        match self.wire {
            UpstreamWire::Chat => reply_text(answer),
            UpstreamWire::Responses => responses_wire::reply_text(answer),
            UpstreamWire::Gemini => gemini_wire::reply_text(answer),
        }
    }

    /// Sends `body` (a whole Chat Completions request) as it is, and returns what the
    /// upstream answered whatever its status, as a gateway relays it; Err when it
    /// cannot be reached, breaks off, answers too much, or answers something not JSON.
    pub async fn relay(&self, body: &Value) -> Result<Relayed, Unavailable> {
        let client = self.client.as_ref().map_err(|e| Unavailable(e.clone()))?;
        let mut response = client
            .post(&self.endpoint)
            .json(body)
            .send()
            .await
            .map_err(|e| self.unavailable(format!("cannot reach it: {e}")))?;
        let status = response.status();
        let mut bytes = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => {
                    if bytes.len() + chunk.len() > MAX_REPLY_BYTES {
                        return Err(self.unavailable(format!(
                            "its answer is longer than {MAX_REPLY_BYTES} bytes"
                        )));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) => return Err(self.unavailable(format!("its answer broke off: {e}"))),
            }
        }
        let answer: Value = serde_json::from_slice(&bytes).map_err(|e| {
            self.unavailable(format!(
                "it answered {status} with a body that is not JSON: {e}"
            ))
        })?;
        Ok(Relayed {
            status: status.as_u16(),
            body: answer,
        })
    }

    fn unavailable(&self, why: String) -> Unavailable {
        Unavailable(format!("the upstream model at {}: {why}", self.endpoint))
    }
}

fn client(base: &url::Url) -> Result<reqwest::Client, String> {
    // Only an https upstream needs it; installing twice is harmless.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .connect_timeout(CONNECT_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none());
    if is_loopback(base) {
        builder = builder.no_proxy();
        if base.scheme() == "http" {
            // Plain HTTP to this machine, without redirects or a proxy: no handshake
            // can happen, so the system CA store (parsed certificate by certificate
            // at every start of a forwarding host) is not loaded.
            builder = builder.tls_certs_only(Vec::new());
        }
    }
    builder
        .build()
        .map_err(|e| format!("cannot build an HTTP client for the upstream: {e}"))
}

/// True when `url` names 127.0.0.0/8, ::1 or `localhost`.
pub fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// `choices[0].message.content`: a string, or the text of its text parts.
pub fn reply_text(answer: &Value) -> String {
    match &answer["choices"][0]["message"]["content"] {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .concat(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mock_upstream::MockUpstream;
    use crate::openai_wire::WireContent;

    #[tokio::test]
    async fn posts_one_completion_and_reads_the_reply() {
        let mock = MockUpstream::start(200).await;
        let upstream = Upstream::new(&mock.base());
        assert!(upstream.endpoint.ends_with("/v1/chat/completions"));
        let hi = WireMessage {
            role: "user".into(),
            content: WireContent::Text("hi".into()),
        };
        let reply = upstream.complete(&[hi], None).await.unwrap();
        assert_eq!(reply.status, 200);
        assert_eq!(reply.text, crate::mock_upstream::REPLY);
        let received = mock.received();
        assert_eq!(received.len(), 1);
        assert_eq!(
            received[0],
            json!({"model": MODEL, "messages": [{"role": "user", "content": "hi"}], "stream": false})
        );
    }

    #[tokio::test]
    async fn failures_are_unavailable_with_the_reason() {
        let mock = MockUpstream::start(503).await;
        let err = Upstream::new(&mock.base())
            .complete(&[], None)
            .await
            .unwrap_err();
        assert!(err.0.contains("503"), "{err:?}");
        let closed =
            url::Url::parse(&format!("http://127.0.0.1:{}/v1", mock.closed_port())).unwrap();
        let err = Upstream::new(&closed)
            .complete(&[], None)
            .await
            .unwrap_err();
        assert!(err.0.contains("cannot reach it"), "{err:?}");
    }

    #[test]
    fn reply_text_reads_strings_and_text_parts() {
        let answer = |content: Value| json!({"choices": [{"message": {"content": content}}]});
        assert_eq!(reply_text(&answer(json!("hi"))), "hi");
        assert_eq!(
            reply_text(&answer(
                json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])
            )),
            "ab"
        );
        assert_eq!(reply_text(&answer(Value::Null)), "");
        assert_eq!(reply_text(&json!({})), "");
    }

    #[test]
    fn loopback_is_127_8_ipv6_one_and_localhost() {
        for (url, loopback) in [
            ("http://127.0.0.1:1/v1", true),
            ("http://127.9.9.9/v1", true),
            ("http://[::1]:4010/v1", true),
            ("http://LOCALHOST/v1", true),
            ("http://10.0.0.1/v1", false),
            ("https://api.example.com/v1", false),
        ] {
            assert_eq!(
                is_loopback(&url::Url::parse(url).unwrap()),
                loopback,
                "{url}"
            );
        }
    }
}
