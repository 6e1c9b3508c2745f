//! A scenario's `$media` as an A2A part in the interface's version: 1.0's flat `Part`
//! (`raw` or `url`, with `mediaType` and `filename`; proto `Part`) or 0.3's
//! `{kind: file, file: {bytes | uri, mimeType, name}}` (types.ts `FilePart`). With
//! `legacy: true` the part is spelled as the *other* version spells it (a 0.3 part
//! sent at 1.0, a 1.0 part at 0.3), for the malformation cases. A `url` names media
//! mmconform serves itself on loopback, stamped with the case's nonce
//! (`protocol::media_server`), unless `--media-base-url` or `$media.url` says where.

use super::interface::Version;
use crate::protocol::media_server::extension;
use crate::scenario::model::{MediaSource, MediaSpec};
use crate::scenario::template;
use base64::Engine as _;
use serde_json::{Map, Value, json};

/// Run-wide inputs to rendering a part.
pub struct PartInputs<'a> {
    /// The case's nonce, stamped into generated media.
    pub nonce: &'a str,
    pub version: Version,
    /// The URL of the case's generated file of a kind and type, when the run serves
    /// media or was given `--media-base-url`.
    pub media_url: &'a (dyn Fn(&str, &str) -> Option<String> + Sync),
}

/// Renders one `$media` object into a part.
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    inputs: &PartInputs,
) -> Result<Value, String> {
    let text = |t: &str| template::render_text(t, resolve);
    let kind = text(&spec.part_type)?;
    let mime = match &spec.mime {
        Some(m) => text(m)?,
        None => mmconform_media::default_mime(&kind).to_string(),
    };
    let stated = match &spec.stated_mime {
        Some(m) => text(m)?,
        None => mime.clone(),
    };
    let bytes = match crate::scenario::media_size::media_size(spec, resolve)? {
        Some(n) => {
            mmconform_media::generate_sized(&mime, inputs.nonce, n).map_err(|e| e.to_string())?
        }
        None => mmconform_media::generate(&mime, inputs.nonce),
    };
    let sources = spec
        .source
        .as_ref()
        .map(|s| s.to_vec())
        .unwrap_or_else(|| vec![MediaSource::Data]);
    let mut raw = None;
    let mut url = None;
    for source in sources {
        match source {
            MediaSource::Data => {
                let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
                raw = Some(match &spec.data {
                    Some(literal) => text(literal)?,
                    None if spec.base64_noise => crate::request::base64_noise::interleave(&encoded),
                    None => encoded,
                });
            }
            MediaSource::Url => {
                url = Some(match &spec.url {
                    Some(literal) => text(literal)?,
                    None => (inputs.media_url)(&kind, &mime).ok_or(
                        "a url part needs media to point at: the run serves none (pass --media-base-url, or $media.url)",
                    )?,
                });
            }
            other => {
                return Err(format!(
                    "an A2A part carries inline bytes or a url, not a {} source",
                    match other {
                        MediaSource::MediaRef => "mediaRef",
                        _ => "file",
                    }
                ));
            }
        }
    }
    let filename = match &spec.filename {
        Some(name) => text(name)?,
        None => format!("{kind}.{}", extension(&mime)),
    };
    let omit = |fields: &[&str]| spec.omit.iter().any(|f| fields.contains(&f.as_str()));
    let file = File {
        raw,
        url,
        mime: (!omit(&["mediaType", "mimeType"])).then_some(stated),
        filename: (!omit(&["filename", "name"])).then_some(filename),
    };
    let spelled = match (inputs.version, spec.legacy) {
        (Version::V1, false) | (Version::V03, true) => file.v1(),
        (Version::V03, false) | (Version::V1, true) => file.v03(),
    };
    Ok(spelled)
}

/// A file part before it is spelled.
struct File {
    raw: Option<String>,
    url: Option<String>,
    mime: Option<String>,
    filename: Option<String>,
}

impl File {
    fn v1(self) -> Value {
        let mut part = Map::new();
        if let Some(raw) = self.raw {
            part.insert("raw".into(), json!(raw));
        }
        if let Some(url) = self.url {
            part.insert("url".into(), json!(url));
        }
        if let Some(mime) = self.mime {
            part.insert("mediaType".into(), json!(mime));
        }
        if let Some(name) = self.filename {
            part.insert("filename".into(), json!(name));
        }
        Value::Object(part)
    }

