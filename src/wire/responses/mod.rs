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

/// The wire forms the witness records for this wire's parts.
pub mod form {
    pub const TEXT: &str = "responses.input_text";
    pub const IMAGE: &str = "responses.input_image";
    pub const FILE: &str = "responses.input_file";
    pub const AUDIO: &str = "responses.input_audio";
    pub const OUTPUT_TEXT: &str = "responses.output_text";
    pub const INSTRUCTIONS: &str = "responses.instructions";
}

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
    "response.completed",
];

/// `{type: input_text, text}`.
pub fn input_text(text: &str) -> Value {
    json!({"type": "input_text", "text": text})
}

/// `{type: input_image, image_url, detail?}`: `url` a data URL or an http(s) URL.
pub fn input_image(url: &str, detail: Option<&str>) -> Value {
    let mut part = json!({"type": "input_image", "image_url": url});
    if let Some(detail) = detail {
        part["detail"] = json!(detail);
    }
    part
}

/// `{type: input_file, file_data: <data URL>, filename}`.
pub fn input_file(data_url: &str, filename: &str) -> Value {
    json!({"type": "input_file", "file_data": data_url, "filename": filename})
}

/// `{type: input_audio, input_audio: {data: <base64>, format}}`.
pub fn input_audio(base64: &str, format: &str) -> Value {
    json!({"type": "input_audio", "input_audio": {"data": base64, "format": format}})
}

/// A user message item holding `content`.
pub fn user_message(content: Vec<Value>) -> Value {
    json!({"type": "message", "role": "user", "content": content})
}
