//! Every single-fault variant of the AG-UI reference agent breaks one requirement; the
//! case that checks it must fail (MUST) or warn, and fail under --strict (SHOULD). The
//! other way round (every agui case is caught by some fault, in some declaration of the
//! agent) is `mmconform calibrate`'s job: see tests/integration/calibrate.rs.

use crate::common::{self, run};

fn fault_run(fault: Option<&str>, setup: &[&str], strict: bool) -> common::RunResult {
    let mut args = vec!["--profile", "agui", "--target", "reference"];
    if let Some(fault) = fault {
        args.extend(["--reference-fault", fault]);
    }
    args.extend_from_slice(setup);
    if strict {
        args.push("--strict");
    }
    run(&args)
}

/// A MUST fault: the case fails and the run exits 1.
fn must(fault: &str, setup: &[&str], case: &str) {
    let r = fault_run(Some(fault), setup, false);
    assert_eq!(
        (r.code, r.outcome(case).as_str()),
        (1, "fail"),
        "{fault}: {}",
        r.context()
    );
}

/// A SHOULD fault: a warning normally (exit 0 unless a MUST case fails too), a
/// failure (exit 1) under --strict.
fn should(fault: &str, setup: &[&str], case: &str) {
    let lenient = fault_run(Some(fault), setup, false);
    assert_eq!(
        lenient.outcome(case),
        "warn",
        "{fault}: {}",
        lenient.context()
    );
    let expected_code = if lenient.ids_with("fail").is_empty() {
        0
    } else {
        1
    };
    assert_eq!(
        lenient.code,
        expected_code,
        "{fault}: {}",
        lenient.context()
    );
    let strict = fault_run(Some(fault), setup, true);
    assert_eq!(
        (strict.code, strict.outcome(case).as_str()),
        (1, "fail"),
        "{fault} --strict: {}",
        strict.context()
    );
}

#[test]
fn drops_unknown_part() {
    must("drops-unknown-part", &[], "agui.legacy.binary-part");
    should(
        "drops-unknown-part",
        &[],
        "agui.malformed.refused.unknown-part-type",
    );
}

#[test]
fn crash_on_invalid_base64() {
    must(
        "crash-on-invalid-base64",
        &[],
        "agui.malformed.no-crash.invalid-base64",
    );
}

#[test]
fn completes_undeclared_kind() {
    must(
        "completes-undeclared-kind",
        &[],
        "agui.undeclared-kind-refused[video]",
    );
    must(
        "completes-undeclared-kind",
        &[],
        "agui.mixed-undeclared-refused",
    );
}

#[test]
fn events_after_finish() {
    must("events-after-finish", &[], "agui.string-content-completes");
    must(
        "events-after-finish",
        &[],
        "agui.undeclared-kind-refused[video]",
    );
}

#[test]
fn no_terminal_event() {
    must(
        "no-terminal-event",
        &[],
        "agui.accept.data[image,image/png]",
    );
}

#[test]
fn first_event_not_run_started() {
    must(
        "first-event-not-run-started",
        &[],
        "agui.accept.file[image]",
    );
}

#[test]
fn crash_on_malformed() {
    must(
        "crash-on-malformed",
        &[],
        "agui.malformed.no-crash.numeric-content",
    );
    must(
        "crash-on-malformed",
        &[],
        "agui.malformed.no-crash.unknown-source-type",
    );
}

#[test]
fn accepts_missing_mime_type() {
    should(
        "accepts-missing-mime-type",
        &[],
        "agui.malformed.refused.data-without-mime-type",
    );
}

#[test]
fn drops_part_without_source() {
    should(
        "drops-part-without-source",
        &[],
        "agui.malformed.refused.part-without-source",
    );
}

#[test]
fn drops_unknown_source() {
    should(
        "drops-unknown-source",
        &[],
        "agui.malformed.refused.unknown-source-type",
    );
}

#[test]
fn coerces_numeric_content() {
    should(
        "coerces-numeric-content",
        &[],
        "agui.malformed.refused.numeric-content",
    );
}

#[test]
fn accepts_invalid_base64() {
    should(
        "accepts-invalid-base64",
        &[],
        "agui.malformed.refused.invalid-base64",
    );
}

#[test]
fn ignores_mime_prefix() {
    should(
        "ignores-mime-prefix",
        &[],
        "agui.undeclared-mime-refused[audio,audio/mpeg]",
    );
}

#[test]
fn forwards_images_only() {
    // The silent drop inside a completed run: only the echo can see it.
    must(
        "forwards-images-only",
        &[],
        "agui.accept.data[audio,audio/wav]",
    );
    must(
        "forwards-images-only",
        &[],
        "agui.accept.url[document,application/pdf]",
    );
}

#[test]
fn truncates_media() {
    must("truncates-media", &[], "agui.accept.data[image,image/png]");
}

#[test]
fn inline_sources_only() {
    must(
        "inline-sources-only",
        &[],
        "agui.accept.url[image,image/png]",
    );
    must("inline-sources-only", &[], "agui.accept.file[audio]");
}

#[test]
fn refuses_string_content() {
    must(
        "refuses-string-content",
        &[],
        "agui.string-content-completes",
    );
}
