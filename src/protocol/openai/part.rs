//! Turning a scenario's `$media` into a Chat Completions content part (docs/wire.md,
//! "OpenAI-compatible"), with `wire::chat`'s builders:
//!
//! - `image` -> `{type: image_url, image_url: {url: data:<mime>;base64,<b64> | http URL, detail?}}`
//! - `audio` -> `{type: input_audio, input_audio: {data: <b64>, format: wav|mp3}}`
//! - `file`/`document` -> `{type: file, file: {file_data: data URL, filename} | {file_id}}`
//! - any other type `t` -> `{type: t, t: {data: <b64>}}` (an unknown part type)
//!
//! The bytes, their stamp and what a case leaves out are the doors' (`door::part`).

pub use crate::protocol::door::part::PartInputs;
use crate::protocol::door::part::{audio_format, filename, rendered, unknown_part, without_type};
use crate::scenario::model::MediaSpec;
use crate::scenario::template;
use crate::wire::chat;
use serde_json::{Value, json};

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

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use mmconform_media as media;
    use std::collections::BTreeMap;

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
