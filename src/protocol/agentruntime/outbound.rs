//! `expect.run.outbound`: the media a run sends back (`media` events and
//! `result.media`) agree with `emitsOutbound`. Declared false (or not at all): there are
//! none. Declared true: each names a `mimeType` and bytes that can be read (a decodable
//! `base64`, or a `filePath` readable once the run has ended inside the folder the
//! bridge ran in, `outbound_file.rs`) and whose signature is that type. The files are
//! read before judging ([`fetch`]), off the async runtime and under the case's timeout.

use super::attachment::{Attachment, Source};
use super::classify::Observed;
use super::declaration::Capabilities;
use super::outbound_file::{self, FileRead};
use crate::outcome::AssertionResult;
use crate::stop::Stop;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// Why the outbound media cannot be judged: the run declared them and sent none.
pub const NOTHING_SENT: &str =
    "emitsOutbound is true but this run sent no media back: nothing to check";

/// Outbound items judged at most (each event's and `result.media`'s): a run that sends
/// more cannot be passed on the first ones alone.
pub const MAX_ITEMS: usize = 100;

/// What reading each named file gave, by the path as the runtime wrote it.
pub type Files = BTreeMap<String, FileRead>;

/// Reads every file the run's outbound items name (at most [`MAX_ITEMS`] of them),
/// within `timeout` for all of them and the run's stop.
pub async fn fetch(run: &Observed<'_>, timeout: Duration, stop: &Stop) -> Files {
    let deadline = tokio::time::Instant::now() + timeout;
    let (in_result, _) = result_media(run);
    let paths: Vec<String> = run
        .media()
        .into_iter()
        .flatten()
        .chain(in_result.iter())
        .filter_map(|item| match &item.source {
            Source::FilePath(path) => Some(path.clone()),
            _ => None,
        })
        .take(MAX_ITEMS)
        .collect();
    let mut files = Files::new();
    for path in paths {
        if files.contains_key(&path) {
            continue;
        }
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let read = outbound_file::read_head(&run.finished.workdir.path, &path, left, stop).await;
        files.insert(path, read);
    }
    files
}

/// Why the files could not all be judged (our timeout, the run's stop), if so.
pub fn unjudged(files: &Files) -> Option<String> {
    files.iter().find_map(|(path, read)| match read {
        FileRead::Unjudged(why) => Some(format!(
            "outbound filePath {}: {why}; not judged",
            super::event::clip(path, 200)
        )),
        _ => None,
    })
}

/// The outbound assertion; `None` when media are declared and none came (nothing was
/// observed, so nothing is decided: the case is blocked with [`NOTHING_SENT`]).
pub fn judge(run: &Observed, caps: &Capabilities, files: &Files) -> Option<AssertionResult> {
    let events = run.media();
    let malformed_events = events.iter().filter(|m| m.is_none()).count();
    let (in_result, result_shape) = result_media(run);
    let count = events.len() + in_result.len() + usize::from(result_shape.is_some());
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
    let items: Vec<&Attachment> = events.into_iter().flatten().chain(&in_result).collect();
    let judged = items.len().min(MAX_ITEMS);
    let mut bad: Vec<String> = items[..judged]
        .iter()
        .filter_map(|m| readable(m, files).err())
        .collect();
    if malformed_events > 0 {
        bad.push(format!(
            "{malformed_events} media event(s) whose media is not an object"
        ));
    }
    bad.extend(result_shape);
    if bad.is_empty() && judged < items.len() {
        // The rest were never looked at: not a pass.
        return None;
    }
    let readable_all = bad.is_empty();
    Some(AssertionResult::new(
        "run.outbound",
        "every media item has a mimeType and readable bytes of that type; result.media a list of them".into(),
        if readable_all {
            format!("{count} media item(s), all readable")
        } else {
            crate::quoted::list(bad, "; ")
        },
        readable_all,
    ))
}

/// Why a run with more items than are judged, all of those fine, is not passed.
pub fn too_many(run: &Observed) -> Option<String> {
    let count = run.media().len() + result_media(run).0.len();
    (count > MAX_ITEMS).then(|| {
        format!(
            "{} outbound media items: the first {MAX_ITEMS} are judged and were readable; the rest are not (memory bound)",
            crate::quoted::thousands(count)
        )
    })
}

/// `done.result.media`'s items (the first [`MAX_ITEMS`]), and what is wrong with its
/// shape (it is a list of `MediaAttachment` objects when present).
fn result_media(run: &Observed) -> (Vec<Attachment>, Option<String>) {
    let Some(media) = run.result().and_then(|r| r.get("media")) else {
        return (Vec::new(), None);
    };
    match media {
        Value::Null => (Vec::new(), None),
        Value::Array(list) => {
            let items: Vec<Attachment> = list
                .iter()
                .filter_map(Value::as_object)
                .take(MAX_ITEMS)
                .map(Attachment::of)
                .collect();
            let strays = list.iter().filter(|v| !v.is_object()).count();
            let why = (strays > 0).then(|| {
                format!(
                    "result.media holds {} item(s) that are not MediaAttachment objects",
                    crate::quoted::thousands(strays)
                )
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

fn readable(media: &Attachment, files: &Files) -> Result<(), String> {
    let mime = media
        .mime
        .as_deref()
        .ok_or("a media item without mimeType")?;
    let bytes = match &media.source {
        Source::Base64(Ok(head)) => head,
        Source::Base64(Err(e)) => return Err(format!("{mime}: base64 that does not decode ({e})")),
        Source::FilePath(path) => {
            let shown = super::event::clip(path, 200);
            match files.get(path) {
                Some(FileRead::Head(head)) => head,
                Some(FileRead::Refused(why)) => {
                    return Err(format!("{mime}: filePath {shown}: {why}"));
                }
                Some(FileRead::Unjudged(why)) => {
                    return Err(format!("{mime}: filePath {shown}: {why}"));
                }
                None => return Err(format!("{mime}: filePath {shown}: not read")),
            }
        }
        Source::PathTooLong(n) => {
            return Err(format!(
                "{mime}: a filePath of {n} bytes, which names no file"
            ));
        }
        Source::Neither => return Err(format!("{mime}: neither base64 nor filePath")),
    };
    match mmconform_media::sniff_mime(bytes) {
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
