//! The OpenAI fault table: every single-fault variant of the OpenAI-compatible
//! reference server breaks one requirement, and the case that checks it must catch it
//! (see `crate::fault_table` for what a row asserts). Faults of the text-only model's
//! refusals run with `--model reference-text`; the rest against the multimodal model
//! `--target reference` serves by default; the forwarding faults with `--witness`, which
//! the embedded server forwards to. The other way round (every
//! openai case is caught by some fault under some declaration) is `mmconform
//! calibrate`'s job.

use crate::fault_table::{
    MUST, Row, SHOULD, Table, TokenCheck, check_coverage, check_every_row, check_ignored_auth,
};

const TABLE: Table = Table {
    profile: "openai",
    base: &["--profile", "openai", "--target", "reference"],
    rows: ROWS,
    elsewhere: &[
        "ignores-auth", // ignored_auth_is_caught_when_a_token_is_configured
    ],
};

const TEXT: &[&str] = &["--model", "reference-text"];
/// The forwarding faults need the server to forward to a witness (`expect.witness`).
const WITNESS: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "1"];
const TEXT_WITNESS: &[&str] = &[
    "--model",
    "reference-text",
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "1",
];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("ignores-image-on-text-model", TEXT, "openai.refuse.undeclared[image]", MUST),
    ("ignores-image-on-text-model", TEXT, "openai.refuse.undeclared.stream[image]", MUST),
    ("ignores-image-on-text-model", TEXT, "openai.refuse.error-envelope[image]", SHOULD),
    ("drops-unsupported-parts", TEXT, "openai.refuse.undeclared[audio]", MUST),
    ("drops-unsupported-parts", TEXT, "openai.refuse.undeclared[file]", MUST),
    // No witness: only usage.prompt_tokens shows the parts never reached the model.
    ("drops-media", &[], "openai.usage.media-counted[image,image/png]", SHOULD),
    ("drops-media", &[], "openai.usage.media-counted[file,application/pdf]", SHOULD),
    ("crash-on-invalid-base64", &[], "openai.malformed.no-crash.invalid-base64", MUST),
    ("crash-on-invalid-base64", &[], "openai.malformed.refused.invalid-base64", SHOULD),
    ("lax-base64", &[], "openai.malformed.refused.base64-noise", SHOULD),
    ("accepts-non-http-url", &[], "openai.malformed.refused.non-http-image-url[file]", SHOULD),
    ("accepts-non-http-url", WITNESS, "openai.malformed.no-crash.non-http-image-url", MUST),
    ("invents-filename", &[], "openai.malformed.refused.file-without-filename", SHOULD),
    ("invents-filename", WITNESS, "openai.malformed.no-crash.file-without-filename", SHOULD),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.empty-content", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.image-url-bare-string", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.audio-unknown-format", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.part-without-source", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.file-with-two-sources", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.content-not-string-or-array", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.empty-messages", MUST),
    ("crash-on-malformed", &[], "openai.malformed.no-crash.base64-noise", MUST),
    ("accepts-unknown-part-type", &[], "openai.malformed.refused.unknown-part-type", SHOULD),
    ("capability-refusal-404", TEXT, "openai.refuse.undeclared[image]", MUST),
    ("capability-refusal-404", TEXT, "openai.refuse.undeclared.stream[file]", MUST),
    ("error-body-not-openai", TEXT, "openai.refuse.error-envelope[audio]", SHOULD),
    ("stream-without-done", &[], "openai.string-content.stream", MUST),
    ("stream-without-done", &[], "openai.accept.stream[image]", MUST),
    ("stream-chunk-not-json", &[], "openai.accept.stream[audio]", MUST),
    ("refuses-string-content", TEXT, "openai.string-content", MUST),
    ("refuses-string-content", &[], "openai.string-content.stream", MUST),
    ("refuses-text-only-array", &[], "openai.text-parts", MUST),
    ("refuses-detail", &[], "openai.accept.image-detail[low]", MUST),
    ("refuses-detail", &[], "openai.accept.interleaved", MUST),
    ("refuses-http-image-url", &[], "openai.accept.image-http[image/png]", MUST),
    ("accepts-png-only", &[], "openai.accept.image-data[image/jpeg]", MUST),
    ("accepts-png-only", &[], "openai.accept.image-data[image/gif]", MUST),
    ("accepts-wav-only", &[], "openai.accept.audio[audio/mpeg]", MUST),
    ("refuses-file-id", &[], "openai.accept.file-id", MUST),
    ("completion-without-finish-reason", &[], "openai.string-content", MUST),
    ("completion-without-finish-reason", &[], "openai.accept.file-data", MUST),
    ("stream-without-finish-reason", &[], "openai.accept.stream[file]", MUST),
    // Forwarding to a model (`expect.witness`, judged on what the witness received).
    ("forward-skips-model", WITNESS, "openai.accept.image-data[image/png]", MUST),
    ("forward-skips-model", WITNESS, "openai.string-content.stream", MUST),
    ("forward-drops-detail", WITNESS, "openai.accept.image-detail[low]", SHOULD),
    ("forward-replaces-filename", WITNESS, "openai.accept.file-data", SHOULD),
    ("forward-audio-as-image", WITNESS, "openai.accept.audio[audio/wav]", SHOULD),
    ("forward-unvalidated", WITNESS, "openai.malformed.no-crash.empty-text", MUST),
    ("forward-unvalidated", WITNESS, "openai.malformed.no-crash.unknown-detail", MUST),
    ("forward-unvalidated", WITNESS, "openai.malformed.no-crash.file-without-filename", MUST),
    ("forward-unvalidated", WITNESS, "openai.malformed.no-crash.file-with-two-sources", MUST),
    ("forward-unvalidated", WITNESS, "openai.malformed.no-crash.part-without-source", MUST),
    ("forward-unvalidated", WITNESS, "openai.malformed.no-crash.content-not-string-or-array", MUST),
    ("forward-unvalidated", WITNESS, "openai.malformed.refused.file-with-two-sources", SHOULD),
    ("forward-unvalidated", WITNESS, "openai.malformed.refused.part-without-source", SHOULD),
    ("forward-unvalidated", WITNESS, "openai.malformed.refused.content-not-string-or-array", SHOULD),
    ("forward-unvalidated", WITNESS, "openai.malformed.refused.empty-messages", SHOULD),
    ("lax-base64", WITNESS, "openai.malformed.no-crash.base64-noise", MUST),
    ("forward-unvalidated", TEXT_WITNESS, "openai.refuse.undeclared[image]", MUST),
];

