//! Media the reference runtime sends back when it declares `emitsOutbound: true`, as a
//! CLI runtime forwards the files its agent made: a PNG written to a file (`filePath`,
//! absolute) and a JPEG inline (`base64`), each as a `media` event and both again in
//! `result.media`. Each outbound fault spoils exactly one thing about them.

use super::{RuntimeConfig, RuntimeFault};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};
use std::path::PathBuf;

const FILE_NAME: &str = "reference-outbound.png";

/// The media a run sends back (none unless it declares them, or a fault makes it
/// send them anyway), each a `MediaAttachment`.
pub fn items(config: &RuntimeConfig, session: &str) -> Vec<Value> {
    if config.faulted(RuntimeFault::EmitsUndeclaredMedia) {
        let png = mmconform_media::generate("image/png", session);
        return vec![json!({"mimeType": "image/png", "base64": STANDARD.encode(png)})];
    }
    if !config.emits_outbound {
        return Vec::new();
    }
    vec![written(config, session), inline(config, session)]
}

/// `done.result.media` for `items`: the list, or under a fault its first item alone.
pub fn in_result(config: &RuntimeConfig, items: &[Value]) -> Option<Value> {
    if items.is_empty() || config.faulted(RuntimeFault::EmitsUndeclaredMedia) {
        return None;
    }
    if config.faulted(RuntimeFault::ResultMediaNotList) {
        return items.first().cloned();
    }
    Some(Value::Array(items.to_vec()))
}

/// The PNG, as a file in the directory the runtime writes its output to.
fn written(config: &RuntimeConfig, session: &str) -> Value {
    let path = outbound_dir(config).join(FILE_NAME);
    let png = mmconform_media::generate("image/png", session);
    let wrote = if config.faulted(RuntimeFault::OutboundFileMissing) {
        Ok(())
    } else {
        std::fs::write(&path, png)
    };
    if let Err(e) = wrote {
        eprintln!("reference runtime: cannot write {}: {e}", path.display());
    }
    let mut item = json!({
        "mimeType": "image/png",
        "filePath": path.to_string_lossy(),
        "fileName": FILE_NAME,
    });
    if config.faulted(RuntimeFault::OutboundWithoutMime)
        && let Some(map) = item.as_object_mut()
    {
        map.remove("mimeType");
    }
    item
}

/// The JPEG, inline.
fn inline(config: &RuntimeConfig, session: &str) -> Value {
    let jpeg = mmconform_media::generate("image/jpeg", session);
    let base64 = if config.faulted(RuntimeFault::OutboundBadBase64) {
        "this is not base64: %%%".to_string()
    } else {
        STANDARD.encode(jpeg)
    };
    let mime = if config.faulted(RuntimeFault::OutboundMislabelled) {
        "image/png"
    } else {
        "image/jpeg"
    };
    json!({"mimeType": mime, "base64": base64, "fileName": "reference-outbound.jpg"})
}

fn outbound_dir(config: &RuntimeConfig) -> PathBuf {
    config
        .outbound_dir
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(std::env::temp_dir)
}
