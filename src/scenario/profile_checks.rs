//! Checks that a case speaks its file's protocol (`profile:`): each protocol says what
//! is foreign to it ([`Protocol::lint_case`](crate::protocol::Protocol::lint_case)),
//! since a case mixing two would be planned into a run that cannot send it. `lint`
//! refuses it with the position of the offending key.

use super::checks::Finding;
use super::model::CaseSpec;
use crate::protocol;
use serde_json::Value;

/// Findings for one case of a file whose `profile:` is `profile`.
pub fn check(case: &CaseSpec, raw: &Value, base: &str, profile: &str, out: &mut Vec<Finding>) {
    let Some(protocol) = protocol::by_name(profile) else {
        // The scenario schema names the protocols; an unknown one is reported there.
        return;
    };
    for finding in protocol.lint_case(case, raw, base) {
        out.push((finding.pointer, finding.key, finding.message));
    }
}

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
