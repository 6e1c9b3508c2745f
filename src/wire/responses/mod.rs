//! The OpenAI Responses wire (`POST {base}/responses`), as the OpenAI API reference
//! ("Responses", "Create a model response") and the openai SDKs' generated types define
//! it: `instructions`, and `input` as a string or a list of items; message items
//! (`type: "message"` or no type) with `role` and `content` as a string or parts
//! `input_text {text}`, `input_image {image_url | file_id, detail}`, `input_file
//! {file_data | file_id | file_url, filename}`, `input_audio {input_audio: {data,
//! format}}`; other items (`function_call`, `function_call_output`, `reasoning`, ...)
//! beside them. Streams are SSE `response.*` events.
//!
//! The names below, and the part encoders, are what both directions use: the witness
//! reads them (`witness/wire/responses/`) and a sender writes them.

use serde_json::{Value, json};

/// The request paths, under `{base}` (`/v1` or nothing).
pub const PATH: &str = "/responses";

/// Where the API reference defines what these rules check.
pub const SOURCE: &str = "OpenAI API reference, Responses (input items)";

/// The `detail` values an `input_image` may carry.
pub const DETAILS: [&str; 4] = ["low", "high", "auto", "original"];

/// The part types of a message's `content`.
pub mod part {
    pub const INPUT_TEXT: &str = "input_text";
    pub const INPUT_IMAGE: &str = "input_image";
    pub const INPUT_FILE: &str = "input_file";
    pub const INPUT_AUDIO: &str = "input_audio";
    /// Assistant messages only, as `refusal`.
    pub const OUTPUT_TEXT: &str = "output_text";
    pub const REFUSAL: &str = "refusal";
}

/// The wire forms the witness records for this wire's parts.
pub mod form {
    pub const TEXT: &str = "responses.input_text";
    pub const IMAGE: &str = "responses.input_image";
    pub const FILE: &str = "responses.input_file";
    pub const AUDIO: &str = "responses.input_audio";
    pub const OUTPUT_TEXT: &str = "responses.output_text";
    pub const INSTRUCTIONS: &str = "responses.instructions";
}

/// The event that ends a stream that succeeded, and the one that ends one that failed.
pub const COMPLETED: &str = "response.completed";
pub const FAILED: &str = "response.failed";

/// The stream's events, in the order the witness sends them.
pub const EVENTS: [&str; 9] = [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
    COMPLETED,
];

#[cfg(test)]
/// `{type: input_text, text}`.
pub fn input_text(text: &str) -> Value {
    json!({"type": part::INPUT_TEXT, "text": text})
}

/// Where an `input_image` or `input_file` takes its bytes from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A data URL (`image_url`, `file_data`).
    Data(&'a str),
    /// An http(s) URL (`image_url`, `file_url`).
    Url(&'a str),
    /// An uploaded file (`file_id`).
    FileId(&'a str),
}

/// `{type: input_image, image_url | file_id, detail?}`.
pub fn input_image(source: Source, detail: Option<&str>) -> Value {
    let mut part = match source {
        Source::Data(url) | Source::Url(url) => {
            json!({"type": part::INPUT_IMAGE, "image_url": url})
        }
        Source::FileId(id) => json!({"type": part::INPUT_IMAGE, "file_id": id}),
    };
    if let Some(detail) = detail {
        part["detail"] = json!(detail);
    }
    part
}

/// `{type: input_file, file_data | file_url | file_id, filename?}`.
pub fn input_file(source: Source, filename: Option<&str>) -> Value {
    let mut part = match source {
        Source::Data(url) => json!({"type": part::INPUT_FILE, "file_data": url}),
        Source::Url(url) => json!({"type": part::INPUT_FILE, "file_url": url}),
        Source::FileId(id) => json!({"type": part::INPUT_FILE, "file_id": id}),
    };
    if let Some(filename) = filename {
        part["filename"] = json!(filename);
    }
    part
}

/// `{type: input_audio, input_audio: {data: <base64>, format?}}`: Chat's part.
pub use super::chat::input_audio;

#[cfg(test)]
/// A user message item holding `content`.
pub fn user_message(content: Vec<Value>) -> Value {
    json!({"type": "message", "role": "user", "content": content})
}
