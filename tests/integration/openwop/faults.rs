//! The openwop fault table: every single-fault variant of the reference host (RFC 0091,
//! discovery, auth, and the AI Envelope accept seam of RFC 0021) breaks one requirement,
//! and the case that checks it must catch it (see `crate::fault_table` for what a row
//! asserts). A conformance tester that passes a broken host is worse than none.
//!
//! Faults whose check is not a simple row have tests of their own below.

use crate::common::{self, run};
use crate::fault_table::{
    MUST, Row, SHOULD, Table, TokenCheck, check_coverage, check_every_row, check_ignored_auth,
};

/// The envelope faults run only the RFC 0021 cases.
const ENVELOPES: &[&str] = &["--filter", "openwop.rfc0021.*"];
/// A run targeting openwop 2.
const V2: &[&str] = &["--openwop-major", "2"];
const MEDIA_BASE_URL: &[&str] = &["--media-base-url", "http://media.example.invalid/mm"];
/// The forwarding faults need the host to forward to a witness (`expect.witness`).
const WITNESS: &[&str] = &["--witness", "127.0.0.1:0", "--witness-wait", "1"];
/// The same with every modality advertised, for the audio and document faults.
const WITNESS_ALL: &[&str] = &[
    "--witness",
    "127.0.0.1:0",
    "--witness-wait",
    "1",
    "--reference-modalities",
    "text,image,audio,document",
];

const TABLE: Table = Table {
    profile: "openwop",
    base: &["--target", "reference"],
    rows: ROWS,
    elsewhere: &[
        "ignores-auth",          // ignored_auth_is_caught_when_a_token_is_configured
        "seam-missing",          // a_missing_seam_blocks_seam_cases_and_is_insufficient_evidence
        "envelope-seam-missing", // a_missing_envelope_seam_blocks_only_its_cases
        // transformed.rs: faithful transformations, which no case may fail.
        "forward-reencodes-images",
        "forward-downscales-images",
        // self_hosted.rs: they need OPENWOP_TEST_COMPAT_ENDPOINT set for the run.
        "self-hosted-endpoint-leaks",
        "self-hosted-not-configured",
        "self-hosted-url-id",
        "self-hosted-not-listed",
        "self-hosted-accepts-unadvertised",
    ],
};

