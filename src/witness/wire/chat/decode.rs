//! Decoding OpenAI Chat Completions messages (docs/wire.md and WIRE.md §3): string
//! content, and the parts `text`, `image_url {url, detail?}`, `input_audio {data,
//! format}` and `file {file_data, filename} | {file_id}`.

use crate::wire::chat::{DETAILS, form, format_mime};
use crate::witness::decode::{Collector, check_role, needs_text};
use crate::witness::part::{self, MAX_NAME, cut};
use crate::witness::record::{Part, PartKind, Problem, ProblemCode, SourceKind};
use serde_json::Value;

pub fn decode(messages: &[Value], c: &mut Collector) {
    for (index, message) in messages.iter().enumerate() {
        let (role, at) = c.open_message(index, message);
        match message.get("content") {
            None | Some(Value::Null) => {
                // An assistant turn that only calls tools has no content.
                if needs_text(role) || role == "tool" {
                    c.problem(Problem::new(
                        ProblemCode::MissingContent,
                        format!("{at}: a `{role}` message without content"),
                    ));
                }
            }
            Some(Value::String(text)) => {
                let mut part = Part::new(Some(index), role, 0, at);
                part.kind = PartKind::Text;
                part.wire_form = form::STRING.into();
                part::text(&mut part, text, &mut c.budget);
                if text.is_empty() && needs_text(role) {
                    let message = format!("{}: empty string content", part.at);
                    part.problem(ProblemCode::EmptyText, message);
                }
                c.part(part);
            }
            Some(Value::Array(parts)) => {
                if parts.is_empty() {
                    c.problem(Problem::new(
                        ProblemCode::EmptyContent,
                        format!("{at}: an empty content list"),
                    ));
                }
                for (position, value) in parts.iter().enumerate() {
                    let part = Part::new(Some(index), role, position, format!("{at}/{position}"));
                    let part = decode_part(part, value, &mut c.budget);
                    c.part(part);
                }
            }
            Some(_) => c.problem(Problem::new(
                ProblemCode::BadShape,
                format!("{at}: content is neither a string nor a list"),
            )),
        }
    }
}

/// One content part, whatever its type.
fn decode_part(mut part: Part, value: &Value, budget: &mut part::TextBudget) -> Part {
    let kind = value.get("type").and_then(Value::as_str);
    match kind {
        Some(form::TEXT) => text(&mut part, value, budget),
        Some(form::IMAGE) => image_url(&mut part, value),
        Some(form::AUDIO) => input_audio(&mut part, value),
        Some(form::FILE) => file(&mut part, value),
        other => unknown(&mut part, other),
    }
    check_role(&mut part);
    part
}

fn text(part: &mut Part, value: &Value, budget: &mut part::TextBudget) {
    let words = [
        "an empty text block",
        "a text part whose `text` is not a string",
    ];
    part::text_member(part, value, form::TEXT, budget, words);
}

fn image_url(part: &mut Part, value: &Value) {
    part.kind = PartKind::Image;
    part.wire_form = form::IMAGE.into();
    let (url, detail) = match value.get("image_url") {
        Some(Value::Object(image)) => (image.get("url"), image.get("detail")),
        // Some clients send the URL itself; the wire wants `{url}`.
        Some(url @ Value::String(_)) => {
            let message = format!("{}: image_url is a string, not {{url}}", part.at);
            part.problem(ProblemCode::BadPart, message);
            (Some(url), None)
        }
        _ => (None, None),
    };
    let Some(url) = url.and_then(Value::as_str) else {
        let message = format!("{}: image_url without a `url` string", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    part::data_url(part, url);
    if let Some(detail) = detail {
        read_detail(part, detail);
    }
    part::check_declared_media(part);
}

/// 0015 §8.1.1: `detail` is on the wire only when it was set, and then one of
/// low/high/auto; a `null` is a detail that was not set but sent anyway.
fn read_detail(part: &mut Part, detail: &Value) {
    part::detail(part, detail, |detail, shown| match detail {
        Value::String(s) if DETAILS.contains(&s.as_str()) => None,
        Value::Null => Some("detail is null (leave it out when it is not set)".into()),
        _ => Some(format!("detail {shown} is not low, high or auto")),
    });
}

fn input_audio(part: &mut Part, value: &Value) {
    part.wire_form = form::AUDIO.into();
    read_input_audio(part, value);
}

/// `input_audio {data, format}` (bare base64, the format naming the bytes): the same
/// fields on Chat Completions and Responses, so both decoders use this.
pub fn read_input_audio(part: &mut Part, value: &Value) {
    part.kind = PartKind::Audio;
    let audio = value.get("input_audio");
    let data = audio.and_then(|a| a.get("data")).and_then(Value::as_str);
    let format = audio.and_then(|a| a.get("format")).and_then(Value::as_str);
    let Some(data) = data else {
        let message = format!("{}: input_audio without a `data` string", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    if crate::wire::data_url::parse(data).is_some() {
        let message = format!(
            "{}: input_audio.data is a data URL; the wire wants bare base64",
            part.at
        );
        part.problem(ProblemCode::BadUrl, message);
        part::data_url(part, data);
    } else {
        part::inline_base64(part, data, None);
    }
    part.mime = format.map(|f| cut(f, MAX_NAME));
    check_format(part, format);
    part::check_media(part, None);
}

/// `input_audio.format` must name what the bytes are.
fn check_format(part: &mut Part, format: Option<&str>) {
    let Some(format) = format else {
        let message = format!("{}: input_audio without a `format`", part.at);
        return part.problem(ProblemCode::BadPart, message);
    };
    let Some(sniffed) = part.sniffed.clone() else {
        return;
    };
    if format_mime(format) != Some(sniffed.as_str()) {
        let message = format!(
            "{}: input_audio.format {format:?}, the bytes are {sniffed}",
            part.at
        );
        part.problem(ProblemCode::AudioFormatMismatch, message);
    }
}

fn file(part: &mut Part, value: &Value) {
    part.kind = PartKind::Document;
    part.wire_form = form::FILE.into();
    let file = value.get("file");
    let field = |name: &str| file.and_then(|f| f.get(name)).and_then(Value::as_str);
    part.filename = field("filename").map(|f| cut(f, MAX_NAME));
    let given: Vec<&str> = ["file_data", "file_id"]
        .into_iter()
        .filter(|name| field(name).is_some())
        .collect();
    part::one_source(part, &given);
    if let Some(data) = field("file_data") {
        part::file_data(
            part,
            data,
            "file_data is bare base64; the wire wants a data URL",
        );
    } else if let Some(id) = field("file_id") {
        part::file_id(part, id);
    }
    let missing: Vec<&str> = [
        ("file_data", part.source != Some(SourceKind::Data)),
        ("filename", part.filename.is_none()),
    ]
    .iter()
    .filter(|(_, missing)| *missing)
    .map(|(name, _)| *name)
    .collect();
    if !missing.is_empty() {
        let message = format!("{}: file without {}", part.at, missing.join(" and "));
        part.problem(ProblemCode::FileIncomplete, message);
    }
}

/// A type this decoder does not know: recorded with its `type`, never guessed.
fn unknown(part: &mut Part, kind: Option<&str>) {
    // A refusal is the one other part the wire defines (assistant messages).
    if kind == Some(form::REFUSAL) && part.role == "assistant" {
        part.kind = PartKind::Unknown;
        part.wire_form = form::REFUSAL.into();
        return;
    }
    part::unknown_type(part, kind, ["part type", "a Chat Completions content part"]);
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
