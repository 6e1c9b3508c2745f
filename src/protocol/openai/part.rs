//! Turning a scenario's `$media` into a Chat Completions content part (docs/wire.md,
//! "OpenAI-compatible"):
//!
//! - `image` -> `{type: image_url, image_url: {url: data:<mime>;base64,<b64> | http URL, detail?}}`
//! - `audio` -> `{type: input_audio, input_audio: {data: <b64>, format: wav|mp3}}`
//! - `file`/`document` -> `{type: file, file: {file_data: data URL, filename} | {file_id}}`
//! - any other type `t` -> `{type: t, t: {data: <b64>}}` (an unknown part type)
//!
//! Every generated file carries the case nonce, so a witness can find it again.

use crate::protocol::openwop::part::extension;
use crate::scenario::model::{MediaSource, MediaSpec};
use crate::scenario::template;
use crate::wire::{chat, data_url};
use base64::Engine as _;
use mmconform_media as media;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Run-wide inputs to part rendering.
#[derive(Debug, Clone)]
pub struct PartInputs<'a> {
    pub nonce: &'a str,
    /// Where the server can fetch `<kind>.<ext>` files (`--media-base-url`).
    pub media_base_url: Option<&'a str>,
    /// File ids the server holds, per kind (`--media-ref file=ID`).
    pub file_ids: &'a BTreeMap<String, String>,
}

/// The part kind a `$media.type` names: `document` is the other protocols' word for a file.
fn kind(part_type: &str) -> &str {
    match part_type {
        "document" => "file",
        other => other,
    }
}

/// The rendered pieces every part shape draws on.
pub(crate) struct Rendered {
    pub part_type: String,
    /// The MIME type the part states (`stated_mime`, else the bytes').
    pub stated: String,
    pub base64: String,
    pub url: Option<String>,
    pub file_id: Option<String>,
    /// A file given both ways (`source: [data, file]`): its data beside `file_id`, a
    /// shape error on purpose.
    pub data_too: bool,
}

impl Rendered {
    /// The bytes as a data URL, without its type when the case leaves it out.
    pub fn data_url(&self, omit_mime: bool) -> String {
        data_url::encode((!omit_mime).then_some(self.stated.as_str()), &self.base64)
    }
}

