//! `$media` as an ACP `ContentBlock`: `image {data, mimeType}`, `audio {data, mimeType}`,
//! and a document as an embedded `resource {uri, mimeType, blob}` (a `text/*` one as
//! `text`). Any other part type is sent as a block of that type (an unknown block, on
//! purpose). The bytes are the generated, nonce-stamped file of the MIME type, as every
//! protocol sends them; a literal `data` (malformed base64, on purpose) replaces them
//! and `omit: [mimeType]` leaves the type out.

use crate::scenario::model::MediaSpec;
use crate::scenario::template;
use base64::Engine as _;
use mmconform_media as media;
use serde_json::{Map, Value, json};

pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    nonce: &str,
    index: usize,
) -> Result<Value, String> {
    let text = |t: &str| template::render_text(t, resolve);
    let kind = text(&spec.part_type)?;
    let mime = match spec.mime.as_deref().map(text).transpose()? {
        Some(m) => m,
        None => media::default_mime(&kind).to_string(),
    };
    let bytes = match crate::scenario::media_size::media_size(spec, resolve)? {
        Some(n) => media::generate_sized(&mime, nonce, n).map_err(|e| e.to_string())?,
        None => media::generate(&mime, nonce),
    };
    let data = match &spec.data {
        Some(literal) => text(literal)?,
        None => base64::engine::general_purpose::STANDARD.encode(&bytes),
    };
    let with_mime = !spec.omit.iter().any(|o| o == "mimeType");
    let mut block = Map::new();
    match kind.as_str() {
        "document" | "text" => {
            let name = match &spec.filename {
                Some(name) => text(name)?,
                None => format!(
                    "{kind}-{index}.{}",
                    crate::request::extension::extension(&mime)
                ),
            };
            let mut resource = Map::new();
            resource.insert("uri".into(), json!(format!("file:///mmconform/{name}")));
            if with_mime {
                resource.insert("mimeType".into(), json!(mime));
            }
            if mime.starts_with("text/") && spec.data.is_none() {
                resource.insert("text".into(), json!(String::from_utf8_lossy(&bytes)));
            } else {
                resource.insert("blob".into(), json!(data));
            }
            block.insert("type".into(), json!("resource"));
            block.insert("resource".into(), Value::Object(resource));
        }
        other => {
            block.insert("type".into(), json!(other));
            if with_mime {
                block.insert("mimeType".into(), json!(mime));
            }
            block.insert("data".into(), json!(data));
        }
    }
    Ok(Value::Object(block))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(raw: Value) -> MediaSpec {
        serde_json::from_value(raw).unwrap()
    }

    #[test]
    fn each_kind_is_its_block_with_the_stamped_bytes() {
        let none = |_: &str| None;
        let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        let image = render(
            &spec(json!({"type": "image", "mime": "image/png"})),
            &none,
            "n1",
            0,
        )
        .unwrap();
        assert_eq!(
            image,
            json!({"type": "image", "mimeType": "image/png",
            "data": b64(&media::generate("image/png", "n1"))})
        );
        let pdf = render(
            &spec(json!({"type": "document", "mime": "application/pdf"})),
            &none,
            "n1",
            1,
        )
        .unwrap();
        assert_eq!(pdf["type"], "resource");
        assert_eq!(
            pdf["resource"]["blob"],
            b64(&media::generate("application/pdf", "n1"))
        );
        let text = render(
            &spec(json!({"type": "document", "mime": "text/plain"})),
            &none,
            "n1",
            2,
        )
        .unwrap();
        assert!(text["resource"]["text"].as_str().unwrap().contains("n1"));
        let bad = render(
            &spec(json!({"type": "image", "data": "%%%", "omit": ["mimeType"]})),
            &none,
            "n1",
            3,
        )
        .unwrap();
        assert_eq!(bad, json!({"type": "image", "data": "%%%"}));
    }
}
