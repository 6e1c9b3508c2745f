//! Faithful transformations: a host or runtime that re-encodes or scales the pictures
//! it hands its model delivers them (`witness: reached` passes, naming the
//! transformation), and one that hands its model `[image]` does not; an agent that
//! resizes the large images its MCP tools return delivers them (`tool.delivery`). These
//! variants are in the fault tables' `elsewhere` lists: no case may fail against them.

use crate::common::{RunResult, run};
use serde_json::Value;

const WITNESS: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "2"];

/// `witness.reached` of case `id`: whether it passed, and what it says.
fn reached(result: &RunResult, id: &str) -> (bool, String) {
    assertion_of(result, id, "witness.reached")
}

/// Assertion `check` of case `id`: whether it passed, and what it says.
fn assertion_of(result: &RunResult, id: &str, check: &str) -> (bool, String) {
    let case = result
        .cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no {id}\n{}", result.context()));
    let assertion = case["assertions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| a["check"] == check)
        .cloned()
        .unwrap_or_else(|| panic!("{id} has no {check}: {case:#}"));
    (
        assertion["passed"] == Value::Bool(true),
        assertion["actual"].as_str().unwrap_or("").to_string(),
    )
}

fn with(base: &[&str], fault: &str) -> RunResult {
    let mut args = base.to_vec();
    args.extend_from_slice(&["--reference-fault", fault]);
    args.extend_from_slice(WITNESS);
    run(&args)
}

#[test]
fn an_agentruntime_that_re_encodes_images_delivers_them_and_one_that_sends_a_placeholder_does_not()
{
    let base = ["--profile", "agentruntime", "--target", "reference"];
    let reencodes = with(&base, "reencodes-images");
    assert_eq!(reencodes.code, 0, "{}", reencodes.context());
    let (passed, note) = reached(&reencodes, "agentruntime.delivery[image/gif,base64]");
    assert!(passed, "{note}");
    assert!(
        note.contains("transformed: image/gif ") && note.contains(" -> image/png "),
        "{note}"
    );
    assert!(note.ends_with("same picture"), "{note}");
    let (_, note) = reached(&reencodes, "agentruntime.delivery[image/png,filePath]");
    assert!(note.contains("-> image/jpeg"), "{note}");

    let placeholder = with(&base, "image-placeholder");
    assert_eq!(placeholder.code, 1, "{}", placeholder.context());
    let (passed, actual) = reached(&placeholder, "agentruntime.delivery[image/gif,base64]");
    assert!(!passed && actual.contains("(lost)"), "{actual}");
    assert_eq!(
        placeholder.outcome("agentruntime.delivery[image/gif,base64]"),
        "fail"
    );
}

#[test]
fn an_openwop_host_that_re_encodes_or_scales_images_delivers_them() {
    for (fault, change) in [
        ("forward-reencodes-images", "-> image/jpeg"),
        ("forward-downscales-images", "104x104 -> 52x52"),
    ] {
        let result = with(&["--target", "reference"], fault);
        assert_eq!(result.code, 0, "{fault}: {}", result.context());
        let (passed, note) = reached(&result, "openwop.rfc0091.advertised-inline-accepted[image]");
        assert!(passed, "{fault}: {note}");
        assert!(
            note.contains("transformed: image/png ") && note.contains(change),
            "{fault}: {note}"
        );
    }
}

#[test]
fn an_agent_that_resizes_the_large_images_its_tools_return_delivers_them() {
    for profile in ["acp", "agentruntime"] {
        let filter = format!("{profile}.tool-media*");
        let base = [
            "--profile",
            profile,
            "--target",
            "reference",
            "--filter",
            &filter,
        ];
        let result = with(&base, "resizes-large-tool-images");
        assert_eq!(result.code, 0, "{profile}: {}", result.context());
        let id = format!("{profile}.tool-media.large-png");
        let (passed, note) = assertion_of(&result, &id, "tool.delivery");
        assert!(passed, "{profile}: {note}");
        assert!(
            note.contains("transformed") && note.contains("2080x520 -> 2000x500"),
            "{profile}: {note}"
        );
        let (passed, note) = assertion_of(
            &result,
            &format!("{profile}.tool-media.png"),
            "tool.delivery",
        );
        assert!(passed && note.starts_with("intact"), "{profile}: {note}");
    }
}
