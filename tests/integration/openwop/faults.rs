//! Every single-fault variant of the reference host breaks one requirement; the case
//! that checks it must fail and the run must exit 1. A conformance tester that passes a
//! broken host is worse than none.

use crate::common::{self, run, run_with_env};

/// (fault, extra args, the case that must fail)
const FAULTS: &[(&str, &[&str], &str)] = &[
    (
        "discovery-missing-required",
        &[],
        "openwop.discovery.document",
    ),
    (
        "wrapper-only-discovery",
        &[],
        "openwop.discovery.aiproviders-at-root",
    ),
    (
        "out-of-enum-modality",
        &[],
        "openwop.rfc0091.input-advertisement-schema",
    ),
    (
        "refuses-string-content",
        &[],
        "openwop.rfc0091.string-content-accepted",
    ),
    (
        "rejects-text-part-unless-listed",
        &["--reference-modalities", "image"],
        "openwop.rfc0091.text-part-accepted",
    ),
    (
        "rejects-advertised-modality",
        &[],
        "openwop.rfc0091.advertised-inline-accepted[image]",
    ),
    (
        "rejects-media-ref",
        &[],
        "openwop.rfc0091.advertised-mediaref-accepted[image]",
    ),
    (
        "rejects-url-source",
        &["--media-base-url", "http://media.example.invalid/mm"],
        "openwop.rfc0091.advertised-url-accepted[image]",
    ),
    (
        "accepts-unadvertised",
        &[],
        "openwop.rfc0091.unadvertised-rejected[audio]",
    ),
    (
        "silently-drops-unadvertised",
        &[],
        "openwop.rfc0091.unadvertised-rejected[document]",
    ),
    (
        "wrong-error-code",
        &[],
        "openwop.rfc0091.unadvertised-rejected[audio]",
    ),
    (
        "crash-on-unknown-type",
        &[],
        "openwop.rfc0091.unknown-type-rejected[video]",
    ),
    (
        "validates-first-part-only",
        &[],
        "openwop.rfc0091.mixed-message-rejected[image]",
    ),
    (
        "validates-first-message-only",
        &[],
        "openwop.rfc0091.unadvertised-in-later-message-rejected",
    ),
    (
        "validates-user-messages-only",
        &[],
        "openwop.rfc0091.unadvertised-in-assistant-message-rejected",
    ),
    ("nested-error-body", &[], "openwop.rfc0091.error-body-flat"),
    (
        "accepts-loopback-url",
        &[],
        "openwop.rfc0091.ssrf.loopback-url-rejected",
    ),
];

/// SHOULD-level requirements: a warning normally, a failure under --strict.
const SHOULD_FAULTS: &[(&str, &[&str], &str)] = &[
    (
        "accepts-png-only",
        &[],
        "openwop.rfc0091.advertised-mime-accepted[image,image/jpeg]",
    ),
    (
        "accepts-missing-source",
        &[],
        "openwop.rfc0091.shape.no-source[image]",
    ),
    (
        "accepts-two-sources",
        &[],
        "openwop.rfc0091.shape.two-sources-data-mediaref[image]",
    ),
    (
        "accepts-two-sources",
        &["--media-base-url", "http://media.example.invalid/mm"],
        "openwop.rfc0091.shape.two-sources-data-url[image]",
    ),
    (
        "accepts-missing-mime-type",
        &[],
        "openwop.rfc0091.shape.no-mime-type[image]",
    ),
    (
        "accepts-invalid-base64",
        &[],
        "openwop.rfc0091.shape.invalid-base64[image]",
    ),
    (
        "accepts-numeric-content",
        &[],
        "openwop.rfc0091.shape.content-not-string-or-array",
    ),
    (
        "accepts-empty-messages",
        &[],
        "openwop.rfc0091.shape.empty-messages",
    ),
    (
        "off-by-one-limit",
        &[],
        "openwop.rfc0091.limit.at-max-accepted",
    ),
    (
        "ignores-max-bytes-per-part",
        &[],
        "openwop.rfc0091.limit.over-max-rejected",
    ),
    (
        "accepts-unknown-media-ref",
        &[],
        "openwop.rfc0091.mediaref.unresolvable-rejected",
    ),
];

fn fault_run(fault: &str, extra: &[&str], strict: bool) -> common::RunResult {
    let mut args = vec!["--target", "reference", "--reference-fault", fault];
    args.extend_from_slice(extra);
    if strict {
        args.push("--strict");
    }
    run(&args)
}

#[test]
fn each_must_fault_fails_its_case_and_the_run() {
    let mut problems = Vec::new();
    for (fault, extra, case) in FAULTS {
        let r = fault_run(fault, extra, false);
        if r.code != 1 || r.outcome(case) != "fail" {
            problems.push(format!(
                "{fault}: exit {} and {case} = {}\n{}",
                r.code,
                r.outcome(case),
                r.stdout
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n----\n"));
}

#[test]
fn each_should_fault_warns_and_fails_under_strict() {
    let mut problems = Vec::new();
    for (fault, extra, case) in SHOULD_FAULTS {
        let lenient = fault_run(fault, extra, false);
        if lenient.code != 0 || lenient.outcome(case) != "warn" {
            problems.push(format!(
                "{fault} (lenient): exit {} and {case} = {}",
                lenient.code,
                lenient.outcome(case)
            ));
        }
        let strict = fault_run(fault, extra, true);
        if strict.code != 1 || strict.outcome(case) != "fail" {
            problems.push(format!(
                "{fault} (strict): exit {} and {case} = {}",
                strict.code,
                strict.outcome(case)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn ignored_auth_is_caught_when_a_token_is_configured() {
    let env = [("OPENWOP_API_KEY", "mmconform-canary-7f3a9c")];
    let ok = run_with_env(&["--target", "reference", "--strict"], &env);
    assert_eq!(ok.code, 0, "{}", ok.context());
    assert_eq!(ok.outcome("openwop.auth.seam-requires-token"), "pass");
    let bad = run_with_env(
        &[
            "--target",
            "reference",
            "--strict",
            "--reference-fault",
            "ignores-auth",
        ],
        &env,
    );
    assert_eq!(bad.code, 1, "{}", bad.context());
    assert_eq!(bad.outcome("openwop.auth.seam-requires-token"), "fail");
    for text in [&ok.stdout, &ok.stderr, &bad.stdout, &bad.stderr] {
        assert!(
            !text.contains("mmconform-canary-7f3a9c"),
            "token leaked:\n{text}"
        );
    }
    for r in [&ok, &bad] {
        assert!(
            !r.junit
                .as_ref()
                .unwrap()
                .contains("mmconform-canary-7f3a9c")
        );
        assert!(
            !r.report
                .as_ref()
                .unwrap()
                .to_string()
                .contains("mmconform-canary-7f3a9c")
        );
    }
}

#[test]
fn a_missing_seam_blocks_seam_cases_and_is_insufficient_evidence() {
    let r = fault_run("seam-missing", &[], false);
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
    let r = fault_run("seam-missing", &["--require"], false);
    assert_eq!(r.code, 1, "{}", r.context());
    assert_eq!(
        r.outcome("openwop.rfc0091.unadvertised-rejected[audio]"),
        "fail"
    );
}
