//! Turning a scenario's `$media` placeholder into an AG-UI 1.0 content part:
//! `{type: image|audio|video|document, source: {type: data|url|file, value, mimeType}}`,
//! or, with `legacy: true`, the seed proposal's `{type: binary, mimeType, data|url|id}`
//! (removed in 1.0; sent only by the legacy case).

use crate::request::extension::extension;
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
    /// Where the agent can fetch `<kind>.<ext>` files (`--media-base-url`).
    pub media_base_url: Option<&'a str>,
    /// File ids the agent resolves, per part kind (`--media-ref KIND=ID`).
    pub file_ids: &'a BTreeMap<String, String>,
}

/// The source's kind and value, before it is shaped as 1.0 or legacy.
struct Source {
    kind: MediaSource,
    value: String,
}

fn source(
    kind: MediaSource,
    spec: &MediaSpec,
    part_type: &str,
    mime: &str,
    bytes: &[u8],
    text: &dyn Fn(&str) -> Result<String, String>,
    inputs: &PartInputs,
) -> Result<Source, String> {
    let value = match kind {
        MediaSource::Data => match &spec.data {
            Some(literal) => text(literal)?,
            None if spec.base64_noise => crate::request::base64_noise::interleave(
                &base64::engine::general_purpose::STANDARD.encode(bytes),
            ),
            None => base64::engine::general_purpose::STANDARD.encode(bytes),
        },
        MediaSource::Url => match (&spec.url, inputs.media_base_url) {
            (Some(literal), _) => text(literal)?,
            (None, Some(base)) => format!(
                "{}/{part_type}.{}",
                base.trim_end_matches('/'),
                extension(mime)
            ),
            (None, None) => {
                return Err("a url source needs --media-base-url (or $media.url)".into());
            }
        },
        MediaSource::File => match (&spec.file, inputs.file_ids.get(part_type)) {
            (Some(literal), _) => text(literal)?,
            (None, Some(id)) => id.clone(),
            (None, None) => {
                return Err(format!(
                    "a file source needs --media-ref {part_type}=FILE_ID (or $media.file)"
                ));
            }
        },
        MediaSource::MediaRef => {
            return Err("AG-UI parts have no `mediaRef`; they use a `file` source".into());
        }
    };
    Ok(Source { kind, value })
}

fn source_name(kind: MediaSource) -> &'static str {
    match kind {
        MediaSource::Data => "data",
        MediaSource::Url => "url",
        MediaSource::File => "file",
        MediaSource::MediaRef => "mediaRef",
    }
}

