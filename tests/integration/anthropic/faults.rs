//! The Anthropic fault table: every single-fault variant of the Anthropic Messages
//! reference server (`serve-reference --profile anthropic --list-faults`) breaks one
//! requirement, and the case that checks it must catch it (see `crate::fault_table`).
//! The text-only model's refusals run with `--model reference-claude-text`; the
//! forwarding faults, and the silent drops only a model's view can show, with
//! `--witness`.

use crate::fault_table::{
    MUST, Row, SHOULD, Table, TokenCheck, check_coverage, check_every_row, check_ignored_auth,
};

const TABLE: Table = Table {
    profile: "anthropic",
    base: &["--profile", "anthropic", "--target", "reference"],
    rows: ROWS,
    elsewhere: &[
        "ignores-auth", // ignored_auth_is_caught_when_a_token_is_configured
    ],
};

const TEXT: &[&str] = &["--model", "reference-claude-text"];
const WITNESS: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "1"];
const TEXT_WITNESS: &[&str] = &[
    "--model",
    "reference-claude-text",
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "1",
];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("crash-on-unknown-block", &[], "anthropic.malformed.no-crash.unknown-block-type", MUST),
    ("crash-on-unknown-block", &[], "anthropic.malformed.refused.unknown-block-type", SHOULD),
    ("accepts-unknown-block", &[], "anthropic.malformed.refused.unknown-block-type", SHOULD),
    ("accepts-mismatched-media-type", &[], "anthropic.malformed.refused.media-type-mismatch", SHOULD),
    ("accepts-mismatched-media-type", WITNESS, "anthropic.malformed.no-crash.media-type-mismatch", MUST),
    ("accepts-media-type-outside-set", &[], "anthropic.malformed.refused.media-type-outside-set", SHOULD),
    ("accepts-empty-content", &[], "anthropic.malformed.refused.empty-content", SHOULD),
    ("accepts-invalid-base64", &[], "anthropic.malformed.refused.invalid-base64", SHOULD),
    ("accepts-invalid-base64", WITNESS, "anthropic.malformed.no-crash.invalid-base64", MUST),
    ("lax-base64", &[], "anthropic.malformed.refused.base64-noise", SHOULD),
    ("lax-base64", WITNESS, "anthropic.malformed.no-crash.base64-noise", MUST),
    ("accepts-non-http-url", &[], "anthropic.malformed.refused.url-not-http[gopher]", SHOULD),
    ("accepts-non-http-url", WITNESS, "anthropic.malformed.no-crash.url-not-http", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.empty-content", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.unknown-source-type", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.block-without-source", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.base64-without-media-type", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.content-not-string-or-array", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.empty-messages", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.empty-text", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.image-in-system", MUST),
    ("crash-on-malformed", &[], "anthropic.malformed.no-crash.media-type-mismatch", MUST),
    ("ignores-image-on-text-model", TEXT, "anthropic.refuse.undeclared[image]", MUST),
    ("ignores-document-on-text-model", TEXT, "anthropic.refuse.undeclared.stream[file]", MUST),
    ("error-body-not-anthropic", TEXT, "anthropic.refuse.error-envelope[image]", SHOULD),
    ("error-body-not-anthropic", &[], "anthropic.malformed.error-envelope", SHOULD),
    ("stream-without-message-stop", &[], "anthropic.string-content.stream", MUST),
    ("stream-without-message-stop", &[], "anthropic.accept.stream[image]", MUST),
    ("refuses-url-source", &[], "anthropic.accept.image-url[image/png]", MUST),
    ("refuses-url-source", &[], "anthropic.accept.document-url", MUST),
    ("refuses-text-document", &[], "anthropic.accept.document-text", MUST),
    ("accepts-png-only", &[], "anthropic.accept.image-base64[image/webp]", MUST),
    // Silent drops inside a 200: only the model's view shows them.
    ("drops-documents", WITNESS, "anthropic.accept.document-pdf", MUST),
    // Forwarding to a model (`expect.witness`, judged on what the witness received).
    ("forward-skips-model", WITNESS, "anthropic.string-content", MUST),
    ("forward-skips-model", WITNESS, "anthropic.accept.image-base64[image/png]", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.invalid-base64", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.unknown-source-type", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.unknown-source-type", SHOULD),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.block-without-source", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.block-without-source", SHOULD),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.base64-without-media-type", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.base64-without-media-type", SHOULD),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.content-not-string-or-array", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.content-not-string-or-array", SHOULD),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.empty-messages", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.empty-messages", SHOULD),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.empty-text", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.empty-text", SHOULD),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.no-crash.image-in-system", MUST),
    ("forward-unvalidated", WITNESS, "anthropic.malformed.refused.image-in-system", SHOULD),
    ("forward-unvalidated", TEXT_WITNESS, "anthropic.refuse.undeclared[image]", MUST),
];

#[test]
fn every_anthropic_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_anthropic_fault_has_a_row() {
    check_coverage(&TABLE);
}

/// With a key (the embedded server then requires it as `x-api-key`), the case that
/// sends none expects 401/403; a server that serves it anyway fails it.
#[test]
fn ignored_auth_is_caught_when_a_token_is_configured() {
    check_ignored_auth(&TokenCheck {
        args: &[
            "--profile",
            "anthropic",
            "--target",
            "reference",
            "--filter",
            "anthropic.auth.*",
        ],
        token_args: &[],
        token: ("ANTHROPIC_API_KEY", "sk-ant-mmconform-canary"),
        case: "anthropic.auth.requires-token",
    });
}
