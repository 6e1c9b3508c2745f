//! Turning a scenario's `$media` placeholder into an RFC 0091 content part:
//! `{type, mimeType, data | url | mediaRef}`, or the official suite's spelling
//! (`file` + `dataBase64`) for documents under `--dialect suite`.

use super::Dialect;
use crate::request::extension::extension;
use crate::scenario::model::{MediaSource, MediaSpec};
use crate::scenario::template;
use mmconform_media as media;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Run-wide inputs to part rendering.
#[derive(Debug, Clone)]
pub struct PartInputs<'a> {
    pub dialect: Dialect,
    pub nonce: &'a str,
    /// `--media-base-url`: where the host can fetch `<type>.<ext>` files.
    pub media_base_url: Option<&'a str>,
    /// `--media-ref MODALITY=REF`.
    pub media_refs: &'a BTreeMap<String, String>,
}

/// Renders one `$media` object into a content part.
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let text = |t: &str| template::render_text(t, resolve);
    let part_type = text(&spec.part_type)?;
    let mime = match &spec.mime {
        Some(m) => text(m)?,
        None => media::default_mime(&part_type).to_string(),
    };
    let bytes = match crate::scenario::media_size::media_size(spec, resolve)? {
        Some(n) => media::generate_sized(&mime, inputs.nonce, n).map_err(|e| e.to_string())?,
        None => media::generate(&mime, inputs.nonce),
    };
    let document = inputs.dialect == Dialect::Suite && part_type == "document";
    let mut part = Map::new();
    if !spec.omit.iter().any(|f| f == "type") {
        part.insert(
            "type".into(),
            json!(if document { "file" } else { part_type.as_str() }),
        );
    }
    if !spec.omit.iter().any(|f| f == "mimeType") {
        // `stated_mime`: the type the part claims, when a case makes it disagree with
        // the bytes on purpose.
        let stated = spec.stated_mime.as_deref().map(text).transpose()?;
        part.insert("mimeType".into(), json!(stated.as_deref().unwrap_or(&mime)));
    }
    let sources = spec
        .source
        .as_ref()
        .map(|s| s.to_vec())
        .unwrap_or_else(|| vec![MediaSource::Data]);
    // The file is encoded in its own buffer and the text moved into the part: a large
    // part is held once, not as file, text and copy (a second `data` source copies).
    let mut file = Some(bytes);
    let mut encoded = String::new();
    let mut data_sources_left = sources
        .iter()
        .filter(|s| matches!(s, MediaSource::Data))
        .count();
    for source in sources {
        match source {
            MediaSource::Data => {
                data_sources_left -= 1;
                let data = match &spec.data {
                    Some(literal) => text(literal)?,
                    None => {
                        if let Some(file) = file.take() {
                            encoded = crate::request::base64_in_place::encode(file);
                            if spec.base64_noise {
                                encoded = crate::request::base64_noise::interleave(&encoded);
                            }
                        }
                        if data_sources_left == 0 {
                            std::mem::take(&mut encoded)
                        } else {
                            encoded.clone()
                        }
                    }
                };
                part.insert(
                    (if document { "dataBase64" } else { "data" }).into(),
                    Value::String(data),
                );
            }
            MediaSource::Url => {
                let url = match (&spec.url, inputs.media_base_url) {
                    (Some(literal), _) => text(literal)?,
                    (None, Some(base)) => format!(
                        "{}/{part_type}.{}",
                        base.trim_end_matches('/'),
                        extension(&mime)
                    ),
                    (None, None) => {
                        return Err("a url source needs --media-base-url (or $media.url)".into());
                    }
                };
                part.insert("url".into(), json!(url));
            }
            MediaSource::MediaRef => {
                let reference = match (&spec.media_ref, inputs.media_refs.get(&part_type)) {
                    (Some(literal), _) => text(literal)?,
                    (None, Some(r)) => r.clone(),
                    (None, None) => {
                        return Err(format!(
                            "a mediaRef source needs --media-ref {part_type}=REF (or $media.mediaRef)"
                        ));
                    }
                };
                part.insert("mediaRef".into(), json!(reference));
            }
            MediaSource::File => {
                return Err("openwop parts have no `file` source; they use mediaRef".into());
            }
        }
    }
    Ok(Value::Object(part))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn spec(v: Value) -> MediaSpec {
        serde_json::from_value(v).unwrap()
    }

    fn none(_: &str) -> Option<Value> {
        None
    }

    #[test]
    fn renders_spec_and_suite_dialects() {
        let refs = BTreeMap::new();
        let mut inputs = PartInputs {
            dialect: Dialect::Spec,
            nonce: "abc123",
            media_base_url: None,
            media_refs: &refs,
        };
        let part = render(&spec(json!({"type": "document"})), &none, &inputs).unwrap();
        assert_eq!(part["type"], "document");
        assert_eq!(part["mimeType"], "application/pdf");
        let data = base64::engine::general_purpose::STANDARD
            .decode(part["data"].as_str().unwrap())
            .unwrap();
        assert!(media::contains_nonce(&data, "abc123"));
        inputs.dialect = Dialect::Suite;
        let part = render(&spec(json!({"type": "document"})), &none, &inputs).unwrap();
        assert_eq!(part["type"], "file");
        assert!(part.get("dataBase64").is_some() && part.get("data").is_none());
    }

    #[test]
    fn sources_omissions_and_sizes() {
        let refs = BTreeMap::from([("image".to_string(), "blob:1".to_string())]);
        let inputs = PartInputs {
            dialect: Dialect::Spec,
            nonce: "n",
            media_base_url: Some("http://m.invalid/x/"),
            media_refs: &refs,
        };
        let part = render(
            &spec(json!({"type": "image", "source": ["data", "mediaRef"], "omit": ["mimeType"]})),
            &none,
            &inputs,
        )
        .unwrap();
        assert_eq!(part["mediaRef"], "blob:1");
        assert!(part.get("data").is_some() && part.get("mimeType").is_none());
        let said_png = render(
            &spec(json!({"type": "image", "mime": "audio/wav", "stated_mime": "image/png"})),
            &none,
            &inputs,
        )
        .unwrap();
        assert_eq!(said_png["mimeType"], "image/png");
        assert!(said_png["data"].as_str().unwrap().starts_with("UklGR"));
        let part = render(
            &spec(json!({"type": "image", "source": "url"})),
            &none,
            &inputs,
        )
        .unwrap();
        assert_eq!(part["url"], "http://m.invalid/x/image.png");
        let part = render(
            &spec(json!({"type": "image", "source": []})),
            &none,
            &inputs,
        )
        .unwrap();
        assert_eq!(part.as_object().unwrap().len(), 2);
        let sized = render(
            &spec(json!({"type": "image", "size": 5000, "size_plus": 1})),
            &none,
            &inputs,
        )
        .unwrap();
        let data = base64::engine::general_purpose::STANDARD
            .decode(sized["data"].as_str().unwrap())
            .unwrap();
        assert_eq!(data.len(), 5001);
        assert!(
            render(
                &spec(json!({"type": "audio", "source": "mediaRef"})),
                &none,
                &inputs
            )
            .unwrap_err()
            .contains("--media-ref audio=REF")
        );
    }
}