#[rustfmt::skip]
pub(super) const ROWS: &[Row] = &[
    // Discovery and RFC 0091 (`messages[].content` parts).
    ("discovery-missing-required", &[], "openwop.discovery.document", MUST),
    ("wrapper-only-discovery", &[], "openwop.discovery.aiproviders-at-root", MUST),
    ("out-of-enum-modality", &[], "openwop.rfc0091.input-advertisement-schema", MUST),
    ("refuses-string-content", &[], "openwop.rfc0091.string-content-accepted", MUST),
    ("rejects-text-part-unless-listed", &["--reference-modalities", "image"], "openwop.rfc0091.text-part-accepted", MUST),
    ("rejects-advertised-modality", &[], "openwop.rfc0091.advertised-inline-accepted[image]", MUST),
    ("rejects-media-ref", &[], "openwop.rfc0091.advertised-mediaref-accepted[image]", MUST),
    ("rejects-url-source", MEDIA_BASE_URL, "openwop.rfc0091.advertised-url-accepted[image]", MUST),
    ("accepts-unadvertised", &[], "openwop.rfc0091.unadvertised-rejected[audio]", MUST),
    ("silently-drops-unadvertised", &[], "openwop.rfc0091.unadvertised-rejected[document]", MUST),
    ("wrong-error-code", &[], "openwop.rfc0091.unadvertised-rejected[audio]", MUST),
    ("crash-on-unknown-type", &[], "openwop.rfc0091.unknown-type-rejected[video]", MUST),
    ("validates-first-part-only", &[], "openwop.rfc0091.mixed-message-rejected[image]", MUST),
    ("validates-first-message-only", &[], "openwop.rfc0091.unadvertised-in-later-message-rejected", MUST),
    ("validates-user-messages-only", &[], "openwop.rfc0091.unadvertised-in-assistant-message-rejected", MUST),
    ("nested-error-body", &[], "openwop.rfc0091.error-body-flat", MUST),
    ("accepts-loopback-url", &[], "openwop.rfc0091.ssrf.loopback-url-rejected", MUST),
    ("accepts-mapped-hex", &[], "openwop.rfc0196.mapped-ipv4-rejected[::ffff:7f00:1]", MUST),
    ("accepts-nat64-loopback", &[], "openwop.rfc0196.embedded-ipv4-rejected[64:ff9b::7f00:1]", SHOULD),
    ("accepts-png-only", &[], "openwop.rfc0091.advertised-mime-accepted[image,image/jpeg]", SHOULD),
    ("accepts-missing-source", &[], "openwop.rfc0091.shape.no-source[image]", SHOULD),
    ("accepts-two-sources", &[], "openwop.rfc0091.shape.two-sources-data-mediaref[image]", SHOULD),
    ("accepts-two-sources", MEDIA_BASE_URL, "openwop.rfc0091.shape.two-sources-data-url[image]", SHOULD),
    ("accepts-missing-mime-type", &[], "openwop.rfc0091.shape.no-mime-type[image]", SHOULD),
    ("accepts-invalid-base64", &[], "openwop.rfc0091.shape.invalid-base64[image]", SHOULD),
    ("lax-base64", &[], "openwop.rfc0091.shape.base64-noise[image]", SHOULD),
    ("accepts-non-http-url", &[], "openwop.rfc0091.ssrf.non-http-url-rejected[file]", MUST),
    ("accepts-numeric-content", &[], "openwop.rfc0091.shape.content-not-string-or-array", SHOULD),
    ("accepts-empty-messages", &[], "openwop.rfc0091.shape.empty-messages", SHOULD),
    ("off-by-one-limit", &[], "openwop.rfc0091.limit.at-max-accepted", SHOULD),
    ("ignores-max-bytes-per-part", &[], "openwop.rfc0091.limit.over-max-rejected", SHOULD),
    ("accepts-unknown-media-ref", &[], "openwop.rfc0091.mediaref.unresolvable-rejected", SHOULD),
    // The MUST half of the shape rules (rfc0091-no-crash.yaml), and the newer shape rules.
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.no-source", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.two-sources", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.no-mime-type", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.invalid-base64", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.base64-noise", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.mime-disagrees-with-bytes", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.content-not-string-or-array", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.empty-content", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.empty-text", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.no-crash.empty-messages", MUST),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.mime-disagrees-with-bytes", SHOULD),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.empty-content", SHOULD),
    ("crash-on-malformed", &[], "openwop.rfc0091.shape.empty-text", SHOULD),
    ("accepts-mismatched-mime", &[], "openwop.rfc0091.shape.mime-disagrees-with-bytes", SHOULD),
    ("accepts-empty-text", &[], "openwop.rfc0091.shape.empty-text", SHOULD),
    ("accepts-empty-text", WITNESS, "openwop.rfc0091.shape.no-crash.empty-text", MUST),
    ("accepts-mismatched-mime", WITNESS, "openwop.rfc0091.shape.no-crash.mime-disagrees-with-bytes", MUST),
    ("lax-base64", WITNESS, "openwop.rfc0091.shape.no-crash.base64-noise", MUST),
    ("accepts-missing-source", WITNESS, "openwop.rfc0091.shape.no-crash.no-source", SHOULD),
    // Forwarding to a model (`expect.witness`, judged on what the witness received).
    ("forward-skips-model", WITNESS, "openwop.rfc0091.string-content-accepted", MUST),
    ("forward-skips-model", WITNESS, "openwop.rfc0091.advertised-inline-accepted[image]", MUST),
    ("forward-drops-media", WITNESS, "openwop.rfc0091.advertised-inline-accepted[image]", MUST),
    ("forward-drops-audio", WITNESS_ALL, "openwop.rfc0091.advertised-inline-accepted[audio]", MUST),
    ("forward-document-as-image", WITNESS_ALL, "openwop.rfc0091.advertised-inline-accepted[document]", SHOULD),
    ("forward-wrong-mime", WITNESS, "openwop.rfc0091.advertised-inline-accepted[image]", SHOULD),
    ("forward-truncates-bytes", WITNESS, "openwop.rfc0091.advertised-inline-accepted[image]", MUST),
    ("forward-reorders-parts", WITNESS, "openwop.rfc0091.advertised-inline-accepted[image]", SHOULD),
    ("forward-then-refuses", WITNESS, "openwop.rfc0091.unknown-type-rejected[video]", MUST),
    ("forward-image-placeholder", WITNESS, "openwop.rfc0091.advertised-inline-accepted[image]", MUST),
    ("forward-extracts-pdf-text", WITNESS_ALL, "openwop.rfc0091.advertised-inline-accepted[document]", SHOULD),
    ("accepts-invalid-base64", WITNESS, "openwop.rfc0091.shape.invalid-base64[image]", SHOULD),
    ("accepts-invalid-base64", WITNESS, "openwop.rfc0091.shape.no-crash.invalid-base64", MUST),
    // RFC 0021: the envelope accept seam and the envelope advertisement.
    ("envelope-accepts-missing-meta", ENVELOPES, "openwop.rfc0021.accept.missing-meta-invalid", MUST),
    ("envelope-invalid-without-details", ENVELOPES, "openwop.rfc0021.accept.missing-meta-invalid", MUST),
    ("envelope-gated-without-allowed-kinds", ENVELOPES, "openwop.rfc0021.accept.vendor-kind-gated", MUST),
    ("envelope-breach-above-cap-only", ENVELOPES, "openwop.rfc0021.accept.envelopes-cap-reached", MUST),
    ("envelope-breach-one-early", ENVELOPES, "openwop.rfc0021.accept.schema-cap-below", MUST),
    ("envelope-run-boundary-wins", ENVELOPES, "openwop.rfc0021.accept.envelope-trust-wins", MUST),
    ("envelope-ignores-run-boundary", ENVELOPES, "openwop.rfc0021.accept.run-boundary-untrusted", MUST),
    ("envelope-ts-unchecked", ENVELOPES, "openwop.rfc0021.accept.ts-not-iso8601", MUST),
    ("envelope-universal-node-gated", ENVELOPES, "openwop.rfc0021.accept.universal-ignores-node-allowlist", MUST),
    ("envelope-gates-universal-kinds", ENVELOPES, "openwop.rfc0021.accept.valid-clarification", MUST),
    ("envelope-http-400", ENVELOPES, "openwop.rfc0021.accept.missing-meta-invalid", MUST),
    ("envelope-payload-unchecked", ENVELOPES, "openwop.rfc0021.accept.payload-invalid", MUST),
    ("envelope-payload-unchecked", ENVELOPES, "openwop.rfc0021.accept.payload-invalid-twin[error,code-too-long]", MUST),
    ("envelope-checks-required-only", ENVELOPES, "openwop.rfc0021.accept.envelope-invalid.field-wrong-type", MUST),
    ("envelope-checks-required-only", ENVELOPES, "openwop.rfc0021.accept.envelope-invalid.unknown-key", MUST),
    ("envelope-wrong-cap-kind", ENVELOPES, "openwop.rfc0021.accept.schema-cap-reached", MUST),
    ("envelope-missing-accepted", ENVELOPES, "openwop.rfc0021.accept.missing-envelope-rejected", MUST),
    ("envelope-ignores-host-supported", ENVELOPES, "openwop.rfc0021.accept.vendor-kind-listed", MUST),
    ("envelope-default-untrusted", ENVELOPES, "openwop.rfc0021.accept.default-trusted", MUST),
    ("discovery-envelopes-not-array", ENVELOPES, "openwop.rfc0021.supported-envelopes-shape", MUST),
    ("discovery-missing-universal-envelopes", &[], "openwop.rfc0021.universal-kind-advertised[error]", SHOULD),
    ("discovery-wrong-schema-version", &[], "openwop.rfc0021.universal-schema-version[error]", SHOULD),
    // openwop 2: negotiation (also seen by a v1 run, the host listing 2.0), the v2 root,
    // and refusals spelled from the v2 registry.
    ("v2-request-gets-v1-document", V2, "openwop.v2.discovery.root", MUST),
    ("v2-request-gets-v1-document", &[], "openwop.v2.negotiation.v2-request-gets-root", MUST),
    ("v1-document-without-versions", V2, "openwop.v2.negotiation.v1-document-versions", MUST),
    ("v2-record-keeps-supported", V2, "openwop.v2.discovery.aiproviders-providers", MUST),
    ("v2-minor-spelling-refused", &[], "openwop.v2.negotiation.minor-spelling-selects-v2", MUST),
    ("unknown-major-served", &[], "openwop.v2.negotiation.unknown-major-refused", MUST),
    ("unknown-major-without-versions", V2, "openwop.v2.negotiation.unknown-major-refused", MUST),
    ("discovery-without-etag", &[], "openwop.v2.negotiation.revalidate-304", MUST),
    ("ignores-if-none-match", V2, "openwop.v2.negotiation.revalidate-304", MUST),
    ("v2-legacy-error-codes", V2, "openwop.rfc0091.ssrf.loopback-url-rejected", MUST),
    ("v2-legacy-error-codes", V2, "openwop.rfc0091.shape.no-source[image]", SHOULD),
    ("v2-refusal-status-400", V2, "openwop.rfc0091.unadvertised-rejected[audio]", MUST),
    ("v2-refusal-validation-error", V2, "openwop.rfc0091.unadvertised-rejected[audio]", MUST),
    ("v2-error-extra-member", V2, "openwop.rfc0091.error-body-flat", MUST),
    // A shape error is not "not advertised" at either major; at v2 every error answer,
    // even to a case that asks only for a refusal, meets the registry.
    ("v2-shape-capability-code", V2, "openwop.rfc0091.shape.no-source[image]", SHOULD),
    ("v2-shape-capability-code", V2, "openwop.rfc0091.shape.invalid-base64[image]", SHOULD),
    ("v2-shape-capability-code", V2, "openwop.rfc0091.ssrf.non-http-url-rejected[file]", MUST),
    ("v2-part-too-large", V2, "openwop.rfc0091.limit.over-max-rejected", SHOULD),
];

