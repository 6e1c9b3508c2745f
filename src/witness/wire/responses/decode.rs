//! A Responses request body to the parts of a call: `instructions`, then each `input`
//! item. Message items are decoded part by part; every other item is recorded by its
//! type (a reasoning item, a function call) and judged by no rule, except that the
//! output of a `function_call_output` or `custom_tool_call_output` (a code-mode call's)
//! is decoded too, a list part by part or a string as one text: a host hands tool
//! output, images included, to its model that way.

use crate::wire::responses::{DETAILS, form, part as part_type};
use crate::witness::decode::Collector;
use crate::witness::part::{self, MAX_NAME, TextBudget, cut};
use crate::witness::record::{Part, PartKind, Problem, ProblemCode, SourceKind};
use crate::witness::wire::chat::decode::read_input_audio;
use serde_json::{Map, Value};

/// Decodes `body` into `c`; Err (the call is refused) when it has no `input`.
pub fn decode(body: &Map<String, Value>, c: &mut Collector) -> Result<(), String> {
    if let Some(Value::String(text)) = body.get("instructions") {
        let mut part = Part::new(None, "system", 0, "/instructions".into());
        part.kind = PartKind::Text;
        part.wire_form = form::INSTRUCTIONS.into();
        part::text(&mut part, text, &mut c.budget);
        c.part(part);
    }
    match body.get("input") {
        Some(Value::String(text)) => {
            c.message("user");
            let part = string_part(Some(0), "user", "/input".into(), text, &mut c.budget);
            c.part(part);
        }
        Some(Value::Array(items)) => {
            if items.is_empty() {
                c.problem(Problem::new(
                    ProblemCode::EmptyMessages,
                    "`input` is an empty list",
                ));
            }
            for (index, item) in items.iter().enumerate() {
                decode_item(index, item, c);
            }
        }
        // A call continuing a stored response may carry no input of its own.
        None if body.contains_key("previous_response_id") => {}
        _ => return Err("the body has no `input` (a string or a list of items)".into()),
    }
    Ok(())
}

fn string_part(
    message: Option<usize>,
    role: &str,
    at: String,
    text: &str,
    budget: &mut TextBudget,
) -> Part {
    let mut part = Part::new(message, role, 0, at);
    part.kind = PartKind::Text;
    part.wire_form = "string".into();
    part::text(&mut part, text, budget);
    if text.is_empty() && role == "user" {
        let message = format!("{}: empty string content", part.at);
        part.problem(ProblemCode::EmptyText, message);
    }
    part
}

/// One `input` item: a message, or an item of another type recorded as such.
fn decode_item(index: usize, item: &Value, c: &mut Collector) {
    let at = format!("/input/{index}");
    let kind = item.get("type").and_then(Value::as_str);
    if matches!(kind, None | Some("message")) && item.get("role").is_some() {
        let role = item["role"].as_str().unwrap_or("(none)");
        c.message(role);
        return decode_content(
            index,
            role,
            &format!("{at}/content"),
            item.get("content"),
            c,
        );
    }
    let kind = kind.unwrap_or("(no type)");
    c.message(&cut(kind, 32));
    let mut part = Part::new(Some(index), kind, 0, at.clone());
    part.wire_form = format!("responses.{}", cut(kind, 64));
    c.part(part);
    if matches!(kind, "function_call_output" | "custom_tool_call_output") {
        let at = format!("{at}/output");
        match item.get("output") {
            Some(Value::Array(parts)) => decode_parts(index, "tool", &at, parts, c),
            Some(Value::String(text)) => {
                let part = string_part(Some(index), "tool", at, text, &mut c.budget);
                c.part(part);
            }
            _ => {}
        }
    }
}

