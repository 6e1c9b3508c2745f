//! What `lint` refuses in a `profile: agui` file: another protocol's endpoint, and a
//! `mediaRef` or several sources on an AG-UI part.

use super::ENDPOINT;
use crate::protocol::LintFinding;
use crate::scenario::media_objects::{media_in_body, sources};
use crate::scenario::model::{CaseSpec, WitnessExpectation};
use serde_json::Value;

pub fn lint_case(case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
    let mut out = Vec::new();
    if let Some(endpoint) = case.endpoint()
        && endpoint != ENDPOINT
    {
        out.push(LintFinding::new(
            format!("{base}/request/endpoint"),
            false,
            format!("an agui case sends to `{ENDPOINT}`, not `{endpoint}`"),
        ));
    }
    for (pointer, media) in media_in_body(raw, base) {
        check_media(&pointer, media, &mut out);
        if case.expect.witness == Some(WitnessExpectation::Reached)
            && media.get("legacy").and_then(Value::as_bool) == Some(true)
        {
            out.push(LintFinding::new(
                format!("{pointer}/legacy"),
                true,
                "`witness: reached` on a legacy `binary` part: 1.0 removed it, so no agent has to hand it to a model".into(),
            ));
        }
    }
    out
}

fn check_media(pointer: &str, media: &Value, out: &mut Vec<LintFinding>) {
    if sources(media).contains(&"mediaRef") || media.get("mediaRef").is_some() {
        out.push(LintFinding::new(
            pointer.to_string(),
            false,
            "an AG-UI part has no `mediaRef`; it takes a `file` source".into(),
        ));
    }
    if matches!(media.get("source"), Some(Value::Array(items)) if items.len() > 1) {
        out.push(LintFinding::new(
            format!("{pointer}/source"),
            false,
            "an AG-UI part has exactly one source object (write `source: []` for none)".into(),
        ));
    }
}
