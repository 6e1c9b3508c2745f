//! The A2A fault table: every single-fault variant of the A2A reference agent breaks
//! one requirement, and the case that checks it must catch it (see `crate::fault_table`
//! for what a row asserts). The other way round (every a2a case is caught by some
//! fault, in some shape of the agent) is `mmconform calibrate`'s job.

use crate::fault_table::{
    MUST, Row, SHOULD, Table, TokenCheck, check_coverage, check_every_row, check_ignored_auth,
};

const TABLE: Table = Table {
    profile: "a2a",
    base: &["--profile", "a2a", "--target", "reference"],
    rows: ROWS,
    elsewhere: &[
        "ignores-auth",  // ignored_auth_is_caught_when_a_token_is_configured
        "card-not-json", // a_card_that_is_not_json_fails_the_card_case_and_blocks_the_rest
    ],
};

/// What reaches the model is judged on what the witness received.
const WITNESS: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "1"];
/// A task that never ends costs the case's whole time: keep it short.
const SHORT: &[&str] = &["--timeout", "3"];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    ("card-modes-not-media-types", &[], "a2a.card.input-modes-media-types", SHOULD),
    ("card-without-default-input-modes", &[], "a2a.card.valid-1.0", MUST),
    // The text reached the model before the refusal: a valid call, so a repair (SHOULD).
    ("forward-then-refuse", WITNESS, "a2a.malformed.no-crash.no-source", SHOULD),
    ("forward-then-refuse", WITNESS, "a2a.malformed.no-crash.parts-not-a-list@v0.3", SHOULD),
    ("card-at-old-path", &[], "a2a.card.well-known-path", SHOULD),
    ("refuses-advertised", &[], "a2a.accept.raw[image/png]", MUST),
    ("refuses-advertised", &[], "a2a.accept.raw@v0.3[application/pdf]", MUST),
    ("refuses-url-parts", &[], "a2a.accept.url[image/png]", SHOULD),
    ("refuses-url-parts", &[], "a2a.accept.url@http-json[audio/wav]", SHOULD),
    ("accepts-unadvertised", &[], "a2a.refuse.unadvertised[audio/mpeg]", SHOULD),
    ("accepts-unadvertised", WITNESS, "a2a.refuse.unadvertised@v0.3[video/mp4]", SHOULD),
    ("drops-unadvertised", WITNESS, "a2a.refuse.unadvertised[audio/mpeg]", SHOULD),
    ("refuses-with-invalid-params", &[], "a2a.refuse.unadvertised[audio/mpeg]", SHOULD),
    ("refuses-with-invalid-params", &[], "a2a.refuse.unadvertised@http-json[video/mp4]", SHOULD),
    ("http-415-without-error-info", &[], "a2a.version.unsupported@http-json", MUST),
    ("accepts-missing-media-type", &[], "a2a.malformed.refused.missing-mime", SHOULD),
    ("accepts-invalid-base64", &[], "a2a.malformed.refused.invalid-base64", SHOULD),
    ("lax-base64", &[], "a2a.malformed.refused.base64-noise", SHOULD),
    ("accepts-raw-and-url", &[], "a2a.malformed.refused.two-sources@v0.3", SHOULD),
    ("accepts-v03-part-at-v1", &[], "a2a.malformed.refused.other-spelling", SHOULD),
    ("accepts-non-http-url", &[], "a2a.malformed.refused.non-http-url@http-json", SHOULD),
    ("accepts-empty-parts", &[], "a2a.malformed.refused.empty-parts", SHOULD),
    ("accepts-mismatched-media-type", &[], "a2a.malformed.refused.mime-disagrees-with-bytes", SHOULD),
    ("crash-on-malformed", &[], "a2a.malformed.no-crash.no-source", MUST),
    ("crash-on-malformed", &[], "a2a.malformed.no-crash.parts-not-a-list@http-json", MUST),
    ("answers-in-other-spelling", &[], "a2a.send.spelled-for-version", MUST),
    ("answers-in-other-spelling", &[], "a2a.send.spelled-for-version@v0.3", MUST),
    ("ignores-version-header", &[], "a2a.version.unsupported", MUST),
    ("ignores-version-header", &[], "a2a.version.unsupported@http-json", MUST),
    ("streams-without-capability", &[], "a2a.stream.unsupported", MUST),
    ("broken-stream", &[], "a2a.stream.text", MUST),
    ("broken-stream", &[], "a2a.accept.stream@v0.3[audio/wav]", MUST),
    ("task-never-ends", SHORT, "a2a.send.blocking-waits", MUST),
    ("get-task-not-found", &[], "a2a.task.followed", MUST),
    ("get-task-not-found", &[], "a2a.task.followed-0.3@v0.3", MUST),
    // What reaches the model (`expect.witness`).
    ("forward-text-only", WITNESS, "a2a.accept.raw[image/png]", MUST),
    ("forward-text-only", WITNESS, "a2a.accept.url@v0.3[application/pdf]", SHOULD),
    ("forward-skips-model", WITNESS, "a2a.send.text", MUST),
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
            "a2a",
            "--target",
            "reference",
            "--filter",
            "a2a.auth.* or a2a.send.text",
        ],
        token_args: &[],
        token: ("A2A_TOKEN", "a2a-mmconform-canary-5e1d"),
        case: "a2a.auth.requires-token",
    });
    assert_eq!(ok.outcome("a2a.auth.requires-token@http-json"), "pass");
    // The token reached the agent: the send that carried it completed.
    assert_eq!(ok.outcome("a2a.send.text"), "pass");
}

#[test]
fn a_card_that_is_not_json_fails_the_card_case_and_blocks_the_rest() {
    let r = crate::common::run(&[
        "--profile",
        "a2a",
        "--target",
        "reference",
        "--reference-fault",
        "card-not-json",
    ]);
    // The card is unusable: the run says so (exit 4), and the card case fails.
    assert_eq!(r.code, 4, "{}", r.context());
    assert_eq!(r.outcome("a2a.card.served"), "fail");
    assert_eq!(r.outcome("a2a.card.input-modes-media-types"), "blocked");
    assert!(
        r.ids_with("pass")
            .iter()
            .all(|id| id == "a2a.card.well-known-path"),
        "{}",
        r.context()
    );
}
