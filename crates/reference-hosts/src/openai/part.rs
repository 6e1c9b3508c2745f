//! One content part of a user message, checked against the wire (llm-provider 0015's
//! OpenAI mapping) and then against what the chosen model can take.
//!
//! Shape first, capability second: a malformed part is a 400 `invalid_request_error`
//! whatever the model; a well-formed part the model cannot take is a 400 with a
//! capability code naming the part (`image_content_not_supported`, ...). Nothing is
//! fetched: an http(s) image URL is taken as given.

use serde_json::{Map, Value};

use super::OpenaiFault;
use super::api_error::{
    AUDIO_NOT_SUPPORTED, ApiError, IMAGE_NOT_SUPPORTED, UNSUPPORTED_BLOCK, UNSUPPORTED_IMAGE_TYPE,
    VIDEO_NOT_SUPPORTED,
};
use super::data_url::{self, InlineError};
use super::forward::INVENTED_FILENAME;
use super::models::{IMAGE_MIMES, Model};
use super::refusal::{Cause, Refused, invalid_value, missing, wrong_type};
use super::seen::Seen;

/// The `file_id` the server holds a file for (a stamped PDF).
pub const REFERENCE_FILE_ID: &str = "file-mmconform-reference";
/// The `file_id` the Responses door holds an image for (a stamped PNG).
pub const REFERENCE_IMAGE_ID: &str = "file-mmconform-reference-image";
/// The `detail` values of an image_url part.
pub const DETAILS: [&str; 3] = ["auto", "low", "high"];
/// The `input_audio.format` values.
pub const AUDIO_FORMATS: [&str; 2] = ["wav", "mp3"];
/// The part types of a user message.
pub const PART_TYPES: [&str; 4] = ["text", "image_url", "input_audio", "file"];
/// Video part spellings some servers take (vLLM): known, and never taken here.
const VIDEO_TYPES: [&str; 2] = ["video_url", "input_video"];

/// The part at `path` (`messages[0].content[1]`) of a user message to `model`.
/// `fault` is the server's: the faults that refuse valid parts act here.
pub fn user_part(
    model: &Model,
    part: &Value,
    path: &str,
    fault: Option<OpenaiFault>,
) -> Result<Seen, Refused> {
    let (object, part_type) = typed(part, path)?;
    match part_type {
        "text" => text(object, path),
        "image_url" => image(model, object, path, fault),
        "input_audio" => audio(model, object, path, fault),
        "file" => file(model, object, path, fault),
        video if VIDEO_TYPES.contains(&video) => {
            Err(refuse(model, path, "video", VIDEO_NOT_SUPPORTED))
        }
        other => Err(unknown_type(path, other)),
    }
}

/// The part at `path` of a system, developer, assistant or tool message: text only
/// (0015 keeps media to user messages); an assistant may also carry a `refusal`.
pub fn text_only_part(role: &str, part: &Value, path: &str) -> Result<Seen, Refused> {
    let (object, part_type) = typed(part, path)?;
    match part_type {
        "text" => text(object, path),
        "refusal" if role == "assistant" => match object.get("refusal") {
            Some(Value::String(_)) => Ok(Seen::refusal()),
            Some(other) => Err(wrong_type(&format!("{path}.refusal"), "a string", other)),
            None => Err(missing(&format!("{path}.refusal"))),
        },
        media if PART_TYPES.contains(&media) || VIDEO_TYPES.contains(&media) => Err(invalid_value(
            path,
            format!(
                "Invalid content part in '{path}': a {role} message may only carry text, not {media}."
            ),
        )),
        other => Err(unknown_type(path, other)),
    }
}

/// The part as an object and its `type`.
fn typed<'a>(part: &'a Value, path: &str) -> Result<(&'a Map<String, Value>, &'a str), Refused> {
    let object = part
        .as_object()
        .ok_or_else(|| wrong_type(path, "an object", part))?;
    match object.get("type") {
        Some(Value::String(t)) => Ok((object, t)),
        Some(other) => Err(wrong_type(&format!("{path}.type"), "a string", other)),
        None => Err(missing(&format!("{path}.type"))),
    }
}

