//! An embedded, strict OpenAI-compatible Chat Completions server (the wire
//! llm-provider 0015 maps content blocks onto), plus single-fault variants.
//!
//! Used by `mmconform run --profile openai --target reference`, by
//! `serve-reference --profile openai`, by the test-suite and by calibration. Base path
//! `/v1`: `GET /v1/models` lists [`MODELS`] (a text-only model and one that takes
//! images, audio and files), `POST /v1/chat/completions` answers a `chat.completion`
//! or a chunk stream whose text says what the model saw (`completion.rs`,
//! `stream.rs`).
//!
//! Where things live: `request.rs` checks the body from the top, `part.rs` one
//! content part (`data_url.rs` decodes and sniffs inline bytes), `seen.rs` describes
//! an accepted part; `refusal.rs` says why a request is refused and `api_error.rs`
//! renders the OpenAI error envelope; `routes.rs` wires HTTP (bearer auth, body cap).
//! It never fetches a URL. Its only outbound request is the forwarding mode: with an
//! upstream configured ([`OpenaiConfig::upstream`]) an accepted request goes on to
//! `{upstream}/chat/completions`, as a gateway would send it (`forward.rs`). Each
//! [`OpenaiFault`] breaks exactly one requirement (`fault.rs`).

mod api_error;
mod completion;
pub(crate) mod data_url;
mod fault;
mod forward;
mod models;
mod part;
mod refusal;
mod request;
mod responses;
mod routes;
mod seen;
mod stream;

#[cfg(test)]
mod fault_tests;
#[cfg(test)]
mod forward_tests;
#[cfg(test)]
mod server_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod validation_tests;

use super::RunningReference;
use crate::upstream::UpstreamWire;
use std::net::SocketAddr;

pub use api_error::{
    AUDIO_NOT_SUPPORTED, IMAGE_NOT_SUPPORTED, UNSUPPORTED_BLOCK, UNSUPPORTED_IMAGE_TYPE,
    VIDEO_NOT_SUPPORTED,
};
pub use fault::{Doors, OpenaiFault, RESPONSES_DOOR, UnknownOpenaiFault};
pub use models::{IMAGE_MIMES, MODELS, MULTIMODAL_MODEL, Model, TEXT_MODEL};
pub use part::{AUDIO_FORMATS, DETAILS, REFERENCE_FILE_ID, REFERENCE_IMAGE_ID};
pub use routes::router;

/// The API base path: `--target` for the server is `http://127.0.0.1:PORT/v1`.
pub const BASE_PATH: &str = "/v1";
/// Where it serves the media files an http(s) URL part may name.
pub const MEDIA_PATH: &str = "/media";

/// How the reference server behaves: the models it serves, its token and body cap, an
/// optional upstream to forward to, and at most one deliberate fault.
#[derive(Debug, Clone)]
pub struct OpenaiConfig {
    /// The models `/models` lists and requests may name (default: both).
    pub models: Vec<Model>,
    /// When set, every route requires `Authorization: Bearer <token>` (401
    /// `invalid_api_key` otherwise).
    pub token: Option<String>,
    /// The request body cap (413 `request_too_large` above it); 64 MiB when unset.
    pub max_request_body_bytes: Option<u64>,
    pub fault: Option<OpenaiFault>,
    /// An OpenAI-compatible base URL (`http://127.0.0.1:4010/v1`): when set, every
    /// accepted request is forwarded to `{upstream}/chat/completions` and the
    /// upstream's answer relayed (docs/wire.md, "Forwarding to a model").
    pub upstream: Option<url::Url>,
    /// The wire the upstream is called in: Chat Completions unless set; Responses makes
    /// the server a gateway that translates Chat into Responses (`forward.rs`).
    pub upstream_wire: UpstreamWire,
}

impl Default for OpenaiConfig {
    fn default() -> Self {
        OpenaiConfig {
            models: MODELS.to_vec(),
            token: None,
            max_request_body_bytes: None,
            fault: None,
            upstream: None,
            upstream_wire: UpstreamWire::Chat,
        }
    }
}

impl OpenaiConfig {
    /// The server with `fault` (none: faithful), serving both models.
    pub fn new(fault: Option<OpenaiFault>) -> OpenaiConfig {
        OpenaiConfig {
            fault,
            ..OpenaiConfig::default()
        }
    }

    /// Serving only the models named in `ids` (all when empty); an unknown name is an
    /// error naming the known ones.
    pub fn with_models(self, ids: &[String]) -> Result<OpenaiConfig, String> {
        Ok(OpenaiConfig {
            models: models::select(ids)?,
            ..self
        })
    }

    /// The same server forwarding to `upstream` (none: answering on its own).
    pub fn with_upstream(self, upstream: Option<url::Url>) -> OpenaiConfig {
        OpenaiConfig { upstream, ..self }
    }

    /// The same server calling its upstream in `upstream_wire`.
    pub fn with_upstream_wire(self, upstream_wire: UpstreamWire) -> OpenaiConfig {
        OpenaiConfig {
            upstream_wire,
            ..self
        }
    }

    /// The served model named `id`.
    pub fn served(&self, id: &str) -> Option<Model> {
        self.models.iter().copied().find(|m| m.id == id)
    }

    pub(crate) fn faulted(&self, fault: OpenaiFault) -> bool {
        self.fault == Some(fault)
    }
}

/// The API base URL of a running server (`http://127.0.0.1:PORT/v1`).
pub fn base_url(running: &RunningReference) -> String {
    format!("{}{BASE_PATH}", running.base_url())
}

/// The media base URL for `--media-base-url` (`http://127.0.0.1:PORT/media`): url
/// parts built from it name real, stamped files (`image.png`, `audio.wav`, ...).
pub fn media_base_url(running: &RunningReference) -> String {
    format!("{}{MEDIA_PATH}", running.base_url())
}

/// Bind (use 127.0.0.1:0 for an ephemeral port) and serve in a tokio task until shutdown.
pub async fn spawn(config: OpenaiConfig, addr: SocketAddr) -> std::io::Result<RunningReference> {
    super::serve(router(config), addr).await
}
