//! The AG-UI fault table: every single-fault variant of the AG-UI reference agent breaks
//! one requirement, and the case that checks it must catch it (see `crate::fault_table`
//! for what a row asserts). The other way round (every agui case is caught by some
//! fault, in some declaration of the agent) is `mmconform calibrate`'s job: see
//! `tests/integration/calibrate.rs`.

use crate::fault_table::{
    MUST, Row, SHOULD, Table, TokenCheck, check_coverage, check_every_row, check_ignored_auth,
};

const TABLE: Table = Table {
    profile: "agui",
    base: &["--profile", "agui", "--target", "reference"],
    rows: ROWS,
    elsewhere: &[
        "ignores-auth", // ignored_auth_is_caught_when_a_token_is_configured
    ],
};

/// The forwarding faults need the agent to forward to a witness (`expect.witness`).
const WITNESS: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "1"];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("drops-unknown-part", &[], "agui.legacy.binary-part", MUST),
    ("drops-unknown-part", &[], "agui.malformed.refused.unknown-part-type", SHOULD),
    ("crash-on-invalid-base64", &[], "agui.malformed.no-crash.invalid-base64", MUST),
    ("completes-undeclared-kind", &[], "agui.undeclared-kind-refused[video]", MUST),
    ("completes-undeclared-kind", &[], "agui.mixed-undeclared-refused", MUST),
    ("events-after-finish", &[], "agui.string-content-completes", MUST),
    ("events-after-finish", &[], "agui.undeclared-kind-refused[video]", MUST),
    ("no-terminal-event", &[], "agui.accept.data[image,image/png]", MUST),
    ("first-event-not-run-started", &[], "agui.accept.file[image]", MUST),
    ("crash-on-malformed", &[], "agui.malformed.no-crash.numeric-content", MUST),
    ("crash-on-malformed", &[], "agui.malformed.no-crash.unknown-source-type", MUST),
    ("crash-on-malformed", &[], "agui.malformed.no-crash.empty-content", MUST),
    ("crash-on-malformed", &[], "agui.malformed.no-crash.empty-text", MUST),
    ("crash-on-malformed", &[], "agui.malformed.no-crash.media-on-system", MUST),
    ("crash-on-malformed", &[], "agui.malformed.refused.empty-text", SHOULD),
    ("accepts-mismatched-mime", &[], "agui.malformed.refused.mime-disagrees-with-bytes", SHOULD),
    ("accepts-empty-content", &[], "agui.malformed.refused.empty-content", SHOULD),
    ("accepts-empty-content", WITNESS, "agui.malformed.no-crash.empty-content", MUST),
    ("accepts-empty-text", &[], "agui.malformed.refused.empty-text", SHOULD),
    ("accepts-empty-text", WITNESS, "agui.malformed.no-crash.empty-text", MUST),
    ("ignores-system-parts", &[], "agui.malformed.refused.media-on-system", SHOULD),
    ("ignores-system-parts", WITNESS, "agui.malformed.no-crash.media-on-system", SHOULD),
    ("accepts-mismatched-mime", WITNESS, "agui.malformed.no-crash.mime-disagrees-with-bytes", MUST),
    ("accepts-non-http-url", WITNESS, "agui.malformed.no-crash.non-http-url", MUST),
    ("lax-base64", WITNESS, "agui.malformed.no-crash.base64-noise", MUST),
    ("coerces-numeric-content", WITNESS, "agui.malformed.no-crash.numeric-content", SHOULD),
    ("accepts-missing-mime-type", &[], "agui.malformed.refused.data-without-mime-type", SHOULD),
    ("drops-part-without-source", &[], "agui.malformed.refused.part-without-source", SHOULD),
    ("drops-unknown-source", &[], "agui.malformed.refused.unknown-source-type", SHOULD),
    ("coerces-numeric-content", &[], "agui.malformed.refused.numeric-content", SHOULD),
    ("accepts-invalid-base64", &[], "agui.malformed.refused.invalid-base64", SHOULD),
    ("lax-base64", &[], "agui.malformed.refused.base64-noise", SHOULD),
    ("accepts-non-http-url", &[], "agui.malformed.refused.non-http-url[gopher]", SHOULD),
    ("ignores-mime-prefix", &[], "agui.undeclared-mime-refused[audio,audio/mpeg]", SHOULD),
    // The silent drop inside a completed run: only the echo can see it.
    ("forwards-images-only", &[], "agui.accept.data[audio,audio/wav]", MUST),
    ("forwards-images-only", &[], "agui.accept.url[document,application/pdf]", MUST),
    ("truncates-media", &[], "agui.accept.data[image,image/png]", MUST),
    ("inline-sources-only", &[], "agui.accept.url[image,image/png]", MUST),
    ("inline-sources-only", &[], "agui.accept.file[audio]", MUST),
    ("refuses-string-content", &[], "agui.string-content-completes", MUST),
    // Forwarding to a model (`expect.witness`, judged on what the witness received).
    ("forward-skips-model", WITNESS, "agui.string-content-completes", MUST),
    ("forward-drops-media", WITNESS, "agui.accept.data[image,image/png]", MUST),
    ("forward-drops-audio", WITNESS, "agui.accept.data[audio,audio/wav]", MUST),
    ("forward-document-as-image", WITNESS, "agui.accept.data[document,application/pdf]", SHOULD),
    ("forward-wrong-mime", WITNESS, "agui.accept.data[image,image/png]", SHOULD),
    ("forward-truncates-bytes", WITNESS, "agui.accept.data[image,image/png]", MUST),
    ("forward-reorders-parts", WITNESS, "agui.accept.data[audio,audio/wav]", SHOULD),
    ("forward-then-errors", WITNESS, "agui.undeclared-kind-refused[video]", MUST),
    ("forward-then-errors", WITNESS, "agui.mixed-undeclared-refused", MUST),
];

#[test]
fn every_agent_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_agent_fault_has_a_row() {
    check_coverage(&TABLE);
}

#[test]
fn ignored_auth_is_caught_when_a_token_is_configured() {
    let ok = check_ignored_auth(&TokenCheck {
        args: &[
            "--profile",
            "agui",
            "--target",
            "reference",
            "--filter",
            "agui.auth.* or agui.string-content-completes",
        ],
        token_args: &["--token-env", "AGUI_TOKEN"],
        token: ("AGUI_TOKEN", "agui-mmconform-canary-7f3a"),
        case: "agui.auth.requires-token",
    });
    // The token reached the agent: the run that carried it completed.
    assert_eq!(ok.outcome("agui.string-content-completes"), "pass");
}