fn unknown_type(path: &str, part_type: &str) -> Refused {
    let mut refused = invalid_value(
        &format!("{path}.type"),
        format!(
            "Invalid value: '{part_type}'. Supported values are: 'text', 'image_url', 'input_audio', and 'file'."
        ),
    );
    refused.cause = Cause::UnknownPartType;
    refused
}

/// A capability refusal: `model` cannot take the `kind` part at `path`.
fn refuse(model: &Model, path: &str, kind: &'static str, code: &'static str) -> Refused {
    let noun = if kind == "file" { "file" } else { kind };
    Refused::new(
        ApiError::invalid(
            path,
            code,
            format!(
                "The model `{}` does not support {noun} input ({path}).",
                model.id
            ),
        ),
        Cause::Capability(kind),
    )
}

/// The field `key` of `object` as a string.
fn string<'a>(object: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a str, Refused> {
    let at = format!("{path}.{key}");
    match object.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(wrong_type(&at, "a string", other)),
        None => Err(missing(&at)),
    }
}

/// The field `key` of `object` as an object.
fn object<'a>(
    parent: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'a Map<String, Value>, Refused> {
    let at = format!("{path}.{key}");
    match parent.get(key) {
        Some(Value::Object(o)) => Ok(o),
        Some(other) => Err(wrong_type(&at, "an object", other)),
        None => Err(missing(&at)),
    }
}

fn text(object: &Map<String, Value>, path: &str) -> Result<Seen, Refused> {
    let text = string(object, "text", path)?;
    if text.is_empty() {
        return Err(invalid_value(
            &format!("{path}.text"),
            format!("Invalid '{path}.text': empty string. A text part must not be empty."),
        ));
    }
    Ok(Seen::text(text))
}

/// A refusal of inline bytes at `at`; bad base64 has its own cause.
fn inline_refused(at: &str, error: &InlineError) -> Refused {
    let mut refused = invalid_value(at, format!("Invalid '{at}': {}.", error.describe(at)));
    if *error == InlineError::BadBase64 {
        refused.cause = Cause::BadBase64;
    }
    refused
}

pub(super) fn http_url(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
}

fn image(
    model: &Model,
    part: &Map<String, Value>,
    path: &str,
    fault: Option<OpenaiFault>,
) -> Result<Seen, Refused> {
    let image_url = object(part, "image_url", path)?;
    let at = format!("{path}.image_url");
    let url = string(image_url, "url", &at)?;
    let detail = match image_url.get("detail") {
        None => None,
        Some(Value::String(d))
            if DETAILS.contains(&d.as_str()) && fault != Some(OpenaiFault::RefusesDetail) =>
        {
            Some(d.clone())
        }
        Some(other) => {
            return Err(invalid_value(
                &format!("{at}.detail"),
                format!(
                    "Invalid value for '{at}.detail': {other}. Supported values are: 'auto', 'low', and 'high'."
                ),
            ));
        }
    };
    let inline = if data_url::is_data_url(url) {
        let lax = fault == Some(OpenaiFault::LaxBase64);
        Some(data_url::parse_with(url, lax).map_err(|e| inline_refused(&format!("{at}.url"), &e))?)
    } else if (http_url(url) && fault != Some(OpenaiFault::RefusesHttpImageUrl))
        || (fault == Some(OpenaiFault::AcceptsNonHttpUrl) && url::Url::parse(url).is_ok())
    {
        None
    } else {
        return Err(invalid_value(
            &format!("{at}.url"),
            format!("Invalid '{at}.url': expected an http(s) URL or a base64 data URL."),
        ));
    };
    if !model.image {
        return Err(refuse(model, path, "image", IMAGE_NOT_SUPPORTED));
    }
    let taken = |mime: &str| {
        IMAGE_MIMES.contains(&mime)
            && (fault != Some(OpenaiFault::AcceptsPngOnly) || mime == "image/png")
    };
    match inline {
        Some(inline) if !taken(&inline.mime) => Err(Refused::new(
            ApiError::invalid(
                path,
                UNSUPPORTED_IMAGE_TYPE,
                format!(
                    "{} is not a supported image type ({}).",
                    inline.mime,
                    IMAGE_MIMES.join(", ")
                ),
            ),
            Cause::Capability("image"),
        )),
        Some(inline) => Ok(Seen::inline(
            "image",
            &inline.mime,
            &inline.bytes,
            detail.as_deref(),
        )),
        None => Ok(Seen::url("image", url, detail.as_deref())),
    }
}