#[test]
fn every_server_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_server_fault_has_a_row() {
    check_coverage(&TABLE);
}

/// With a token (the embedded server then requires it), the case that sends none
/// expects 401/403; a server that serves it anyway fails it.
#[test]
fn ignored_auth_is_caught_when_a_token_is_configured() {
    check_ignored_auth(&TokenCheck {
        args: &[
            "--profile",
            "openai",
            "--target",
            "reference",
            "--filter",
            "openai.auth.*",
        ],
        token_args: &[],
        token: ("OPENAI_API_KEY", "sk-mmconform-canary-2e8d"),
        case: "openai.auth.requires-token",
    });
}

/// LiteLLM names an unnamed PDF `my_file.pdf` on its way to the model (issue 36, item 2):
/// the repair is a warning, and the case's assertion names the filename it invented.
#[test]
fn an_invented_filename_is_named_in_the_repair() {
    let mut args = vec!["--profile", "openai", "--target", "reference"];
    args.extend_from_slice(WITNESS);
    args.extend([
        "--reference-fault",
        "invents-filename",
        "--filter",
        "openai.malformed.*.file-without-filename",
    ]);
    let r = crate::common::run(&args);
    let id = "openai.malformed.no-crash.file-without-filename";
    assert_eq!(r.outcome(id), "warn", "{}", r.context());
    let case = r.cases().into_iter().find(|c| c["id"] == id).unwrap();
    let repaired = case["assertions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["check"] == "witness.repaired")
        .unwrap_or_else(|| panic!("no witness.repaired assertion: {case:#}"));
    let actual = repaired["actual"].as_str().unwrap();
    assert!(
        actual.contains("a filename \"my_file.pdf\" the gateway invented"),
        "{actual}"
    );
}