#[test]
fn every_host_fault_fails_its_case() {
    check_every_row(&TABLE);
}

#[test]
fn every_listed_host_fault_has_a_row() {
    check_coverage(&TABLE);
}

fn fault_run(fault: &str, extra: &[&str]) -> common::RunResult {
    let mut args = vec!["--target", "reference", "--reference-fault", fault];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn ignored_auth_is_caught_when_a_token_is_configured() {
    check_ignored_auth(&TokenCheck {
        args: &["--target", "reference", "--strict"],
        token_args: &[],
        token: ("OPENWOP_API_KEY", "mmconform-canary-7f3a9c"),
        case: "openwop.auth.seam-requires-token",
    });
}

#[test]
fn a_missing_seam_blocks_seam_cases_and_is_insufficient_evidence() {
    let r = fault_run("seam-missing", &[]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "blocked"
    );
    assert_eq!(r.outcome("openwop.discovery.document"), "pass");
    // Only the ai/call seam is gone: discovery and envelope cases still observe the
    // host, but no RFC 0091 case past the advertisement check may pass.
    let passed = r.ids_with("pass");
    assert!(
        passed
            .iter()
            .all(|id| !id.starts_with("openwop.rfc0091") || id.contains("input-advertisement")),
        "no ai/call seam case may pass with the seam missing: {passed:?}"
    );
    assert_eq!(
        r.outcome("openwop.rfc0021.accept.valid-clarification"),
        "pass"
    );
}

#[test]
fn require_turns_a_blocked_seam_into_failure() {
    let r = fault_run("seam-missing", &["--require"]);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "fail"
    );
}

#[test]
fn a_missing_envelope_seam_blocks_only_its_cases() {
    let r = fault_run("envelope-seam-missing", &[]);
    assert_eq!(r.code, 3, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0021.accept.valid-clarification"),
        "blocked"
    );
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "pass"
    );
    assert_eq!(r.outcome("openwop.rfc0021.envelope-valid"), "pass");
}
