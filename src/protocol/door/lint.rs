//! What `lint` refuses in a `profile: openai` file: another protocol's endpoint,
//! openwop's `mediaRef`, several sources on one part, and a `detail` on a part that is
//! not an image.

use crate::protocol::LintFinding;
use crate::scenario::media_objects::{media_in_body, sources};
use crate::scenario::model::CaseSpec;
use serde_json::Value;

/// The checks for a door whose cases send to `own` (`profile`'s endpoint).
pub fn lint_door(
    own: &str,
    profile: &str,
    case: &CaseSpec,
    raw: &Value,
    base: &str,
) -> Vec<LintFinding> {
    let mut out = Vec::new();
    if let Some(endpoint) = case.endpoint()
        && endpoint != own
    {
        out.push(LintFinding::new(
            format!("{base}/request/endpoint"),
            false,
            format!("an {profile} case sends to `{own}`, not `{endpoint}`"),
        ));
    }
    if case.validate.is_some() {
        out.push(LintFinding::new(
            format!("{base}/validate"),
            true,
            format!("an {profile} case sends a request; it has no offline `validate` cases"),
        ));
    }
    for (pointer, media) in media_in_body(raw, base) {
        check_media(&pointer, media, &mut out);
    }
    out
}

fn check_media(pointer: &str, media: &Value, out: &mut Vec<LintFinding>) {
    if sources(media).contains(&"mediaRef") || media.get("mediaRef").is_some() {
        out.push(LintFinding::new(
            pointer.to_string(),
            false,
            "a door's part has no `mediaRef`; a file part takes a `file` (file_id) source".into(),
        ));
    }
    // A file given both ways (`[data, file]`) is the one shape error two sources spell.
    let file_both_ways = matches!(
        media.get("type").and_then(Value::as_str),
        Some("file" | "document")
    ) && {
        let mut given = sources(media);
        given.sort_unstable();
        given == ["data", "file"]
    };
    if matches!(media.get("source"), Some(Value::Array(items)) if items.len() > 1)
        && !file_both_ways
    {
        out.push(LintFinding::new(
            format!("{pointer}/source"),
            false,
            "a door's part has exactly one source (a file may have two: [data, file])".into(),
        ));
    }
    if media.get("legacy").is_some() {
        out.push(LintFinding::new(
            format!("{pointer}/legacy"),
            true,
            "`legacy` (a seed-proposal part) is no door's part; write the part meant".into(),
        ));
    }
}