pub(crate) fn rendered(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Rendered, String> {
    let text = |t: &str| template::render_text(t, resolve);
    let part_type = kind(&text(&spec.part_type)?).to_string();
    let mime = match spec.mime.as_deref().map(text).transpose()? {
        Some(m) => m,
        None => media::default_mime(if part_type == "file" {
            "document"
        } else {
            &part_type
        })
        .to_string(),
    };
    let bytes = match crate::scenario::media_size::media_size(spec, resolve)? {
        Some(n) => media::generate_sized(&mime, inputs.nonce, n).map_err(|e| e.to_string())?,
        None => media::generate(&mime, inputs.nonce),
    };
    let base64 = match &spec.data {
        Some(literal) => text(literal)?,
        None if spec.base64_noise => crate::request::base64_noise::interleave(
            &base64::engine::general_purpose::STANDARD.encode(&bytes),
        ),
        None => base64::engine::general_purpose::STANDARD.encode(&bytes),
    };
    let mut sources = spec.source.as_ref().map(|s| s.to_vec()).unwrap_or_default();
    let data_too = part_type == "file"
        && sources.len() == 2
        && sources.contains(&MediaSource::Data)
        && sources.contains(&MediaSource::File);
    if data_too {
        sources.retain(|s| *s == MediaSource::File);
    } else if sources.len() > 1 {
        return Err(
            "an OpenAI part has exactly one source (a file may have two: [data, file])".into(),
        );
    }
    let (mut url, mut file_id) = (None, None);
    match sources.first() {
        None | Some(MediaSource::Data) => {}
        Some(MediaSource::Url) => {
            url = Some(match (&spec.url, inputs.media_base_url) {
                (Some(literal), _) => text(literal)?,
                (None, Some(base)) => format!(
                    "{}/{part_type}.{}",
                    base.trim_end_matches('/'),
                    extension(&mime)
                ),
                (None, None) => {
                    return Err("an http source needs --media-base-url (or $media.url)".into());
                }
            })
        }
        Some(MediaSource::File) => {
            file_id = Some(match (&spec.file, inputs.file_ids.get(&part_type)) {
                (Some(literal), _) => text(literal)?,
                (None, Some(id)) => id.clone(),
                (None, None) => {
                    return Err(format!(
                        "a file_id source needs --media-ref {part_type}=FILE_ID (or $media.file)"
                    ));
                }
            })
        }
        Some(MediaSource::MediaRef) => {
            return Err("`mediaRef` is openwop's; an OpenAI file part takes a file_id".into());
        }
    }
    let stated = spec
        .stated_mime
        .as_deref()
        .map(text)
        .transpose()?
        .unwrap_or(mime);
    Ok(Rendered {
        part_type,
        stated,
        base64,
        url,
        file_id,
        data_too,
    })
}

/// Renders one `$media` object into a Chat Completions content part (the wire's
/// spelling: `crate::wire::chat`).
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let r = rendered(spec, resolve, inputs)?;
    let omit = |field: &str| spec.omit.iter().any(|f| f == field);
    let data_url = r.data_url(omit("mimeType"));
    let text = |t: &str| template::render_text(t, resolve);
    let part = match r.part_type.as_str() {
        "image" => {
            let url = r.url.unwrap_or(data_url);
            if spec.bare {
                return Ok(chat::bare_image_url(&url));
            }
            let detail = spec.detail.as_deref().map(text).transpose()?;
            chat::image_url(&url, detail.as_deref())
        }
        "audio" => {
            let format = audio_format(spec, &r, &text, omit("format"))?;
            chat::input_audio(&r.base64, format.as_deref())
        }
        "file" => {
            let mut part = match &r.file_id {
                Some(id) if !r.data_too => chat::file_id(id),
                _ => {
                    let name = filename(spec, &r, &text, omit("filename"))?;
                    chat::file_data(r.url.as_deref().unwrap_or(&data_url), name.as_deref())
                }
            };
            if let Some(file) = part
                .get_mut(chat::form::FILE)
                .and_then(Value::as_object_mut)
            {
                if let (Some(id), true) = (&r.file_id, r.data_too) {
                    file.insert("file_id".into(), json!(id));
                }
                if omit("source") {
                    file.shift_remove("file_data");
                    file.shift_remove("file_id");
                }
            }
            part
        }
        other => unknown_part(other, &r.base64),
    };
    Ok(without_type(part, omit("type")))
}

type Text<'a> = dyn Fn(&str) -> Result<String, String> + 'a;

/// The `input_audio.format`: `$media.format`, else the one the stated type names;
/// `None` when the case leaves it out.
pub(crate) fn audio_format(
    spec: &MediaSpec,
    r: &Rendered,
    text: &Text,
    omitted: bool,
) -> Result<Option<String>, String> {
    if omitted {
        return Ok(None);
    }
    Ok(Some(match &spec.format {
        Some(f) => text(f)?,
        None => chat::audio_format(&r.stated),
    }))
}

/// A document's filename: `$media.filename`, else `document.<ext>`; `None` when the
/// case leaves it out.
pub(crate) fn filename(
    spec: &MediaSpec,
    r: &Rendered,
    text: &Text,
    omitted: bool,
) -> Result<Option<String>, String> {
    if omitted {
        return Ok(None);
    }
    Ok(Some(match &spec.filename {
        Some(f) => text(f)?,
        None => format!("document.{}", extension(&r.stated)),
    }))
}

/// `{type: t, t: {data: <base64>}}`: a part of a type no OpenAI wire defines.
pub(crate) fn unknown_part(part_type: &str, base64: &str) -> Value {
    let mut part = Map::new();
    part.insert("type".into(), json!(part_type));
    part.insert(part_type.into(), json!({"data": base64}));
    Value::Object(part)
}

