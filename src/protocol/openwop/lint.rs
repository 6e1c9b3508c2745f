//! What `lint` refuses in a `profile: openwop` file: another protocol's endpoint,
//! stream and echo expectations, and AG-UI part spellings.

use crate::protocol::LintFinding;
use crate::scenario::media_objects::{media_in_body, sources};
use crate::scenario::model::CaseSpec;
use serde_json::Value;

pub fn lint_case(case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
    let mut out = Vec::new();
    if let Some(endpoint) = case.endpoint()
        && !super::ENDPOINTS.contains(&endpoint)
    {
        out.push(LintFinding::new(
            format!("{base}/request/endpoint"),
            false,
            format!(
                "`{endpoint}` is not an openwop endpoint ({}); this file's profile is openwop",
                super::ENDPOINTS.join(", ")
            ),
        ));
    }
    for key in ["stream", "echo"] {
        if raw.pointer(&format!("/expect/{key}")).is_some() {
            out.push(LintFinding::new(
                format!("{base}/expect/{key}"),
                true,
                format!("`expect.{key}` judges AG-UI event streams (profile: agui)"),
            ));
        }
    }
    if case.expect.witness.is_some()
        && let Some(endpoint) = case.endpoint()
        && endpoint != "ai-call"
    {
        out.push(LintFinding::new(
            format!("{base}/expect/witness"),
            true,
            format!("`expect.witness` needs an ai-call case: only ai/call goes on to a model, `{endpoint}` never does"),
        ));
    }
    out.extend(crate::protocol::usage_outside_openai(case, base));
    for (pointer, media) in media_in_body(raw, base) {
        check_media(&pointer, media, &mut out);
    }
    out
}

fn check_media(pointer: &str, media: &Value, out: &mut Vec<LintFinding>) {
    for key in ["file", "legacy"] {
        if media.get(key).is_some() {
            out.push(LintFinding::new(
                format!("{pointer}/{key}"),
                true,
                format!("`$media.{key}` is for AG-UI parts (profile: agui)"),
            ));
        }
    }
    if sources(media).contains(&"file") {
        out.push(LintFinding::new(
            format!("{pointer}/source"),
            false,
            "a `file` source is AG-UI's; openwop parts use mediaRef".into(),
        ));
    }
}
