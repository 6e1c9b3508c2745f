//! A Gemini request body to the parts of a call: `systemInstruction`, then each of
//! `contents`. A `:countTokens` body may hold its contents inside
//! `generateContentRequest`; it is read the same way. Every field is looked up in both
//! spellings (`inlineData` / `inline_data`), and `data` is read as the proto3 JSON
//! mapping reads `bytes`: standard or URL-safe base64, padded or not.
//!
//! A `functionResponse` is where a host hands its model a tool's result, so what it
//! holds is decoded too, after the part itself: its `response` as one text part (the
//! tool's words, as the model reads them), and the media of its `parts` (Gemini 3's
//! multimodal function responses: `inlineData` / `fileData` inside the response).

use crate::wire::gemini::{OTHER_FIELDS, form};
use crate::witness::decode::Collector;
use crate::witness::part::{self, MAX_NAME, MAX_URL, TextBudget, cut};
use crate::witness::record::{Part, PartKind, Problem, ProblemCode, SourceKind};
use serde_json::{Map, Value};

/// `object[camel]`, else `object[snake]`.
fn field<'a>(object: &'a Map<String, Value>, camel: &str, snake: &str) -> Option<&'a Value> {
    object.get(camel).or_else(|| object.get(snake))
}

/// Decodes `body` into `c`; Err (the call is refused) when it has no `contents` list.
pub fn decode(body: &Map<String, Value>, c: &mut Collector) -> Result<(), String> {
    let inner = field(body, "generateContentRequest", "generate_content_request")
        .and_then(Value::as_object);
    let body = match inner {
        Some(inner) if !body.contains_key("contents") => inner,
        _ => body,
    };
    match field(body, "systemInstruction", "system_instruction") {
        None | Some(Value::Null) => {}
        Some(Value::Object(content)) => match content.get("parts") {
            Some(Value::Array(parts)) => {
                decode_parts(c, None, "system", "/systemInstruction/parts", parts)
            }
            _ => c.problem(Problem::new(
                ProblemCode::BadShape,
                "/systemInstruction: a Content without a `parts` list",
            )),
        },
        // Some clients send the instruction as a bare string; recorded, not refused.
        Some(Value::String(text)) => {
            let mut part = Part::new(None, "system", 0, "/systemInstruction".into());
            part.kind = PartKind::Text;
            part.wire_form = form::SYSTEM.into();
            part::text(&mut part, text, &mut c.budget);
            c.part(part);
        }
        Some(_) => c.problem(Problem::new(
            ProblemCode::BadShape,
            "/systemInstruction: neither a Content nor a string",
        )),
    }
    let Some(contents) = body.get("contents").and_then(Value::as_array) else {
        return Err("the body has no `contents` list".into());
    };
    if contents.is_empty() {
        c.problem(Problem::new(
            ProblemCode::EmptyMessages,
            "`contents` is an empty list",
        ));
    }
    for (index, content) in contents.iter().enumerate() {
        // A single-turn request may leave the role out; the API takes it as the user's.
        let role = content
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("user");
        c.message(role);
        let at = format!("/contents/{index}/parts");
        match content.get("parts") {
            Some(Value::Array(parts)) => {
                if parts.is_empty() {
                    c.problem(Problem::new(
                        ProblemCode::EmptyContent,
                        format!("{at}: an empty parts list"),
                    ));
                }
                decode_parts(c, Some(index), role, &at, parts);
            }
            None | Some(Value::Null) => c.problem(Problem::new(
                ProblemCode::MissingContent,
                format!("/contents/{index}: a `{role}` content without parts"),
            )),
            Some(_) => c.problem(Problem::new(
                ProblemCode::BadShape,
                format!("{at}: parts is not a list"),
            )),
        }
    }
    Ok(())
}

fn decode_parts(c: &mut Collector, message: Option<usize>, role: &str, at: &str, parts: &[Value]) {
    for (position, value) in parts.iter().enumerate() {
        let mut part = Part::new(message, role, position, format!("{at}/{position}"));
        decode_value(&mut part, value, &mut c.budget);
        let at = part.at.clone();
        c.part(part);
        let response = value
            .as_object()
            .and_then(|o| field(o, "functionResponse", "function_response"))
            .and_then(Value::as_object);
        if let Some(response) = response {
            function_response(c, message, role, &at, response);
        }
    }
}

/// What a `functionResponse` at `at` hands the model: its `response` as text (the
/// `output` string when that is all it holds, else its JSON), then its `parts`.
fn function_response(
    c: &mut Collector,
    message: Option<usize>,
    role: &str,
    at: &str,
    response: &Map<String, Value>,
) {
    let words = match response.get("response") {
        Some(Value::Object(fields)) if fields.is_empty() => None,
        Some(Value::Object(fields)) if fields.len() == 1 => match fields.get("output") {
            Some(Value::String(output)) => Some(output.clone()),
            _ => Some(Value::Object(fields.clone()).to_string()),
        },
        None | Some(Value::Null) => None,
        Some(other) => Some(other.to_string()),
    };
    if let Some(words) = words {
        let mut part = Part::new(message, role, 0, format!("{at}/functionResponse/response"));
        part.kind = PartKind::Text;
        part.wire_form = form::FUNCTION_RESPONSE_TEXT.into();
        part::text(&mut part, &words, &mut c.budget);
        c.part(part);
    }
    if let Some(Value::Array(parts)) = response.get("parts") {
        let inner = format!("{at}/functionResponse/parts");
        for (position, value) in parts.iter().enumerate() {
            let mut part = Part::new(message, role, position, format!("{inner}/{position}"));
            decode_value(&mut part, value, &mut c.budget);
            c.part(part);
        }
    }
}