/// `part` without its `type` when the case leaves it out (the rest in order).
pub(crate) fn without_type(mut part: Value, omitted: bool) -> Value {
    if omitted && let Some(object) = part.as_object_mut() {
        object.shift_remove("type");
    }
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: Value) -> MediaSpec {
        serde_json::from_value(v).unwrap()
    }

    fn none(_: &str) -> Option<Value> {
        None
    }

    fn render_with(v: Value, ids: &BTreeMap<String, String>) -> Result<Value, String> {
        let inputs = PartInputs {
            nonce: "n0nce",
            media_base_url: Some("http://127.0.0.1:9/media/"),
            file_ids: ids,
        };
        render(&spec(v), &none, &inputs)
    }

    fn decoded(data_url: &str) -> Vec<u8> {
        let b64 = data_url.split_once(";base64,").unwrap().1;
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap()
    }

    #[test]
    fn images_are_data_urls_with_a_stamp_and_an_optional_detail() {
        let ids = BTreeMap::new();
        let part = render_with(
            json!({"type": "image", "mime": "image/webp", "detail": "low"}),
            &ids,
        )
        .unwrap();
        assert_eq!(part["type"], "image_url");
        let url = part["image_url"]["url"].as_str().unwrap();
        assert!(url.starts_with("data:image/webp;base64,"), "{url}");
        assert!(media::contains_nonce(&decoded(url), "n0nce"));
        assert_eq!(part["image_url"]["detail"], "low");
        let plain = render_with(json!({"type": "image"}), &ids).unwrap();
        assert!(
            plain["image_url"].get("detail").is_none(),
            "detail absent when not set"
        );
        let http = render_with(
            json!({"type": "image", "mime": "image/jpeg", "source": "url"}),
            &ids,
        )
        .unwrap();
        assert_eq!(
            http["image_url"]["url"],
            "http://127.0.0.1:9/media/image.jpg"
        );
        let bare = render_with(json!({"type": "image", "bare": true}), &ids).unwrap();
        assert!(
            bare["image_url"]
                .as_str()
                .unwrap()
                .starts_with("data:image/png;base64,")
        );
        let no_mime = render_with(json!({"type": "image", "omit": ["mimeType"]}), &ids).unwrap();
        assert!(
            no_mime["image_url"]["url"]
                .as_str()
                .unwrap()
                .starts_with("data:;base64,")
        );
        let lying = render_with(
            json!({"type": "image", "mime": "image/jpeg", "stated_mime": "image/png"}),
            &ids,
        )
        .unwrap();
        let url = lying["image_url"]["url"].as_str().unwrap();
        assert!(url.starts_with("data:image/png;base64,"));
        assert_eq!(media::sniff_mime(&decoded(url)), Some("image/jpeg"));
    }

    #[test]
    fn audio_files_and_unknown_types() {
        let ids = BTreeMap::from([("file".to_string(), "file-abc".to_string())]);
        let mp3 = render_with(json!({"type": "audio", "mime": "audio/mpeg"}), &ids).unwrap();
        assert_eq!(mp3["input_audio"]["format"], "mp3");
        let b64 = mp3["input_audio"]["data"].as_str().unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        assert!(media::contains_nonce(&bytes, "n0nce"));
        let odd = render_with(json!({"type": "audio", "format": "flac"}), &ids).unwrap();
        assert_eq!(odd["input_audio"]["format"], "flac");
        let pdf = render_with(json!({"type": "document"}), &ids).unwrap();
        assert_eq!(pdf["type"], "file");
        assert_eq!(pdf["file"]["filename"], "document.pdf");
        assert!(
            pdf["file"]["file_data"]
                .as_str()
                .unwrap()
                .starts_with("data:application/pdf;base64,")
        );
        let by_id = render_with(json!({"type": "file", "source": "file"}), &ids).unwrap();
        assert_eq!(by_id["file"], json!({"file_id": "file-abc"}));
        let unknown = render_with(json!({"type": "input_hologram"}), &ids).unwrap();
        assert!(unknown["input_hologram"]["data"].is_string());
        assert!(render_with(json!({"type": "image", "source": "mediaRef"}), &ids).is_err());
        let err = render_with(json!({"type": "audio", "source": "file"}), &ids).unwrap_err();
        assert!(err.contains("--media-ref audio=FILE_ID"), "{err}");
    }
}
