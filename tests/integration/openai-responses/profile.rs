//! The openai-responses profile end to end: the built binary against the reference
//! server's Responses door, both models, with and without a witness; every case of the
//! pack runs against one of them, and none fails.

use crate::common;

fn reference(extra: &[&str]) -> common::RunResult {
    common::run_reference("openai-responses", extra)
}

#[test]
fn the_multimodal_model_passes_every_positive_and_refuses_every_malformation() {
    let r = reference(&[]);
    r.assert_clean("openai-responses.");
    for id in [
        "openai-responses.string-input.stream",
        "openai-responses.accept.image-data[image/webp]",
        "openai-responses.accept.image-http[image/jpeg]",
        "openai-responses.accept.image-file-id",
        "openai-responses.accept.image-detail[high]",
        "openai-responses.accept.file-id",
        "openai-responses.accept.file-url",
        "openai-responses.accept.interleaved",
        "openai-responses.malformed.refused.object-image-url",
        "openai-responses.malformed.refused.chat-style-part",
        "openai-responses.malformed.refused.empty-input",
    ] {
        assert_eq!(r.outcome(id), "pass", "{id}");
    }
    assert_eq!(
        r.outcome("openai-responses.refuse.undeclared[image]"),
        "skip"
    );
    assert_eq!(
        r.classification("openai-responses.accept.stream[file]"),
        "completed"
    );
    assert_eq!(
        r.classification("openai-responses.malformed.refused.file-without-source"),
        "rejected"
    );
}

#[test]
fn the_text_model_refuses_every_kind_with_the_openai_envelope() {
    let r = reference(&["--model", "reference-text"]);
    r.assert_clean("openai-responses.");
    for kind in ["image", "audio", "file"] {
        for case in ["undeclared", "undeclared.stream", "error-envelope"] {
            let id = format!("openai-responses.refuse.{case}[{kind}]");
            assert_eq!(r.outcome(&id), "pass", "{id}");
        }
    }
}

#[test]
fn with_a_witness_positives_reach_the_model_and_malformations_do_not() {
    for model in ["reference-multimodal", "reference-text"] {
        let r = reference(&["--model", model, "--witness", "127.0.0.1:0"]);
        r.assert_clean("openai-responses.");
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
        witnessed >= 15,
        "{witnessed} positives judged on the witness"
    );
}
