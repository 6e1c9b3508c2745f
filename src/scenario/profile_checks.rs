//! Checks that a case speaks its file's profile: openwop endpoints and part spellings in
//! `profile: openwop` files, the AG-UI run endpoint, `file` sources and stream/echo
//! expectations in `profile: agui` files. A mix would be planned into a run that cannot
//! send it, so `lint` refuses it with the position of the offending key.

use super::checks::Finding;
use super::model::CaseSpec;
use crate::profile::agui;
use serde_json::Value;

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

fn sources(media: &Value) -> Vec<&str> {
    match media.get("source") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn check_agui_media(pointer: &str, media: &Value, out: &mut Vec<Finding>) {
    if sources(media).contains(&"mediaRef") || media.get("mediaRef").is_some() {
        out.push((
            pointer.to_string(),
            false,
            "`mediaRef` is openwop's; an AG-UI part takes a `file` source".into(),
        ));
    }
    if matches!(media.get("source"), Some(Value::Array(items)) if items.len() > 1) {
        out.push((
            format!("{pointer}/source"),
            false,
            "an AG-UI part has exactly one source object (write `source: []` for none)".into(),
        ));
    }
}

fn check_openwop_media(pointer: &str, media: &Value, out: &mut Vec<Finding>) {
    for key in ["file", "legacy"] {
        if media.get(key).is_some() {
            out.push((
                format!("{pointer}/{key}"),
                true,
                format!("`$media.{key}` is for AG-UI parts (profile: agui)"),
            ));
        }
    }
    if sources(media).contains(&"file") {
        out.push((
            format!("{pointer}/source"),
            false,
            "a `file` source is AG-UI's; openwop parts use mediaRef".into(),
        ));
    }
}

/// Findings for one case of a file whose `profile:` is `profile`.
pub fn check(case: &CaseSpec, raw: &Value, base: &str, profile: &str, out: &mut Vec<Finding>) {
    let agui_file = profile == agui::PROFILE;
    if let Some(endpoint) = case.endpoint() {
        let agui_endpoint = endpoint == agui::ENDPOINT;
        if agui_file != agui_endpoint {
            let message = if agui_file {
                format!(
                    "an agui case sends to `{}`, not `{endpoint}`",
                    agui::ENDPOINT
                )
            } else {
                format!("`{endpoint}` is the AG-UI endpoint; this file's profile is {profile}")
            };
            out.push((format!("{base}/request/endpoint"), false, message));
        }
    }
    if !agui_file {
        for key in ["stream", "echo"] {
            if raw.pointer(&format!("/expect/{key}")).is_some() {
                out.push((
                    format!("{base}/expect/{key}"),
                    true,
                    format!("`expect.{key}` judges AG-UI event streams (profile: agui)"),
                ));
            }
        }
    }
    let mut media = Vec::new();
    if let Some(body) = raw.pointer("/request/body") {
        media_objects(body, format!("{base}/request/body"), &mut media);
    }
    for (pointer, value) in media {
        if agui_file {
            check_agui_media(&pointer, value, out);
        } else {
            check_openwop_media(&pointer, value, out);
        }
    }
}
