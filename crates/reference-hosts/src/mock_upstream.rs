//! Test helper: a tiny OpenAI-compatible model on 127.0.0.1:0 that records every
//! `POST /v1/chat/completions` body and answers with a fixed status, and a one-line
//! summary of what it received, so a forwarding test reads like the request it pins.

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::{RunningReference, serve};

/// The reply text the mock model answers with.
pub const REPLY: &str = "the witness saw it";

#[derive(Clone)]
struct Recorder {
    status: StatusCode,
    body: Arc<String>,
    received: Arc<Mutex<Vec<Value>>>,
}

pub struct MockUpstream {
    running: RunningReference,
    received: Arc<Mutex<Vec<Value>>>,
}

impl MockUpstream {
    /// Answers every completion with `status` and a chat completion saying [`REPLY`].
    pub async fn start(status: u16) -> MockUpstream {
        let completion = json!({"id": "c1", "object": "chat.completion", "model": "mock",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": REPLY}}]});
        MockUpstream::with_body(status, completion.to_string()).await
    }

    /// Answers every completion with `status` and exactly `body`.
    pub async fn with_body(status: u16, body: String) -> MockUpstream {
        let received = Arc::new(Mutex::new(Vec::new()));
        let recorder = Recorder {
            status: StatusCode::from_u16(status).expect("a valid status"),
            body: Arc::new(body),
            received: received.clone(),
        };
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            // The other wires a host may translate into (upstream.rs, UpstreamWire).
            .route("/v1/responses", post(complete))
            .route("/v1/messages", post(complete))
            .route("/v1/v1beta/models/{*method}", post(complete))
            .with_state(recorder);
        let running = serve(app, super::test_support::loopback())
            .await
            .expect("bind the mock upstream");
        MockUpstream { running, received }
    }

    /// The base URL a host is configured with: `http://127.0.0.1:PORT/v1`.
    pub fn base(&self) -> url::Url {
        url::Url::parse(&format!("{}/v1", self.running.base_url())).expect("a URL")
    }

    /// Every request body received so far, in order.
    pub fn received(&self) -> Vec<Value> {
        self.received.lock().expect("not poisoned").clone()
    }

    /// A loopback port nothing listens on (bound, then released).
    pub fn closed_port(&self) -> u16 {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("an address").port()
    }
}

async fn complete(State(recorder): State<Recorder>, Json(body): Json<Value>) -> Response {
    recorder.received.lock().expect("not poisoned").push(body);
    (
        recorder.status,
        [("content-type", "application/json")],
        recorder.body.as_str().to_owned(),
    )
        .into_response()
}

/// What the model received, one message per `|`: `user: text image(image/png 16B)`.
/// Parts: `text`, `image(<mime> <n>B)` for a data URL, `image(url)`, `audio(<format>
/// <n>B)`, `file(<mime> <n>B <filename>)`, `file(id <filename>)`; string content is
/// `"..."`. `nothing` when no request arrived; requests are joined with ` || `.
pub fn describe(received: &[Value]) -> String {
    if received.is_empty() {
        return "nothing".into();
    }
    let requests: Vec<String> = received
        .iter()
        .map(|request| {
            request["messages"]
                .as_array()
                .map(|list| list.iter().map(message).collect::<Vec<_>>().join(" | "))
                .unwrap_or_else(|| "no messages".into())
        })
        .collect();
    requests.join(" || ")
}

fn message(message: &Value) -> String {
    let role = message["role"].as_str().unwrap_or("?");
    let content = match &message["content"] {
        Value::String(text) => format!("{text:?}"),
        Value::Array(parts) => parts.iter().map(part).collect::<Vec<_>>().join(" "),
        other => format!("?{other}"),
    };
    format!("{role}: {content}")
}

/// `(<mime> <n>B)` for a data URL, `url` for anything else.
fn data_url(url: &str) -> String {
    let Some((mime, b64)) = url
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"))
    else {
        return "url".into();
    };
    format!("{mime} {}", decoded_len(b64))
}

fn decoded_len(b64: &str) -> String {
    STANDARD
        .decode(b64)
        .map_or_else(|_| "not-base64".into(), |b| format!("{}B", b.len()))
}

fn part(part: &Value) -> String {
    let url = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    match part["type"].as_str() {
        Some("text") => "text".into(),
        Some("image_url") => format!("image({})", data_url(&url(&part["image_url"]["url"]))),
        Some("input_audio") => format!(
            "audio({} {})",
            part["input_audio"]["format"].as_str().unwrap_or("?"),
            decoded_len(&url(&part["input_audio"]["data"]))
        ),
        Some("file") => {
            let file = &part["file"];
            let name = file["filename"].as_str().unwrap_or("?");
            match file["file_data"].as_str() {
                Some(data) => format!("file({} {name})", data_url(data)),
                None => format!("file(id {name})"),
            }
        }
        other => format!("?{other:?}"),
    }
}

/// The decoded bytes of the `index`th part of the last request's last message (for
/// byte-for-byte checks).
pub fn part_bytes(received: &[Value], index: usize) -> Vec<u8> {
    let request = received.last().expect("a request");
    let messages = request["messages"].as_array().expect("messages");
    let part = &messages.last().expect("a message")["content"][index];
    let encoded = part["image_url"]["url"]
        .as_str()
        .or(part["file"]["file_data"].as_str())
        .map(|url| url.split_once(";base64,").expect("a data URL").1)
        .or(part["input_audio"]["data"].as_str())
        .expect("inline bytes");
    STANDARD.decode(encoded).expect("base64")
}
