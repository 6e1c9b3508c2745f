//! An embedded, strict Anthropic Messages server (`POST /v1/messages`), with a
//! text-only and a multimodal model, plus single-fault variants: what
//! `--profile anthropic` is calibrated against.
//!
//! Written from Anthropic's API reference (Messages, Errors, Streaming, Vision, PDF
//! support): `x-api-key` (when a key is configured) and `anthropic-version` headers;
//! `model`, `max_tokens` and a non-empty `messages` list of `user`/`assistant` turns;
//! content a non-empty string or a non-empty list of `text`, `image` and `document`
//! blocks. An image's `source` is `{type: base64, media_type, data}` with `media_type`
//! one of png, jpeg, gif, webp and the bytes that type, or `{type: url, url}` (http(s));
//! a document's is base64 `application/pdf`, `{type: text, media_type: text/plain,
//! data}` or a url. Errors are `{type: "error", error: {type, message}}`.
//!
//! Where things live: `request.rs` checks a body and its blocks, `error.rs` renders the
//! error envelope, `answer.rs` the message and its event stream, `models.rs` the models
//! and `GET /v1/models`, `routes.rs` the HTTP wiring and forwarding (an accepted
//! request goes on to `{upstream}/messages`, the Messages wire, as a gateway would send
//! it), `fault.rs` the faults. It serves the stamped media `url` sources name
//! (`/media/<kind>.<ext>`) but never fetches a URL itself.

mod answer;
mod error;
mod fault;
mod models;
mod request;
mod routes;

#[cfg(test)]
mod tests;

use super::RunningReference;
use std::net::SocketAddr;

pub use fault::{AnthropicFault, UnknownAnthropicFault};
pub use models::{IMAGE_MIMES, MODELS, MULTIMODAL_MODEL, Model, TEXT_MODEL};
pub use routes::router;

/// The API base path: `--target` for the server is `http://127.0.0.1:PORT/v1`.
pub const BASE_PATH: &str = "/v1";

/// Where the stamped media for `url` sources are served (`--media-base-url`).
pub const MEDIA_PATH: &str = "/media";

/// How the server behaves: its models, key, body cap, upstream and at most one fault.
#[derive(Debug, Clone)]
pub struct AnthropicConfig {
    pub models: Vec<Model>,
    /// When set, every route requires `x-api-key: <key>` (401 `authentication_error`).
    pub api_key: Option<String>,
    /// The request body cap (413 `request_too_large` above it); 64 MiB when unset.
    pub max_request_body_bytes: Option<u64>,
    pub fault: Option<AnthropicFault>,
    /// An Anthropic Messages base URL (`http://127.0.0.1:4010/v1`): when set, every
    /// accepted request is forwarded to `{upstream}/messages` and its text relayed.
    pub upstream: Option<url::Url>,
}

impl Default for AnthropicConfig {
    fn default() -> Self {
        AnthropicConfig {
            models: MODELS.to_vec(),
            api_key: None,
            max_request_body_bytes: None,
            fault: None,
            upstream: None,
        }
    }
}

impl AnthropicConfig {
    /// The server with `fault` (none: faithful), serving both models.
    pub fn new(fault: Option<AnthropicFault>) -> AnthropicConfig {
        AnthropicConfig {
            fault,
            ..AnthropicConfig::default()
        }
    }

    /// The same server forwarding to `upstream` (none: answering on its own).
    pub fn with_upstream(self, upstream: Option<url::Url>) -> AnthropicConfig {
        AnthropicConfig { upstream, ..self }
    }

    /// The served model named `id`.
    pub fn served(&self, id: &str) -> Option<Model> {
        self.models.iter().copied().find(|m| m.id == id)
    }

    pub(crate) fn faulted(&self, fault: AnthropicFault) -> bool {
        self.fault == Some(fault)
    }
}

/// The API base URL of a running server (`http://127.0.0.1:PORT/v1`).
pub fn base_url(running: &RunningReference) -> String {
    format!("{}{BASE_PATH}", running.base_url())
}

/// The media base URL for `--media-base-url` (`http://127.0.0.1:PORT/media`).
pub fn media_base_url(running: &RunningReference) -> String {
    format!("{}{MEDIA_PATH}", running.base_url())
}

/// Bind (use 127.0.0.1:0 for an ephemeral port) and serve in a tokio task until shutdown.
pub async fn spawn(config: AnthropicConfig, addr: SocketAddr) -> std::io::Result<RunningReference> {
    super::serve(router(config), addr).await
}
