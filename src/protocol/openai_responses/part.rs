//! Turning a scenario's `$media` into a Responses input part (OpenAI API reference,
//! "Responses", input items):
//!
//! - `image` -> `{type: input_image, image_url: data:<mime>;base64,<b64> | http URL, detail?}`
//!   or `{type: input_image, file_id}`
//! - `audio` -> `{type: input_audio, input_audio: {data: <b64>, format: wav|mp3}}`
//! - `file`/`document` -> `{type: input_file, file_data: data URL, filename}`,
//!   `{type: input_file, file_id}` or `{type: input_file, file_url, filename}`
//! - any other type `t` -> `{type: t, t: {data: <b64>}}` (an unknown part type)
//!
//! The bytes, stamps and sources are the Chat door's (`protocol::openai::part`).

use crate::protocol::door::part::{
    PartInputs, audio_format, filename, rendered, unknown_part, without_type,
};
use crate::scenario::model::MediaSpec;
use crate::scenario::template;
use crate::wire::responses::{self, Source};
use serde_json::{Value, json};

/// Renders one `$media` object into a Responses input part (the wire's spelling:
/// `crate::wire::responses`).
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let r = rendered(spec, resolve, inputs)?;
    let omit = |field: &str| spec.omit.iter().any(|f| f == field);
    let data_url = r.data_url(omit("mimeType"));
    let text = |t: &str| template::render_text(t, resolve);
    let source = match (&r.file_id, &r.url) {
        (Some(id), _) => Source::FileId(id),
        (None, Some(url)) => Source::Url(url),
        (None, None) => Source::Data(&data_url),
    };
    let part = match r.part_type.as_str() {
        "image" => {
            let detail = spec.detail.as_deref().map(text).transpose()?;
            responses::input_image(source, detail.as_deref())
        }
        "audio" => {
            let format = audio_format(spec, &r, &text, omit("format"))?;
            responses::input_audio(&r.base64, format.as_deref())
        }
        "file" => {
            // A file id names the file; data and URLs carry a filename.
            let unnamed = (matches!(source, Source::FileId(_)) && !r.data_too) || omit("filename");
            let name = filename(spec, &r, &text, unnamed)?;
            let mut part = match (&r.file_id, r.data_too) {
                (Some(id), true) => {
                    let mut part = responses::input_file(Source::Data(&data_url), name.as_deref());
                    part["file_id"] = json!(id);
                    part
                }
                _ => responses::input_file(source, name.as_deref()),
            };
            if omit("source")
                && let Some(object) = part.as_object_mut()
            {
                for key in ["file_data", "file_id", "file_url"] {
                    object.shift_remove(key);
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
    use serde_json::json;
    use std::collections::BTreeMap;

    fn render_with(v: Value, ids: &BTreeMap<String, String>) -> Result<Value, String> {
        let inputs = PartInputs {
            nonce: "n0nce",
            media_base_url: Some("http://127.0.0.1:9/media/"),
            file_ids: ids,
        };
        render(&serde_json::from_value(v).unwrap(), &|_| None, &inputs)
    }

    #[test]
    fn images_are_strings_with_detail_or_file_ids() {
        let ids = BTreeMap::from([("image".to_string(), "file-img".to_string())]);
        let part = render_with(json!({"type": "image", "detail": "low"}), &ids).unwrap();
        assert_eq!(part["type"], "input_image");
        let url = part["image_url"].as_str().unwrap();
        let b64 = url.strip_prefix("data:image/png;base64,").unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        assert!(media::contains_nonce(&bytes, "n0nce"));
        assert_eq!(part["detail"], "low");
        let http = render_with(json!({"type": "image", "source": "url"}), &ids).unwrap();
        assert_eq!(http["image_url"], "http://127.0.0.1:9/media/image.png");
        let by_id = render_with(json!({"type": "image", "source": "file"}), &ids).unwrap();
        assert_eq!(by_id, json!({"type": "input_image", "file_id": "file-img"}));
    }

    #[test]
    fn files_take_one_source_and_audio_its_object() {
        let ids = BTreeMap::from([("file".to_string(), "file-abc".to_string())]);
        let pdf = render_with(json!({"type": "document"}), &ids).unwrap();
        assert_eq!(pdf["type"], "input_file");
        assert_eq!(pdf["filename"], "document.pdf");
        assert!(
            pdf["file_data"]
                .as_str()
                .unwrap()
                .starts_with("data:application/pdf;base64,")
        );
        let by_id = render_with(json!({"type": "file", "source": "file"}), &ids).unwrap();
        assert_eq!(by_id, json!({"type": "input_file", "file_id": "file-abc"}));
        let by_url = render_with(json!({"type": "file", "source": "url"}), &ids).unwrap();
        assert_eq!(by_url["file_url"], "http://127.0.0.1:9/media/file.pdf");
        let bare = render_with(json!({"type": "file", "omit": ["source"]}), &ids).unwrap();
        assert_eq!(
            bare,
            json!({"type": "input_file", "filename": "document.pdf"})
        );
        let mp3 = render_with(json!({"type": "audio", "mime": "audio/mpeg"}), &ids).unwrap();
        assert_eq!(mp3["input_audio"]["format"], "mp3");
    }
}
