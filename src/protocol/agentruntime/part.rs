//! `$media` as a #385 `MediaAttachment`: `{mimeType, fileName, filePath?, base64?}`.
//! `attach` says how the bytes travel: `filePath` (a file mmconform wrote in the case's
//! media directory, readable by the bridge), `base64`, or `both`. The bytes are the
//! generated, nonce-stamped file of the MIME type, as every protocol sends them.

use crate::scenario::model::MediaSpec;
use crate::scenario::template;
use base64::Engine as _;
use mmconform_media as media;
use serde_json::{Map, Value, json};
use std::path::Path;

/// How an attachment carries its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attach {
    FilePath,
    Base64,
    Both,
}

impl Attach {
    pub fn parse(raw: Option<&str>) -> Result<Attach, String> {
        match raw {
            None | Some("base64") => Ok(Attach::Base64),
            Some("filePath") => Ok(Attach::FilePath),
            Some("both") => Ok(Attach::Both),
            Some(other) => Err(format!(
                "`attach: {other}` is none of filePath, base64, both"
            )),
        }
    }
}

/// The file extension a generated MIME type is written with.
fn extension(mime: &str) -> &'static str {
    crate::request::extension::extension(mime)
}

/// Renders one attachment, writing its file into `dir` when it carries a `filePath`.
/// `index` keeps the file names of one case apart.
pub fn render(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<Value>,
    nonce: &str,
    dir: &Path,
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
    let attach = Attach::parse(spec.attach.as_deref().map(text).transpose()?.as_deref())?;
    let file_name = match &spec.filename {
        Some(name) => text(name)?,
        None => format!("{kind}-{index}.{}", extension(&mime)),
    };
    let mut out = Map::new();
    if !spec.omit.iter().any(|o| o == "mimeType") {
        out.insert("mimeType".into(), json!(mime));
    }
    out.insert("fileName".into(), json!(file_name));
    if matches!(attach, Attach::FilePath | Attach::Both) {
        let path = dir.join(&file_name);
        std::fs::write(&path, &bytes)
            .map_err(|e| format!("cannot write the attachment {}: {e}", path.display()))?;
        out.insert("filePath".into(), json!(path.to_string_lossy()));
    }
    if matches!(attach, Attach::Base64 | Attach::Both) {
        let b64 = base64::engine::general_purpose::STANDARD.encode(&bytes);
        out.insert("base64".into(), json!(b64));
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(attach: &str) -> MediaSpec {
        serde_json::from_value(json!({"type": "image", "mime": "image/png", "attach": attach}))
            .unwrap()
    }

    #[test]
    fn each_form_carries_the_same_stamped_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let none = |_: &str| None;
        let png = media::generate("image/png", "n1");
        let b64 = render(&spec("base64"), &none, "n1", dir.path(), 0).unwrap();
        assert!(b64.get("filePath").is_none());
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(b64["base64"].as_str().unwrap())
            .unwrap();
        assert_eq!(decoded, png);
        let file = render(&spec("filePath"), &none, "n1", dir.path(), 1).unwrap();
        assert!(file.get("base64").is_none());
        assert_eq!(
            std::fs::read(file["filePath"].as_str().unwrap()).unwrap(),
            png
        );
        let both = render(&spec("both"), &none, "n1", dir.path(), 2).unwrap();
        assert!(both.get("base64").is_some() && both.get("filePath").is_some());
        assert_eq!(both["mimeType"], "image/png");
        assert!(render(&spec("url"), &none, "n1", dir.path(), 3).is_err());
    }
}
