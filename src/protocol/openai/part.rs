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

/// The format `input_audio` names for a MIME type.
pub fn audio_format(mime: &str) -> String {
    match media::mime_essence(mime).as_str() {
        "audio/mpeg" | "audio/mp3" => "mp3".into(),
        "audio/wav" | "audio/wave" | "audio/x-wav" => "wav".into(),
        other => other.rsplit('/').next().unwrap_or(other).to_string(),
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
    let sources = spec.source.as_ref().map(|s| s.to_vec()).unwrap_or_default();
    if sources.len() > 1 {
        return Err("an OpenAI part has exactly one source".into());
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
    })
}

/// Renders one `$media` object into a Chat Completions content part.
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let r = rendered(spec, resolve, inputs)?;
    let omit = |field: &str| spec.omit.iter().any(|f| f == field);
    let data_url = if omit("mimeType") {
        format!("data:;base64,{}", r.base64)
    } else {
        format!("data:{};base64,{}", r.stated, r.base64)
    };
    let text = |t: &str| template::render_text(t, resolve);
    let mut object = Map::new();
    let wire_type = match r.part_type.as_str() {
        "image" => {
            let url = r.url.unwrap_or(data_url);
            if spec.bare {
                return Ok(json!({"type": "image_url", "image_url": url}));
            }
            object.insert("url".into(), json!(url));
            if let Some(detail) = &spec.detail {
                object.insert("detail".into(), json!(text(detail)?));
            }
            "image_url".to_string()
        }
        "audio" => {
            object.insert("data".into(), json!(r.base64));
            if !omit("format") {
                let format = match &spec.format {
                    Some(f) => text(f)?,
                    None => audio_format(&r.stated),
                };
                object.insert("format".into(), json!(format));
            }
            "input_audio".to_string()
        }
        "file" => {
            if let Some(id) = r.file_id {
                object.insert("file_id".into(), json!(id));
            } else {
                object.insert("file_data".into(), json!(r.url.unwrap_or(data_url)));
                if !omit("filename") {
                    let name = match &spec.filename {
                        Some(f) => text(f)?,
                        None => format!("document.{}", extension(&r.stated)),
                    };
                    object.insert("filename".into(), json!(name));
                }
            }
            "file".to_string()
        }
        other => {
            object.insert("data".into(), json!(r.base64));
            other.to_string()
        }
    };
    let mut part = Map::new();
    if !omit("type") {
        part.insert("type".into(), json!(wire_type));
    }
    part.insert(wire_type, Value::Object(object));
    Ok(Value::Object(part))
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
