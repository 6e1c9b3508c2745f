//! The openai-responses profile end to end: the built binary against the reference
//! server's Responses door, both models, with and without a witness; every case of the
//! pack runs against one of them, and none fails.

use crate::common::{self, run};

fn reference(extra: &[&str]) -> common::RunResult {
    let mut args = vec!["--profile", "openai-responses", "--target", "reference"];
    args.extend_from_slice(extra);
    run(&args)
}

fn clean(r: &common::RunResult) {
    assert_eq!(r.code, 0, "{}", r.context());
    for outcome in ["fail", "warn", "blocked", "error"] {
        assert!(r.ids_with(outcome).is_empty(), "{outcome}: {}", r.context());
    }
    assert!(
        r.cases()
            .iter()
            .all(|c| c["id"].as_str().unwrap().starts_with("openai-responses."))
    );
}

fn bucket(r: &common::RunResult, id: &str) -> String {
    r.cases()
        .into_iter()
        .find(|c| c["id"] == id)
        .and_then(|c| c["stream"]["classification"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("{id} has no classification"))
}

#[test]
fn the_multimodal_model_passes_every_positive_and_refuses_every_malformation() {
    let r = reference(&[]);
    clean(&r);
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
        bucket(&r, "openai-responses.accept.stream[file]"),
        "completed"
    );
    assert_eq!(
        bucket(&r, "openai-responses.malformed.refused.file-without-source"),
        "rejected"
    );
}

#[test]
fn the_text_model_refuses_every_kind_with_the_openai_envelope() {
    let r = reference(&["--model", "reference-text"]);
    clean(&r);
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
        clean(&r);
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