    fn v03(self) -> Value {
        let mut file = Map::new();
        if let Some(raw) = self.raw {
            file.insert("bytes".into(), json!(raw));
        }
        if let Some(url) = self.url {
            file.insert("uri".into(), json!(url));
        }
        if let Some(mime) = self.mime {
            file.insert("mimeType".into(), json!(mime));
        }
        if let Some(name) = self.filename {
            file.insert("name".into(), json!(name));
        }
        json!({"kind": "file", "file": file})
    }
}

/// A part the scenario wrote out (`{text}`, `{data}`) in the version's spelling: 0.3
/// tags it with its `kind`. `$media` objects and parts that name a `kind` are left as
/// they are.
pub fn spelled_plain(part: &Value, version: Version) -> Value {
    let Value::Object(map) = part else {
        return part.clone();
    };
    if version == Version::V1 || map.contains_key("$media") || map.contains_key("kind") {
        return part.clone();
    }
    let kind = if map.contains_key("text") {
        "text"
    } else if map.contains_key("data") {
        "data"
    } else {
        return part.clone();
    };
    let mut tagged = Map::new();
    tagged.insert("kind".into(), json!(kind));
    tagged.extend(map.clone());
    Value::Object(tagged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: Value) -> MediaSpec {
        serde_json::from_value(v).unwrap()
    }

    fn render_at(version: Version, v: Value) -> Result<Value, String> {
        let media_url = |kind: &str, mime: &str| {
            Some(format!(
                "http://127.0.0.1:9/media/n/{kind}.{}",
                extension(mime)
            ))
        };
        let inputs = PartInputs {
            nonce: "0123456789abcdef-c1",
            version,
            media_url: &media_url,
        };
        render(&spec(v), &|_| None, &inputs)
    }

    #[test]
    fn a_part_is_spelled_by_its_version() {
        let v1 = render_at(Version::V1, json!({"type": "image", "mime": "image/png"})).unwrap();
        assert_eq!(v1["mediaType"], "image/png");
        assert_eq!(v1["filename"], "image.png");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(v1["raw"].as_str().unwrap())
            .unwrap();
        assert!(mmconform_media::contains_nonce(
            &bytes,
            "0123456789abcdef-c1"
        ));
        let v03 = render_at(
            Version::V03,
            json!({"type": "audio", "mime": "audio/wav", "source": "url"}),
        )
        .unwrap();
        assert_eq!(v03["kind"], "file");
        assert_eq!(v03["file"]["uri"], "http://127.0.0.1:9/media/n/audio.wav");
        assert_eq!(v03["file"]["mimeType"], "audio/wav");
    }

    #[test]
    fn malformations_are_built_as_asked() {
        let both = render_at(
            Version::V1,
            json!({"type": "image", "source": ["data", "url"], "omit": ["mediaType"]}),
        )
        .unwrap();
        assert!(
            both.get("raw").is_some()
                && both.get("url").is_some()
                && both.get("mediaType").is_none()
        );
        let other = render_at(Version::V1, json!({"type": "image", "legacy": true})).unwrap();
        assert_eq!(other["kind"], "file");
        let flat = render_at(Version::V03, json!({"type": "image", "legacy": true})).unwrap();
        assert!(flat.get("raw").is_some());
        let said = render_at(
            Version::V1,
            json!({"type": "image", "mime": "audio/wav", "stated_mime": "image/png"}),
        )
        .unwrap();
        assert_eq!(said["mediaType"], "image/png");
        assert!(render_at(Version::V1, json!({"type": "image", "source": "mediaRef"})).is_err());
    }

    #[test]
    fn plain_parts_are_tagged_at_0_3_only() {
        let text = json!({"text": "hi"});
        assert_eq!(spelled_plain(&text, Version::V1), text);
        assert_eq!(
            spelled_plain(&text, Version::V03),
            json!({"kind": "text", "text": "hi"})
        );
        let media = json!({"$media": {"type": "image"}});
        assert_eq!(spelled_plain(&media, Version::V03), media);
    }
}
