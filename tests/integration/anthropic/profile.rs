//! The anthropic profile end to end: the built binary against the Anthropic reference
//! server, both models, with and without a witness; every case of the pack runs
//! against one of them, and none fails. The token travels as `x-api-key` and never
//! shows in a report.

use crate::common::{self, run_with_env};

fn reference(extra: &[&str]) -> common::RunResult {
    common::run_reference("anthropic", extra)
}

#[test]
fn the_multimodal_model_passes_every_positive_and_refuses_every_malformation() {
    let r = reference(&[]);
    r.assert_clean("anthropic.");
    for id in [
        "anthropic.string-content.stream",
        "anthropic.accept.image-base64[image/gif]",
        "anthropic.accept.image-url[image/jpeg]",
        "anthropic.accept.document-pdf",
        "anthropic.accept.document-text",
        "anthropic.accept.document-url",
        "anthropic.accept.interleaved",
        "anthropic.malformed.refused.media-type-mismatch",
        "anthropic.malformed.refused.media-type-outside-set",
        "anthropic.malformed.refused.empty-content",
        "anthropic.malformed.error-envelope",
    ] {
        assert_eq!(r.outcome(id), "pass", "{id}");
    }
    assert_eq!(r.outcome("anthropic.refuse.undeclared[image]"), "skip");
    assert_eq!(
        r.classification("anthropic.accept.stream[document]"),
        "completed"
    );
    assert_eq!(
        r.classification("anthropic.malformed.refused.unknown-block-type"),
        "rejected"
    );
}

#[test]
fn the_text_model_refuses_images_and_documents_in_the_anthropic_envelope() {
    let r = reference(&["--model", "reference-claude-text"]);
    r.assert_clean("anthropic.");
    for kind in ["image", "file"] {
        for case in ["undeclared", "undeclared.stream", "error-envelope"] {
            let id = format!("anthropic.refuse.{case}[{kind}]");
            assert_eq!(r.outcome(&id), "pass", "{id}");
        }
    }
}

#[test]
fn with_a_witness_positives_reach_the_model_and_malformations_do_not() {
    for model in ["reference-claude-multimodal", "reference-claude-text"] {
        let r = reference(&["--model", model, "--witness", "127.0.0.1:0"]);
        r.assert_clean("anthropic.");
    }
    let r = reference(&["--witness", "127.0.0.1:0"]);
    let witnessed = r
        .cases()
        .into_iter()
        .filter(|c| c["outcome"] == "pass")
        .filter(|c| {
            c["assertions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|a| a["check"] == "witness.reached"))
        })
        .count();
    assert!(
        witnessed >= 12,
        "{witnessed} positives judged on the witness"
    );
}

#[test]
fn the_key_travels_as_x_api_key_and_is_never_shown() {
    let secret = "sk-ant-mmconform-integration-secret";
    let env = [("ANTHROPIC_API_KEY", secret)];
    let r = run_with_env(&["--profile", "anthropic", "--target", "reference"], &env);
    r.assert_clean("anthropic.");
    assert_eq!(r.outcome("anthropic.auth.requires-token"), "pass");
    let report = r.report.as_ref().expect("a JSON report").to_string();
    assert!(!report.contains(secret), "the key leaked into the report");
    assert!(report.contains("x-api-key"), "no x-api-key header recorded");
    assert!(!r.stdout.contains(secret) && !r.stderr.contains(secret));
}
