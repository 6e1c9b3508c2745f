//! Decoding Anthropic Messages (WIRE.md §6): the top-level `system` (string or text
//! blocks), string content, and the blocks `text`, `image` and `document` with a
//! `source` of `base64 {media_type, data}`, `url {url}`, `text {media_type, data}`
//! (documents) or `file {file_id}`. Images inside a `tool_result` are decoded too: a
//! host may hand tool output to its model that way.

use crate::wire::anthropic::{self as wire, OTHER_BLOCKS, source as source_type};
use crate::witness::decode::{Collector, check_role, needs_text};
use crate::witness::part::{self, MAX_NAME, cut};
use crate::witness::record::{Part, PartKind, Problem, ProblemCode, SourceKind};
use serde_json::{Map, Value};

pub fn decode(body: &Map<String, Value>, messages: &[Value], c: &mut Collector) {
    match body.get("system") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => {
            let part = string_part(None, "system", "/system".into(), text, c);
            c.part(part);
        }
        Some(Value::Array(blocks)) => decode_blocks(c, None, "system", "/system", blocks, true),
        Some(_) => c.problem(Problem::new(
            ProblemCode::BadShape,
            "/system: neither a string nor a list of text blocks",
        )),
    }
    for (index, message) in messages.iter().enumerate() {
        let (role, at) = c.open_message(index, message);
        match message.get("content") {
            Some(Value::String(text)) => {
                let part = string_part(Some(index), role, at, text, c);
                c.part(part);
            }
            Some(Value::Array(blocks)) => {
                if blocks.is_empty() {
                    c.problem(Problem::new(
                        ProblemCode::EmptyContent,
                        format!("{at}: an empty content list"),
                    ));
                }
                decode_blocks(c, Some(index), role, &at, blocks, true);
            }
            None | Some(Value::Null) => c.problem(Problem::new(
                ProblemCode::MissingContent,
                format!("{at}: a `{role}` message without content"),
            )),
            Some(_) => c.problem(Problem::new(
                ProblemCode::BadShape,
                format!("{at}: content is neither a string nor a list"),
            )),
        }
    }
}

fn string_part(
    message: Option<usize>,
    role: &str,
    at: String,
    text: &str,
    c: &mut Collector,
) -> Part {
    let mut part = Part::new(message, role, 0, at);
    part.kind = PartKind::Text;
    part.wire_form = "string".into();
    part::text(&mut part, text, &mut c.budget);
    if text.is_empty() && needs_text(role) {
        let message = format!("{}: empty string content", part.at);
        part.problem(ProblemCode::EmptyText, message);
    }
    part
}

/// Each block of a content list; `nested` allows one level of `tool_result` content
/// (a list of blocks, or a string).
fn decode_blocks(
    c: &mut Collector,
    message: Option<usize>,
    role: &str,
    at: &str,
    blocks: &[Value],
    nested: bool,
) {
    for (position, value) in blocks.iter().enumerate() {
        let at = format!("{at}/{position}");
        let part = decode_block(Part::new(message, role, position, at.clone()), value, c);
        let is_tool_result = part.wire_form == wire::form::TOOL_RESULT;
        c.part(part);
        if !(nested && is_tool_result) {
            continue;
        }
        match value.get("content") {
            Some(Value::Array(inner)) => {
                decode_blocks(c, message, role, &format!("{at}/content"), inner, false);
            }
            // A result given as a string is its one text (the common form for text);
            // an empty one is a result without output, not an empty text block.
            Some(Value::String(text)) if !text.is_empty() => {
                let part = string_part(message, role, format!("{at}/content"), text, c);
                c.part(part);
            }
            _ => {}
        }
    }
}

fn decode_block(mut part: Part, value: &Value, c: &mut Collector) -> Part {
    let kind = value.get("type").and_then(Value::as_str);
    match kind {
        Some(wire::TEXT) => text(&mut part, value, c),
        Some(wire::IMAGE) => {
            part.kind = PartKind::Image;
            part.wire_form = wire::form::IMAGE.into();
            source(&mut part, value, c);
        }
        Some(wire::DOCUMENT) => {
            part.kind = PartKind::Document;
            part.wire_form = wire::form::DOCUMENT.into();
            part.filename = value
                .get("title")
                .and_then(Value::as_str)
                .map(|t| cut(t, MAX_NAME));
            source(&mut part, value, c);
        }
        Some(other) if OTHER_BLOCKS.contains(&other) => {
            part.wire_form = wire::form::of(other);
        }
        other => part::unknown_type(&mut part, other, ["block type", "a Messages content block"]),
    }
    check_role(&mut part);
    part
}

fn text(part: &mut Part, value: &Value, c: &mut Collector) {
    let words = [
        "an empty text block",
        "a text block whose `text` is not a string",
    ];
    part::text_member(part, value, wire::form::TEXT, &mut c.budget, words);
}

/// A media block's `source`, by its `type`.
fn source(part: &mut Part, value: &Value, c: &mut Collector) {
    let Some(source) = value.get("source").and_then(Value::as_object) else {
        let message = format!("{}: a media block without a `source` object", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    let field = |name: &str| source.get(name).and_then(Value::as_str);
    let media_type = field("media_type");
    match field("type") {
        Some(source_type::BASE64) => {
            let Some(data) = field("data") else {
                let message = format!("{}: a base64 source without `data`", part.at);
                return part.problem(ProblemCode::BadPart, message);
            };
            if media_type.is_none() {
                let message = format!("{}: a base64 source without `media_type`", part.at);
                part.problem(ProblemCode::DataUrlWithoutMime, message);
            }
            part::inline_base64(part, data, media_type);
            part::check_media(part, media_type);
        }
        Some(source_type::URL) => match field("url") {
            Some(url) => part::url_source(part, url),
            None => {
                let message = format!("{}: a url source without `url`", part.at);
                part.problem(ProblemCode::BadPart, message);
            }
        },
        Some(source_type::TEXT) if part.kind == PartKind::Document => {
            part.mime = media_type.map(|m| cut(m, MAX_NAME));
            let data = field("data").unwrap_or_default();
            part::text_document(part, data, &mut c.budget);
        }
        Some(source_type::FILE) => part::file_id(part, field("file_id").unwrap_or_default()),
        // Documents may be given as content blocks; nothing to decode as bytes.
        Some(source_type::CONTENT) if part.kind == PartKind::Document => {
            part.source = Some(SourceKind::Text);
        }
        other => {
            let message = format!(
                "{}: source type {} is not one the wire defines for {}",
                part.at,
                other.map_or_else(|| "(none)".to_string(), |k| format!("{k:?}")),
                part.wire_form
            );
            part.problem(ProblemCode::BadPart, message);
        }
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