/// Renders one `$media` object into an AG-UI content part.
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let text = |t: &str| template::render_text(t, resolve);
    let part_type = text(&spec.part_type)?;
    let explicit_mime = spec.mime.as_deref().map(text).transpose()?;
    let mime = explicit_mime
        .clone()
        .unwrap_or_else(|| media::default_mime(&part_type).to_string());
    let bytes = match crate::scenario::media_size::media_size(spec, resolve)? {
        Some(n) => media::generate_sized(&mime, inputs.nonce, n).map_err(|e| e.to_string())?,
        None => media::generate(&mime, inputs.nonce),
    };
    let kinds = spec
        .source
        .as_ref()
        .map(|s| s.to_vec())
        .unwrap_or_else(|| vec![MediaSource::Data]);
    if kinds.len() > 1 {
        return Err("an AG-UI part has exactly one source object".into());
    }
    let source = kinds
        .first()
        .map(|k| source(*k, spec, &part_type, &mime, &bytes, &text, inputs))
        .transpose()?;
    let omit = |field: &str| spec.omit.iter().any(|f| f == field);
    // The type the part states: `stated_mime` when the case makes it disagree with the
    // bytes on purpose.
    let stated = spec.stated_mime.as_deref().map(text).transpose()?;
    let mime = stated.unwrap_or(mime);
    let mut part = Map::new();
    if spec.legacy {
        if !omit("type") {
            part.insert("type".into(), json!("binary"));
        }
        if !omit("mimeType") {
            part.insert("mimeType".into(), json!(mime));
        }
        if let Some(s) = source {
            let key = match s.kind {
                MediaSource::Url => "url",
                MediaSource::File => "id",
                _ => "data",
            };
            part.insert(key.into(), json!(s.value));
        }
        return Ok(Value::Object(part));
    }
    if !omit("type") {
        part.insert("type".into(), json!(part_type));
    }
    if let Some(s) = source {
        let mut object = Map::new();
        object.insert("type".into(), json!(source_name(s.kind)));
        object.insert("value".into(), json!(s.value));
        // A file id says nothing about its type; the mimeType is sent only when the
        // scenario names one. Data and url sources always carry theirs.
        let with_mime = s.kind != MediaSource::File || explicit_mime.is_some();
        if with_mime && !omit("mimeType") {
            object.insert("mimeType".into(), json!(mime));
        }
        part.insert("source".into(), Value::Object(object));
    }
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

    fn inputs(ids: &BTreeMap<String, String>) -> PartInputs<'_> {
        PartInputs {
            nonce: "abc123",
            media_base_url: Some("http://127.0.0.1:9/media/"),
            file_ids: ids,
        }
    }

    #[test]
    fn data_parts_carry_nonce_stamped_media() {
        let ids = BTreeMap::new();
        let part = render(&spec(json!({"type": "audio"})), &none, &inputs(&ids)).unwrap();
        assert_eq!(part["type"], "audio");
        assert_eq!(part["source"]["type"], "data");
        assert_eq!(part["source"]["mimeType"], "audio/wav");
        let said_png = render(
            &spec(json!({"type": "image", "mime": "audio/wav", "stated_mime": "image/png"})),
            &none,
            &inputs(&ids),
        )
        .unwrap();
        assert_eq!(said_png["source"]["mimeType"], "image/png");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(said_png["source"]["value"].as_str().unwrap())
            .unwrap();
        assert!(bytes.starts_with(b"RIFF"));
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(part["source"]["value"].as_str().unwrap())
            .unwrap();
        assert!(media::contains_nonce(&bytes, "abc123"));
    }

    #[test]
    fn url_file_and_omissions() {
        let ids = BTreeMap::from([("image".to_string(), "file-7".to_string())]);
        let url = render(
            &spec(json!({"type": "image", "mime": "image/jpeg", "source": "url"})),
            &none,
            &inputs(&ids),
        )
        .unwrap();
        assert_eq!(
            url["source"],
            json!({"type": "url", "value": "http://127.0.0.1:9/media/image.jpg", "mimeType": "image/jpeg"})
        );
        let file = render(
            &spec(json!({"type": "image", "source": "file"})),
            &none,
            &inputs(&ids),
        )
        .unwrap();
        assert_eq!(file["source"], json!({"type": "file", "value": "file-7"}));
        let bare = render(
            &spec(json!({"type": "image", "omit": ["mimeType"]})),
            &none,
            &inputs(&ids),
        )
        .unwrap();
        assert!(bare["source"].get("mimeType").is_none());
        let sourceless = render(
            &spec(json!({"type": "image", "source": []})),
            &none,
            &inputs(&ids),
        )
        .unwrap();
        assert_eq!(sourceless, json!({"type": "image"}));
        let err = render(
            &spec(json!({"type": "audio", "source": "file"})),
            &none,
            &inputs(&ids),
        )
        .unwrap_err();
        assert!(err.contains("--media-ref audio=FILE_ID"), "{err}");
        assert!(
            render(
                &spec(json!({"type": "image", "source": ["data", "url"]})),
                &none,
                &inputs(&ids)
            )
            .is_err()
        );
        assert!(
            render(
                &spec(json!({"type": "image", "source": "mediaRef"})),
                &none,
                &inputs(&ids)
            )
            .is_err()
        );
    }

    #[test]
    fn legacy_binary_parts() {
        let ids = BTreeMap::new();
        let part = render(
            &spec(json!({"type": "image", "legacy": true})),
            &none,
            &inputs(&ids),
        )
        .unwrap();
        assert_eq!(part["type"], "binary");
        assert_eq!(part["mimeType"], "image/png");
        assert!(part["data"].is_string() && part.get("source").is_none());
    }
}
