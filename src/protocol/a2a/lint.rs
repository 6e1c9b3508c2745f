//! What `lint` refuses in a `profile: a2a` file: an endpoint that is not A2A's, a
//! `$media` part with a source A2A parts do not have (`mediaRef`, `file`), and a body
//! that is not an object (the profile builds the message around its `parts`).

use super::{ENDPOINT_CARD, ENDPOINT_SEND, ENDPOINT_STREAM};
use crate::protocol::LintFinding;
use crate::scenario::media_objects::{media_in_body, sources};
use crate::scenario::model::CaseSpec;
use serde_json::Value;

const ENDPOINTS: [&str; 3] = [ENDPOINT_CARD, ENDPOINT_SEND, ENDPOINT_STREAM];

pub fn lint_case(case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
    let mut out = Vec::new();
    if let Some(endpoint) = case.endpoint()
        && !ENDPOINTS.contains(&endpoint)
    {
        out.push(LintFinding::new(
            format!("{base}/request/endpoint"),
            false,
            format!(
                "an a2a case sends to one of {}, not `{endpoint}`",
                ENDPOINTS.join(", ")
            ),
        ));
    }
    if let Some(body) = raw.pointer("/request/body")
        && !body.is_object()
    {
        out.push(LintFinding::new(
            format!("{base}/request/body"),
            false,
            "an a2a body is an object: `parts` (the message's parts), and optionally `configuration`, `metadata`, `message`, `a2aVersion`".into(),
        ));
    }
    for (pointer, media) in media_in_body(raw, base) {
        let named = sources(media);
        if named.iter().any(|s| *s == "mediaRef" || *s == "file") || media.get("mediaRef").is_some()
        {
            out.push(LintFinding::new(
                pointer,
                false,
                "an A2A part carries inline bytes (`data`) or a `url`; it has no mediaRef or file source".into(),
            ));
        }
    }
    out
}
