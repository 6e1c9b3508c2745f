//! The Responses door of the reference server (`POST /v1/responses`): a gateway that
//! serves Chat Completions and Responses over the same models. `input.rs` checks what
//! only Responses has and translates the body into Chat, which the rest of the server
//! validates, answers or forwards as for its Chat door; `answer.rs` gives the answer
//! back as a `response` object or `response.*` events.

pub mod answer;
pub mod input;

use axum::Json;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::OpenaiConfig;
use super::completion::Answer;
use super::request::ChatRequest;

/// Where the door is under the API base.
pub const PATH: &str = "/responses";

/// `answer` as a `response` object, or as `response.*` events when the request asked.
pub fn respond(config: &OpenaiConfig, request: &ChatRequest, answer: &Answer) -> Response {
    if !request.stream {
        return Json(answer::to_json(answer)).into_response();
    }
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        answer::sse_body(&answer::events(answer), config.fault),
    )
        .into_response()
}