/// One element of a parts list: a part, or a problem when it is not an object.
fn decode_value(part: &mut Part, value: &Value, budget: &mut TextBudget) {
    match value.as_object() {
        Some(object) => decode_part(part, object, budget),
        None => {
            part.wire_form = "(not an object)".into();
            let message = format!("{}: a part that is not an object", part.at);
            part.problem(ProblemCode::BadPart, message);
        }
    }
}

/// One part, by the data field it holds.
fn decode_part(part: &mut Part, object: &Map<String, Value>, budget: &mut TextBudget) {
    if let Some(value) = object.get("text") {
        return text(part, value, budget);
    }
    if let Some(blob) = field(object, "inlineData", "inline_data") {
        return inline_data(part, blob);
    }
    if let Some(file) = field(object, "fileData", "file_data") {
        return file_data(part, file);
    }
    if let Some(name) = OTHER_FIELDS.iter().find(|f| object.contains_key(**f)) {
        part.wire_form = format!("gemini.{}", snake(name));
        return;
    }
    let keys: Vec<&str> = object.keys().map(String::as_str).take(4).collect();
    part.wire_form = "gemini.(unknown)".into();
    let message = format!(
        "{}: a part with none of text, inlineData, fileData (fields: {})",
        part.at,
        cut(&keys.join(", "), 128)
    );
    part.problem(ProblemCode::UnknownPartType, message);
}

/// `functionCall` -> `function_call`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars() {
        if ch.is_ascii_uppercase() {
            out.push('_');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn text(part: &mut Part, value: &Value, budget: &mut TextBudget) {
    part.kind = PartKind::Text;
    part.wire_form = form::TEXT.into();
    match value {
        Value::String(text) => part::text(part, text, budget),
        _ => {
            let message = format!("{}: a text part whose `text` is not a string", part.at);
            part.problem(ProblemCode::BadPart, message);
        }
    }
}

/// The kind the declared MIME type names: images, audio, and documents (PDF, text);
/// anything else (video) is kept as an unknown kind with its bytes decoded.
fn kind_of(mime: Option<&str>) -> PartKind {
    let Some(mime) = mime else {
        return PartKind::Unknown;
    };
    let mime = mmconform_media::canonical_mime(mime);
    match mime.split('/').next() {
        Some("image") => PartKind::Image,
        Some("audio") => PartKind::Audio,
        Some("text") => PartKind::Document,
        _ if mime == "application/pdf" => PartKind::Document,
        _ => PartKind::Unknown,
    }
}

/// `inlineData {mimeType, data}`: base64 bytes, typed by `mimeType`.
fn inline_data(part: &mut Part, blob: &Value) {
    part.wire_form = form::INLINE_DATA.into();
    let Some(blob) = blob.as_object() else {
        let message = format!("{}: inlineData is not an object", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    let mime = field(blob, "mimeType", "mime_type").and_then(Value::as_str);
    part.kind = kind_of(mime);
    part.filename = field(blob, "displayName", "display_name")
        .and_then(Value::as_str)
        .map(|n| cut(n, MAX_NAME));
    let Some(data) = blob.get("data").and_then(Value::as_str) else {
        let message = format!("{}: inlineData without a `data` string", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    if mime.is_none_or(|m| m.trim().is_empty()) {
        let message = format!("{}: inlineData without a mimeType", part.at);
        part.problem(ProblemCode::DataUrlWithoutMime, message);
    }
    if crate::wire::data_url::parse(data).is_some() {
        let message = format!(
            "{}: inlineData.data is a data URL; the wire wants bare base64",
            part.at
        );
        part.problem(ProblemCode::BadUrl, message);
        part::data_url(part, data);
        part.mime = mime.map(|m| cut(m, MAX_NAME));
    } else {
        part::inline_proto_base64(part, data, mime);
    }
    part::check_media(part, mime);
}

/// `fileData {mimeType, fileUri}`: a file the model fetches (uploaded with the Files
/// API, a `gs://` object, or an http(s) URL): no bytes on the wire.
fn file_data(part: &mut Part, file: &Value) {
    part.wire_form = form::FILE_DATA.into();
    let Some(file) = file.as_object() else {
        let message = format!("{}: fileData is not an object", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    let mime = field(file, "mimeType", "mime_type").and_then(Value::as_str);
    part.kind = kind_of(mime);
    part.mime = mime.map(|m| cut(m, MAX_NAME));
    part.filename = field(file, "displayName", "display_name")
        .and_then(Value::as_str)
        .map(|n| cut(n, MAX_NAME));
    let Some(uri) = field(file, "fileUri", "file_uri").and_then(Value::as_str) else {
        let message = format!("{}: fileData without a fileUri", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    let scheme = uri.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    if scheme.as_deref() == Some("gs") {
        part.source = Some(SourceKind::Url);
        part.url = Some(cut(uri, MAX_URL));
    } else {
        part::url_source(part, uri);
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