fn audio(
    model: &Model,
    part: &Map<String, Value>,
    path: &str,
    fault: Option<OpenaiFault>,
) -> Result<Seen, Refused> {
    let input = object(part, "input_audio", path)?;
    let at = format!("{path}.input_audio");
    let data = string(input, "data", &at)?;
    let format = string(input, "format", &at)?;
    let wav_only = fault == Some(OpenaiFault::AcceptsWavOnly);
    if !AUDIO_FORMATS.contains(&format) || (wav_only && format != "wav") {
        return Err(invalid_value(
            &format!("{at}.format"),
            format!("Invalid value: '{format}'. Supported values are: 'wav' and 'mp3'."),
        ));
    }
    let mime = if format == "wav" {
        "audio/wav"
    } else {
        "audio/mpeg"
    };
    let lax = fault == Some(OpenaiFault::LaxBase64);
    let bytes =
        data_url::decode_with(data, lax).map_err(|e| inline_refused(&format!("{at}.data"), &e))?;
    data_url::check_bytes(mime, &bytes).map_err(|e| inline_refused(&format!("{at}.data"), &e))?;
    if !model.audio {
        return Err(refuse(model, path, "audio", AUDIO_NOT_SUPPORTED));
    }
    Ok(Seen::inline("audio", format, &bytes, None))
}

fn file(
    model: &Model,
    part: &Map<String, Value>,
    path: &str,
    fault: Option<OpenaiFault>,
) -> Result<Seen, Refused> {
    let file = object(part, "file", path)?;
    let at = format!("{path}.file");
    let filename = match file.get("filename") {
        None => None,
        Some(Value::String(name)) if !name.is_empty() => Some(name.as_str()),
        Some(other) => {
            return Err(wrong_type(
                &format!("{at}.filename"),
                "a non-empty string",
                other,
            ));
        }
    };
    let seen = match (file.contains_key("file_data"), file.contains_key("file_id")) {
        (true, true) => {
            return Err(invalid_value(
                &at,
                format!("Invalid '{at}': give file_data or file_id, not both."),
            ));
        }
        (false, false) => return Err(missing(&format!("{at}.file_data"))),
        (true, false) => {
            let data = string(file, "file_data", &at)?;
            let inline = data_url::parse_with(data, fault == Some(OpenaiFault::LaxBase64))
                .map_err(|e| inline_refused(&format!("{at}.file_data"), &e))?;
            let name = match filename {
                Some(name) => name,
                None if fault == Some(OpenaiFault::InventsFilename) => INVENTED_FILENAME,
                None => return Err(missing(&format!("{at}.filename"))),
            };
            Seen::file(&inline.mime, name, &inline.bytes)
        }
        (false, true) => {
            let id = string(file, "file_id", &at)?;
            if fault == Some(OpenaiFault::RefusesFileId) {
                return Err(invalid_value(
                    &format!("{at}.file_id"),
                    format!("Invalid '{at}.file_id': file ids are not supported."),
                ));
            } else if id == REFERENCE_FILE_ID {
                Seen::file(
                    "application/pdf",
                    filename.unwrap_or("reference.pdf"),
                    &reference_file(),
                )
            } else if http_url(id)
                // A Responses `file_url` arrives here as the id (`responses/input.rs`).
                || (fault == Some(OpenaiFault::AcceptsNonHttpUrl)
                    && id.contains("://")
                    && url::Url::parse(id).is_ok())
            {
                Seen::url("file", id, None)
            } else {
                return Err(invalid_value(
                    &format!("{at}.file_id"),
                    format!("Invalid '{at}.file_id': no file with id '{id}'."),
                ));
            }
        }
    };
    if !model.file {
        return Err(refuse(model, path, "file", UNSUPPORTED_BLOCK));
    }
    Ok(seen)
}

/// The image [`REFERENCE_IMAGE_ID`] names: a PNG stamped `reference-image`.
pub fn reference_image() -> Vec<u8> {
    mmconform_media::generate("image/png", "reference-image")
}

/// The file [`REFERENCE_FILE_ID`] names: a PDF stamped `reference-file`.
pub fn reference_file() -> Vec<u8> {
    mmconform_media::generate("application/pdf", "reference-file")
}
