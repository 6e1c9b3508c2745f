//! The OpenAI Chat Completions wire (`POST {base}/chat/completions`; llm-provider 0015,
//! the OpenAI API reference "Chat"): `messages[]` of `{role, content}`, `content` a
//! string or parts `text {text}`, `image_url {image_url: {url, detail?}}`,
//! `input_audio {input_audio: {data, format}}` and `file {file: {file_data, filename} |
//! {file_id}}`; a stream is `data: {chunk}` lines ending `data: [DONE]`. Its error
//! envelope (`error.rs`) is the OpenAI one, which the Responses wire shares, as it
//! shares `input_audio`.
//!
//! The names below, and the part builders, are what both directions use: the
//! `openai` profile writes them (`protocol::openai::part`) and the witness reads them
//! (`witness/wire/chat/`).

pub mod error;

use mmconform_media as media;
use serde_json::{Value, json};

/// The request path, under `{base}` (`/v1` or nothing).
pub const PATH: &str = "/chat/completions";

/// The `detail` values 0015 §3.1.2 allows.
pub const DETAILS: [&str; 3] = ["low", "high", "auto"];

/// The part types, which are also the wire forms the witness records (a string
/// `content` is recorded as [`form::STRING`]).
pub mod form {
    pub const STRING: &str = "string";
    pub const TEXT: &str = "text";
    pub const IMAGE: &str = "image_url";
    pub const AUDIO: &str = "input_audio";
    pub const FILE: &str = "file";
    /// The one other part the wire defines, in assistant messages.
    pub const REFUSAL: &str = "refusal";
}

/// The stream's last line's payload.
pub const DONE: &str = "[DONE]";
/// The `object` of a completion and of a stream chunk.
pub const COMPLETION_OBJECT: &str = "chat.completion";
pub const CHUNK_OBJECT: &str = "chat.completion.chunk";
/// A tool's `type`, and a call's.
pub const FUNCTION: &str = "function";
/// The `finish_reason` of a message that calls tools.
pub const FINISH_TOOL_CALLS: &str = "tool_calls";

/// `{type: image_url, image_url: {url, detail?}}`: `url` a data URL or an http(s) URL.
pub fn image_url(url: &str, detail: Option<&str>) -> Value {
    let mut image = json!({"url": url});
    if let Some(detail) = detail {
        image["detail"] = json!(detail);
    }
    json!({"type": form::IMAGE, "image_url": image})
}

/// `{type: image_url, image_url: <url>}`: the bare string some clients send, which
/// the wire does not define (it wants `{url}`).
pub fn bare_image_url(url: &str) -> Value {
    json!({"type": form::IMAGE, "image_url": url})
}

/// `{type: input_audio, input_audio: {data: <base64>, format?}}` (Chat and Responses).
pub fn input_audio(base64: &str, format: Option<&str>) -> Value {
    let mut audio = json!({"data": base64});
    if let Some(format) = format {
        audio["format"] = json!(format);
    }
    json!({"type": form::AUDIO, "input_audio": audio})
}

/// `{type: file, file: {file_data: <data URL>, filename?}}`.
pub fn file_data(data_url: &str, filename: Option<&str>) -> Value {
    let mut file = json!({"file_data": data_url});
    if let Some(filename) = filename {
        file["filename"] = json!(filename);
    }
    json!({"type": form::FILE, "file": file})
}

/// `{type: file, file: {file_id}}`.
pub fn file_id(id: &str) -> Value {
    json!({"type": form::FILE, "file": {"file_id": id}})
}

/// The `input_audio.format` that names a MIME type (`wav`, `mp3`, else its subtype).
pub fn audio_format(mime: &str) -> String {
    match media::mime_essence(mime).as_str() {
        "audio/mpeg" | "audio/mp3" => "mp3".into(),
        "audio/wav" | "audio/wave" | "audio/x-wav" => "wav".into(),
        other => other.rsplit('/').next().unwrap_or(other).to_string(),
    }
}

/// The MIME type an `input_audio.format` names, when its bytes can be recognised.
pub fn format_mime(format: &str) -> Option<&'static str> {
    match format.to_ascii_lowercase().as_str() {
        "wav" => Some("audio/wav"),
        "mp3" => Some("audio/mpeg"),
        "flac" => Some("audio/flac"),
        "ogg" | "opus" => Some("audio/ogg"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_built_in_the_wire_spelling() {
        assert_eq!(
            image_url("data:image/png;base64,AAAA", Some("low")),
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA", "detail": "low"}})
        );
        assert_eq!(
            bare_image_url("https://x/a.png"),
            json!({"type": "image_url", "image_url": "https://x/a.png"})
        );
        assert_eq!(
            input_audio("UklG", Some("wav")),
            json!({"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}})
        );
        assert_eq!(
            file_data("data:application/pdf;base64,JVBE", Some("a.pdf")),
            json!({"type": "file", "file": {"file_data": "data:application/pdf;base64,JVBE", "filename": "a.pdf"}})
        );
        assert_eq!(file_id("file-1")["file"], json!({"file_id": "file-1"}));
    }

    #[test]
    fn audio_formats_and_mime_types_name_each_other() {
        for mime in ["audio/wav", "audio/mpeg"] {
            assert_eq!(format_mime(&audio_format(mime)), Some(mime));
        }
        assert_eq!(audio_format("audio/x-wav"), "wav");
        assert_eq!(audio_format("audio/flac"), "flac");
        assert_eq!(format_mime("aiff"), None);
    }
}
