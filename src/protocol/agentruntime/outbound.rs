//! `expect.run.outbound`: the media a run sends back (`media` events and
//! `result.media`) agree with `emitsOutbound`. Declared false (or not at all): there are
//! none. Declared true: each names a `mimeType` and bytes that can be read (a decodable
//! `base64`, or a `filePath` readable once the run has ended, relative to where the
//! bridge ran) and whose signature is that type. Files are read bounded and only when
//! they are regular files: a hostile bridge naming `/dev/zero` or a FIFO gets a verdict,
//! not a hang.

use super::classify::Observed;
use super::declaration::Capabilities;
use crate::outcome::AssertionResult;
use base64::Engine as _;
use serde_json::{Map, Value};
use std::io::Read as _;
use std::path::Path;

/// How much of an outbound file is read: enough for its signature and to show it
/// readable; what it holds beyond is not judged.
const READ_BYTES: u64 = 1024 * 1024;

/// Why the outbound media cannot be judged: the run declared them and sent none.
pub const NOTHING_SENT: &str =
    "emitsOutbound is true but this run sent no media back: nothing to check";

/// The outbound assertion; `None` when media are declared and none came (nothing was
/// observed, so nothing is decided: the case is blocked with [`NOTHING_SENT`]).
pub fn judge(run: &Observed, caps: &Capabilities) -> Option<AssertionResult> {
    let mut media: Vec<&Map<String, Value>> = run
        .media()
        .into_iter()
        .filter_map(|e| e.get("media").and_then(Value::as_object))
        .collect();
    let malformed_events = run.media().len() - media.len();
    let (in_result, result_shape) = result_media(run);
    let count = run.media().len() + in_result.len() + usize::from(result_shape.is_some());
    media.extend(in_result);
    if caps.emits_outbound != Some(true) {
        return Some(AssertionResult::new(
            "run.outbound",
            "no media event and no result.media (emitsOutbound is not true)".into(),
            format!("{count} media item(s)"),
            count == 0,
        ));
    }
    if count == 0 {
        return None;
    }
    let workdir = &run.finished.workdir.path;
    let mut bad: Vec<String> = media
        .iter()
        .filter_map(|m| readable(m, workdir).err())
        .collect();
    if malformed_events > 0 {
        bad.push(format!(
            "{malformed_events} media event(s) whose media is not an object"
        ));
    }
    bad.extend(result_shape);
    Some(AssertionResult::new(
        "run.outbound",
        "every media item has a mimeType and readable bytes of that type; result.media a list of them".into(),
        if bad.is_empty() {
            format!("{count} media item(s), all readable")
        } else {
            bad.join("; ")
        },
        bad.is_empty(),
    ))
}

/// `done.result.media`'s items, and what is wrong with its shape (it is a list of
/// `MediaAttachment` objects when present).
fn result_media<'a>(run: &'a Observed) -> (Vec<&'a Map<String, Value>>, Option<String>) {
    let Some(media) = run.result().and_then(|r| r.get("media")) else {
        return (Vec::new(), None);
    };
    match media {
        Value::Null => (Vec::new(), None),
        Value::Array(list) => {
            let items: Vec<&Map<String, Value>> =
                list.iter().filter_map(Value::as_object).collect();
            let strays = list.len() - items.len();
            let why = (strays > 0).then(|| {
                format!("result.media holds {strays} item(s) that are not MediaAttachment objects")
            });
            (items, why)
        }
        other => (
            Vec::new(),
            Some(format!(
                "result.media is {}, not a list of MediaAttachment",
                kind_of(other)
            )),
        ),
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "an object",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Array(_) => "a list",
        Value::Null => "null",
    }
}

fn readable(media: &Map<String, Value>, workdir: &Path) -> Result<(), String> {
    let mime = media
        .get("mimeType")
        .and_then(Value::as_str)
        .filter(|m| !m.trim().is_empty())
        .ok_or("a media item without mimeType")?;
    let bytes = if let Some(b64) = media.get("base64").and_then(Value::as_str) {
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| format!("{mime}: base64 that does not decode ({e})"))?
    } else if let Some(path) = media.get("filePath").and_then(Value::as_str) {
        read_head(&workdir.join(path))
            .map_err(|e| format!("{mime}: filePath {path} unreadable ({e})"))?
    } else {
        return Err(format!("{mime}: neither base64 nor filePath"));
    };
    match mmconform_media::sniff_mime(&bytes) {
        Some(sniffed)
            if mmconform_media::canonical_mime(sniffed)
                != mmconform_media::canonical_mime(mime) =>
        {
            Err(format!("{mime}: the bytes are {sniffed}"))
        }
        None if mmconform_media::has_signature(mime) => Err(format!(
            "{mime}: the bytes do not start with that format's signature"
        )),
        _ => Ok(()),
    }
}

/// The first [`READ_BYTES`] of a regular file.
fn read_head(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut head = Vec::new();
    file.take(READ_BYTES)
        .read_to_end(&mut head)
        .map_err(|e| e.to_string())?;
    Ok(head)
}
