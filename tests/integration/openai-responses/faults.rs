//! The Responses fault table: every single-fault variant the OpenAI reference server
//! lists for its Responses door (`serve-reference --profile openai-responses
//! --list-faults`: the validation and forwarding faults it shares with the Chat door,
//! and the Responses door's own) breaks one requirement, and the case that checks it
//! must catch it (see `crate::fault_table`). The text-only model's refusals run with
//! `--model reference-text`; the forwarding faults, and the silent drops only a model's
//! view can show, with `--witness`.

use crate::fault_table::{
    MUST, Row, SHOULD, Table, TokenCheck, check_coverage, check_every_row, check_ignored_auth,
};

const TABLE: Table = Table {
    profile: "openai-responses",
    base: &["--profile", "openai-responses", "--target", "reference"],
    rows: ROWS,
    elsewhere: &[
        "ignores-auth", // ignored_auth_is_caught_when_a_token_is_configured
        "drops-media",  // the Chat door's (openai.usage.*, tests/integration/openai/usage.rs)
    ],
};

const TEXT: &[&str] = &["--model", "reference-text"];
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
    ("ignores-image-on-text-model", TEXT, "openai-responses.refuse.undeclared[image]", MUST),
    ("ignores-image-on-text-model", TEXT, "openai-responses.refuse.error-envelope[image]", SHOULD),
    ("drops-unsupported-parts", TEXT, "openai-responses.refuse.undeclared[audio]", MUST),
    ("drops-unsupported-parts", TEXT, "openai-responses.refuse.undeclared.stream[file]", MUST),
    ("crash-on-invalid-base64", &[], "openai-responses.malformed.no-crash.invalid-base64", MUST),
    ("crash-on-invalid-base64", &[], "openai-responses.malformed.refused.invalid-base64", SHOULD),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.empty-input", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.object-image-url", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.chat-style-part", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.file-without-source", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.file-url-not-http", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.base64-noise", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.mime-disagrees-with-bytes", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.input-not-string-or-array", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.empty-content", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.unknown-detail", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.audio-unknown-format", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.no-crash.file-with-two-sources", MUST),
    ("crash-on-malformed", &[], "openai-responses.malformed.refused.input-not-string-or-array", SHOULD),
    ("accepts-unknown-part-type", &[], "openai-responses.malformed.refused.unknown-part-type", SHOULD),
    ("lax-base64", &[], "openai-responses.malformed.refused.base64-noise", SHOULD),
    ("accepts-non-http-url", &[], "openai-responses.malformed.refused.image-url-not-http[file]", SHOULD),
    ("accepts-non-http-url", &[], "openai-responses.malformed.refused.file-url-not-http[gopher]", SHOULD),
    ("invents-filename", &[], "openai-responses.malformed.refused.file-without-filename", SHOULD),
    ("invents-filename", WITNESS, "openai-responses.malformed.no-crash.file-without-filename", SHOULD),
    ("capability-refusal-404", TEXT, "openai-responses.refuse.undeclared[image]", MUST),
    ("error-body-not-openai", TEXT, "openai-responses.refuse.error-envelope[audio]", SHOULD),
    ("refuses-string-content", &[], "openai-responses.string-input", MUST),
    ("refuses-string-content", TEXT, "openai-responses.string-input.stream", MUST),
    ("refuses-text-only-array", &[], "openai-responses.text-parts", MUST),
    ("refuses-detail", &[], "openai-responses.accept.image-detail[low]", MUST),
    ("refuses-detail", &[], "openai-responses.accept.interleaved", MUST),
    ("refuses-http-image-url", &[], "openai-responses.accept.image-http[image/png]", MUST),
    ("accepts-png-only", &[], "openai-responses.accept.image-data[image/jpeg]", MUST),
    ("accepts-wav-only", &[], "openai-responses.accept.audio[audio/mpeg]", MUST),
    ("refuses-file-id", &[], "openai-responses.accept.file-id", MUST),
    ("refuses-file-id", &[], "openai-responses.accept.image-file-id", MUST),
    // The Responses door's own.
    ("responses-stream-without-completed", &[], "openai-responses.string-input.stream", MUST),
    ("responses-stream-without-completed", &[], "openai-responses.accept.stream[audio]", MUST),
    ("responses-accepts-object-image-url", &[], "openai-responses.malformed.refused.object-image-url", SHOULD),
    ("responses-accepts-object-image-url", WITNESS, "openai-responses.malformed.no-crash.object-image-url", SHOULD),
    ("responses-skips-chat-parts", &[], "openai-responses.malformed.refused.chat-style-part", SHOULD),
    ("responses-skips-chat-parts", WITNESS, "openai-responses.malformed.no-crash.chat-style-part", SHOULD),
    // Silent drops inside a 200: only the model's view shows them.
    ("responses-drops-file-id-part", WITNESS, "openai-responses.accept.file-id", MUST),
    ("responses-drops-file-url", WITNESS, "openai-responses.accept.file-url", MUST),
    // Forwarding to a model (`expect.witness`, judged on what the witness received).
    ("forward-skips-model", WITNESS, "openai-responses.accept.image-data[image/png]", MUST),
    ("forward-skips-model", WITNESS, "openai-responses.string-input.stream", MUST),
    ("forward-drops-detail", WITNESS, "openai-responses.accept.image-detail[low]", SHOULD),
    ("forward-replaces-filename", WITNESS, "openai-responses.accept.file-data", SHOULD),
    ("forward-audio-as-image", WITNESS, "openai-responses.accept.audio[audio/wav]", SHOULD),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.invalid-base64", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.file-without-filename", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.mime-disagrees-with-bytes", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.refused.mime-disagrees-with-bytes", SHOULD),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.empty-content", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.refused.empty-content", SHOULD),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.unknown-detail", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.refused.unknown-detail", SHOULD),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.audio-unknown-format", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.refused.audio-unknown-format", SHOULD),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.file-with-two-sources", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.refused.file-with-two-sources", SHOULD),
    ("lax-base64", WITNESS, "openai-responses.malformed.no-crash.base64-noise", MUST),
    ("forward-unvalidated", WITNESS, "openai-responses.malformed.no-crash.input-not-string-or-array", MUST),
    ("forward-unvalidated", TEXT_WITNESS, "openai-responses.refuse.undeclared[image]", MUST),
];

#[test]
fn every_responses_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_responses_fault_has_a_row() {
    check_coverage(&TABLE);
}

#[test]
fn ignored_auth_is_caught_when_a_token_is_configured() {
    check_ignored_auth(&TokenCheck {
        args: &[
            "--profile",
            "openai-responses",
            "--target",
            "reference",
            "--filter",
            "openai-responses.auth.*",
        ],
        token_args: &[],
        token: ("OPENAI_API_KEY", "mmconform-responses-token"),
        case: "openai-responses.auth.requires-token",
    });
}
