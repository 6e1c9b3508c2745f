//! Turning a scenario's `$media` into a Messages content block (Anthropic API
//! reference, Messages; the Vision and PDF support guides):
//!
//! - `image` -> `{type: image, source: {type: base64, media_type, data}}` or
//!   `{type: image, source: {type: url, url}}`
//! - `file`/`document` -> `{type: document, source: {type: base64, media_type, data}}`
//!   (PDF), `{type: document, source: {type: text, media_type: text/plain, data}}` (a
//!   `text/plain` document: its text, not base64), or `{type: document, source: {type:
//!   url, url}}`
//! - any other type `t` (audio included: the Messages API takes none) -> `{type: t,
//!   source: {type: base64, media_type, data}}`, a block of a type the API does not know
//!
//! The bytes, stamps and sources are the Chat door's (`protocol::openai::part`);
//! `omit: [source]` leaves the source out, `omit: [mimeType]` the `media_type`.

use crate::protocol::door::part::{PartInputs, rendered, without_type};
use crate::scenario::model::MediaSpec;
use crate::wire::anthropic;
use base64::Engine as _;
use serde_json::Value;

/// Renders one `$media` object into a Messages content block.
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let r = rendered(spec, resolve, inputs)?;
    if r.file_id.is_some() {
        return Err("an Anthropic block takes a base64, url or text source, not a file id".into());
    }
    let omit = |field: &str| spec.omit.iter().any(|f| f == field);
    let block_type = match r.part_type.as_str() {
        "image" => anthropic::IMAGE,
        "file" => anthropic::DOCUMENT,
        other => other,
    };
    let source = match (&r.url, r.stated.as_str()) {
        (Some(url), _) => anthropic::url_source(url),
        (None, "text/plain") if block_type == anthropic::DOCUMENT && spec.data.is_none() => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&r.base64)
                .map_err(|e| format!("the text document is not base64 of text: {e}"))?;
            anthropic::text_source(&String::from_utf8_lossy(&bytes))
        }
        (None, stated) => {
            anthropic::base64_source((!omit("mimeType")).then_some(stated), &r.base64)
        }
    };
    let block = anthropic::block(block_type, (!omit("source")).then_some(source));
    Ok(without_type(block, omit("type")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmconform_media as media;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn render_with(v: Value) -> Result<Value, String> {
        let ids = BTreeMap::new();
        let inputs = PartInputs {
            nonce: "n0nce",
            media_base_url: Some("http://127.0.0.1:9/media/"),
            file_ids: &ids,
        };
        render(&serde_json::from_value(v).unwrap(), &|_| None, &inputs)
    }

    #[test]
    fn images_and_pdfs_are_base64_sources_stamped_with_the_nonce() {
        let image = render_with(json!({"type": "image", "mime": "image/webp"})).unwrap();
        assert_eq!(image["type"], "image");
        assert_eq!(image["source"]["type"], "base64");
        assert_eq!(image["source"]["media_type"], "image/webp");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(image["source"]["data"].as_str().unwrap())
            .unwrap();
        assert!(media::contains_nonce(&bytes, "n0nce"));
        let pdf = render_with(json!({"type": "document"})).unwrap();
        assert_eq!(pdf["type"], "document");
        assert_eq!(pdf["source"]["media_type"], "application/pdf");
    }

    #[test]
    fn urls_text_documents_and_omissions_take_their_own_shape() {
        let url = render_with(json!({"type": "image", "source": "url"})).unwrap();
        assert_eq!(
            url,
            json!({"type": "image", "source": {"type": "url", "url": "http://127.0.0.1:9/media/image.png"}})
        );
        let text = render_with(json!({"type": "file", "mime": "text/plain"})).unwrap();
        assert_eq!(text["source"]["type"], "text");
        assert!(text["source"]["data"].as_str().unwrap().contains("n0nce"));
        let bare = render_with(json!({"type": "image", "omit": ["mimeType"]})).unwrap();
        assert!(bare["source"].get("media_type").is_none());
        let audio = render_with(json!({"type": "audio"})).unwrap();
        assert_eq!(audio["type"], "audio");
        let by_id = render_with(json!({"type": "image", "source": "file", "file": "f"}));
        assert!(by_id.is_err());
    }
}
