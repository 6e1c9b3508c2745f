//! What every door's part renderer draws on (each door's `part.rs` spells the part):
//! the bytes of a scenario's `$media` generated and stamped with the case nonce (so a
//! witness can find them again), its stated MIME type, base64, URL or file id, the
//! audio format and filename a part names, an unknown part type, and a `type` left out.

use crate::request::extension::extension;
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
pub struct Rendered {
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

pub fn rendered(
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
            "a door's part has exactly one source (a file may have two: [data, file])".into(),
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
            return Err("a door's part has no `mediaRef`; a file part takes a file_id".into());
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

pub type Text<'a> = dyn Fn(&str) -> Result<String, String> + 'a;

/// The `input_audio.format`: `$media.format`, else the one the stated type names;
/// `None` when the case leaves it out.
pub fn audio_format(
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
pub fn filename(
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
pub fn unknown_part(part_type: &str, base64: &str) -> Value {
    let mut part = Map::new();
    part.insert("type".into(), json!(part_type));
    part.insert(part_type.into(), json!({"data": base64}));
    Value::Object(part)
}

/// `part` without its `type` when the case leaves it out (the rest in order).
pub fn without_type(mut part: Value, omitted: bool) -> Value {
    if omitted && let Some(object) = part.as_object_mut() {
        object.shift_remove("type");
    }
    part
}
