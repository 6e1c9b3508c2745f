//! The `$media` objects of a case, for the checks each protocol makes of its own files
//! (what is foreign to it: another protocol's part spellings and sources).

use serde_json::Value;

/// Every `$media` object in the case's request body, with its JSON pointer.
pub fn media_in_body<'a>(raw: &'a Value, base: &str) -> Vec<(String, &'a Value)> {
    let mut media = Vec::new();
    if let Some(body) = raw.pointer("/request/body") {
        media_objects(body, format!("{base}/request/body"), &mut media);
    }
    media
}

/// Every `$media` object under `value`, with its JSON pointer.
fn media_objects<'a>(value: &'a Value, pointer: String, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(map) => {
            if let Some(media) = map.get("$media") {
                out.push((format!("{pointer}/$media"), media));
            }
            for (k, v) in map {
                media_objects(
                    v,
                    format!("{pointer}/{}", super::position::escape_token(k)),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                media_objects(item, format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The source kinds a `$media` object names.
pub fn sources(media: &Value) -> Vec<&str> {
    match media.get("source") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}
