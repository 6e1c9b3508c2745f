//! The Anthropic Messages wire (`POST {base}/messages`; Anthropic API reference,
//! Messages and Streaming Messages, the Vision and PDF support guides): a top-level
//! `system`, `messages[]` of `{role, content}`, `content` a string or blocks `text`,
//! `image` and `document` with a `source` of `base64 {media_type, data}`, `url {url}`,
//! `text {media_type, data}` (documents), `file {file_id}` or `content` (documents);
//! calls carry `anthropic-version` and `max_tokens`. A stream is named events from
//! `message_start` to `message_stop` ([`EVENTS`]); errors are `error.rs`'s envelope.
//!
//! The names below, and the block builders, are what both directions use: the
//! `anthropic` profile writes them (`protocol::anthropic::part`) and the witness reads
//! them (`witness/wire/anthropic/`).

pub mod error;

use serde_json::{Map, Value, json};

/// The request path, under `{base}` (`/v1` or nothing).
pub const PATH: &str = "/messages";

/// The `anthropic-version` header, and the version the reference documents.
pub const VERSION_HEADER: &str = "anthropic-version";
pub const API_VERSION: &str = "2023-06-01";

/// The header a token travels in.
pub const API_KEY_HEADER: &str = "x-api-key";

/// The block types that carry media.
pub const IMAGE: &str = "image";
pub const DOCUMENT: &str = "document";
pub const TEXT: &str = "text";

/// Blocks the wire defines that carry no media (`tool_reference`: a tool search's
/// result naming a deferred tool it loaded).
pub const OTHER_BLOCKS: [&str; 9] = [
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "server_tool_use",
    "web_search_tool_result",
    "search_result",
    "container_upload",
    "tool_reference",
];

/// The `source.type` values.
pub mod source {
    pub const BASE64: &str = "base64";
    pub const URL: &str = "url";
    /// Documents only: the text itself, `media_type: text/plain`.
    pub const TEXT: &str = "text";
    pub const FILE: &str = "file";
    /// Documents only: content blocks.
    pub const CONTENT: &str = "content";
}

/// The wire forms the witness records: `anthropic.` and the block type (a string
/// `content` is recorded as `string`).
pub mod form {
    pub const TEXT: &str = "anthropic.text";
    pub const IMAGE: &str = "anthropic.image";
    pub const DOCUMENT: &str = "anthropic.document";
    pub const TOOL_RESULT: &str = "anthropic.tool_result";

    /// The form of any other block the wire defines.
    pub fn of(block_type: &str) -> String {
        format!("anthropic.{block_type}")
    }
}

/// The stream's event names (`ping` may come anywhere; an `error` event ends a
/// stream that failed).
pub mod event {
    pub const MESSAGE_START: &str = "message_start";
    pub const CONTENT_BLOCK_START: &str = "content_block_start";
    pub const CONTENT_BLOCK_DELTA: &str = "content_block_delta";
    pub const CONTENT_BLOCK_STOP: &str = "content_block_stop";
    pub const MESSAGE_DELTA: &str = "message_delta";
    pub const MESSAGE_STOP: &str = "message_stop";
    pub const PING: &str = "ping";
    pub const ERROR: &str = "error";
}

/// The events of a message with one content block, in the order they stream
/// (`content_block_*` repeat per block).
pub const EVENTS: [&str; 6] = [
    event::MESSAGE_START,
    event::CONTENT_BLOCK_START,
    event::CONTENT_BLOCK_DELTA,
    event::CONTENT_BLOCK_STOP,
    event::MESSAGE_DELTA,
    event::MESSAGE_STOP,
];

/// `{type, source}` with the source's members in wire order, any left out that are `None`.
pub fn block(block_type: &str, source: Option<Map<String, Value>>) -> Value {
    let mut block = Map::new();
    block.insert("type".into(), json!(block_type));
    if let Some(source) = source {
        block.insert("source".into(), Value::Object(source));
    }
    Value::Object(block)
}

/// `{type: base64, media_type?, data}`.
pub fn base64_source(media_type: Option<&str>, data: &str) -> Map<String, Value> {
    let mut source = Map::new();
    source.insert("type".into(), json!(source::BASE64));
    if let Some(media_type) = media_type {
        source.insert("media_type".into(), json!(media_type));
    }
    source.insert("data".into(), json!(data));
    source
}

/// `{type: url, url}`.
pub fn url_source(url: &str) -> Map<String, Value> {
    let mut source = Map::new();
    source.insert("type".into(), json!(source::URL));
    source.insert("url".into(), json!(url));
    source
}

/// `{type: text, media_type: text/plain, data: <the text>}` (a plain-text document).
pub fn text_source(text: &str) -> Map<String, Value> {
    let mut source = Map::new();
    source.insert("type".into(), json!(source::TEXT));
    source.insert("media_type".into(), json!("text/plain"));
    source.insert("data".into(), json!(text));
    source
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_built_in_the_wire_spelling() {
        assert_eq!(
            block(IMAGE, Some(base64_source(Some("image/png"), "AAAA"))),
            json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}})
        );
        assert_eq!(
            block(DOCUMENT, Some(text_source("hi")))["source"],
            json!({"type": "text", "media_type": "text/plain", "data": "hi"})
        );
        assert_eq!(
            block(IMAGE, Some(url_source("https://x/a.png")))["source"]["type"],
            "url"
        );
        assert_eq!(block(IMAGE, None), json!({"type": "image"}));
        assert_eq!(form::of(DOCUMENT), form::DOCUMENT);
        assert_eq!(form::of(IMAGE), form::IMAGE);
        assert_eq!(form::of(TEXT), form::TEXT);
        assert_eq!(form::of("tool_result"), form::TOOL_RESULT);
    }
}