fn decode_content(index: usize, role: &str, at: &str, content: Option<&Value>, c: &mut Collector) {
    match content {
        Some(Value::String(text)) => {
            let part = string_part(Some(index), role, at.to_string(), text, &mut c.budget);
            c.part(part);
        }
        Some(Value::Array(parts)) => {
            if parts.is_empty() {
                c.problem(Problem::new(
                    ProblemCode::EmptyContent,
                    format!("{at}: an empty content list"),
                ));
            }
            decode_parts(index, role, at, parts, c);
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

fn decode_parts(index: usize, role: &str, at: &str, parts: &[Value], c: &mut Collector) {
    for (position, value) in parts.iter().enumerate() {
        let part = Part::new(Some(index), role, position, format!("{at}/{position}"));
        let part = decode_part(part, value, &mut c.budget);
        c.part(part);
    }
}

/// One content part, whatever its type.
fn decode_part(mut part: Part, value: &Value, budget: &mut TextBudget) -> Part {
    match value.get("type").and_then(Value::as_str) {
        Some(part_type::INPUT_TEXT) => text(&mut part, value, form::TEXT, budget),
        Some(part_type::OUTPUT_TEXT) => text(&mut part, value, form::OUTPUT_TEXT, budget),
        Some(part_type::INPUT_IMAGE) => input_image(&mut part, value),
        Some(part_type::INPUT_FILE) => input_file(&mut part, value),
        Some(part_type::INPUT_AUDIO) => {
            part.wire_form = form::AUDIO.into();
            read_input_audio(&mut part, value);
        }
        // The one other part an assistant message may hold.
        Some(part_type::REFUSAL) if part.role == "assistant" => {
            part.wire_form = "responses.refusal".into()
        }
        other => part::unknown_type(&mut part, other, ["part type", "a Responses content part"]),
    }
    part
}

fn text(part: &mut Part, value: &Value, wire_form: &str, budget: &mut TextBudget) {
    let words = [
        "an empty text part",
        "a text part whose `text` is not a string",
    ];
    part::text_member(part, value, wire_form, budget, words);
}

/// `input_image {image_url: <data URL | URL> | file_id, detail}`.
fn input_image(part: &mut Part, value: &Value) {
    part.kind = PartKind::Image;
    part.wire_form = form::IMAGE.into();
    match (value.get("image_url"), value.get("file_id")) {
        (Some(Value::String(url)), _) => part::data_url(part, url),
        (_, Some(Value::String(id))) => part::file_id(part, id),
        // Chat's `{url}` object, where the Responses wire wants the string itself.
        (Some(Value::Object(object)), _) => {
            let message = format!("{}: image_url is an object, not a string", part.at);
            part.problem(ProblemCode::BadPart, message);
            if let Some(url) = object.get("url").and_then(Value::as_str) {
                part::data_url(part, url);
            }
        }
        _ => {
            let message = format!("{}: input_image without image_url or file_id", part.at);
            part.problem(ProblemCode::BadPart, message);
        }
    }
    if let Some(detail) = value.get("detail") {
        read_detail(part, detail);
    }
    part::check_declared_media(part);
}

/// `detail`, when present, is one of [`DETAILS`].
fn read_detail(part: &mut Part, detail: &Value) {
    part::detail(part, detail, |detail, shown| match detail {
        Value::String(s) if DETAILS.contains(&s.as_str()) => None,
        _ => Some(format!("detail {shown} is not {}", DETAILS.join(", "))),
    });
}

/// `input_file {file_data: <data URL> | file_id | file_url, filename}`.
fn input_file(part: &mut Part, value: &Value) {
    part.kind = PartKind::Document;
    part.wire_form = form::FILE.into();
    let field = |name: &str| value.get(name).and_then(Value::as_str);
    part.filename = field("filename").map(|f| cut(f, MAX_NAME));
    let given: Vec<&str> = ["file_data", "file_id", "file_url"]
        .into_iter()
        .filter(|name| field(name).is_some())
        .collect();
    part::one_source(part, &given);
    if let Some(data) = field("file_data") {
        part::file_data(
            part,
            data,
            "file_data is not a data URL (want data:<mime>;base64,...)",
        );
    } else if let Some(id) = field("file_id") {
        part::file_id(part, id);
    } else if let Some(url) = field("file_url") {
        part::url_source(part, url);
    } else {
        let message = format!(
            "{}: input_file without file_data, file_id or file_url",
            part.at
        );
        part.problem(ProblemCode::BadPart, message);
    }
    if part.source == Some(SourceKind::Data) && part.filename.is_none() {
        let message = format!("{}: input_file with file_data but no filename", part.at);
        part.problem(ProblemCode::FileIncomplete, message);
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
