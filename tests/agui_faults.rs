//! Every single-fault variant of the AG-UI reference agent breaks one requirement; the
//! case that checks it must fail (MUST) or warn, and fail under --strict (SHOULD). And
//! the other way round: every agui case is caught by some fault, in some declaration of
//! the agent, so no case of the pack is vacuous.

mod common;
use common::{bin, run};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

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

/// Reference declarations that, between them, make every agui case apply.
const SETUPS: [&[&str]; 5] = [
    &[],
    &["--reference-accepts", "application/pdf"],
    &[
        "--reference-accepts",
        "image/png,audio/mpeg,video/webm,text/plain",
    ],
    &["--reference-accepts", "image/,audio/,video/"],
    &["--reference-accepts", "image/webp"],
];

fn fault_names() -> Vec<String> {
    let out = bin()
        .args(["serve-reference", "--profile", "agui", "--list-faults"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Case ids with a failed assertion in `r`.
fn caught(r: &common::RunResult) -> BTreeSet<String> {
    r.cases()
        .iter()
        .filter(|c| {
            c["assertions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|a| a["passed"] == Value::Bool(false)))
        })
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect()
}

/// For one setup: every case that passes against the faithful agent fails an assertion
/// against at least one fault, and every fault is caught by some case (a failed
/// assertion, not merely `blocked`).
fn calibrate(setup: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let faithful = fault_run(None, setup, false);
    assert_eq!(faithful.code, 0, "{setup:?}: {}", faithful.context());
    let applicable: BTreeSet<String> = faithful.ids_with("pass").into_iter().collect();
    let mut caught_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for fault in fault_names() {
        let r = fault_run(Some(&fault), setup, false);
        for id in caught(&r) {
            caught_by.entry(id).or_default().insert(fault.clone());
        }
    }
    let vacuous: Vec<&String> = applicable
        .iter()
        .filter(|id| !caught_by.contains_key(*id))
        .collect();
    assert!(
        vacuous.is_empty(),
        "{setup:?}: no fault catches {vacuous:?}"
    );
    caught_by
}

#[test]
fn every_case_is_caught_in_the_default_declaration_and_every_fault_catches() {
    let caught_by = calibrate(SETUPS[0]);
    let catching: BTreeSet<&String> = caught_by.values().flatten().collect();
    for fault in fault_names() {
        assert!(catching.contains(&fault), "no case catches {fault}");
    }
}

#[test]
fn every_case_is_caught_when_only_documents_are_declared() {
    calibrate(SETUPS[1]);
}

#[test]
fn every_case_is_caught_when_single_types_are_declared() {
    calibrate(SETUPS[2]);
}

#[test]
fn every_case_is_caught_when_all_but_documents_are_declared() {
    calibrate(SETUPS[3]);
}

#[test]
fn every_case_is_caught_when_only_webp_is_declared() {
    calibrate(SETUPS[4]);
}

#[test]
fn the_declarations_between_them_make_every_agui_case_apply() {
    let all: BTreeSet<String> = {
        let out = bin()
            .args(["list", "--profile", "agui", "--format", "json"])
            .output()
            .unwrap();
        let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
        listing["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    let mut applied = BTreeSet::new();
    for setup in SETUPS {
        let mut args = vec![
            "list",
            "--profile",
            "agui",
            "--target",
            "reference",
            "--format",
            "json",
        ];
        args.extend_from_slice(setup);
        let out = bin().args(&args).output().unwrap();
        let listing: Value = serde_json::from_slice(&out.stdout).unwrap();
        for case in listing["cases"].as_array().unwrap() {
            if case["disposition"] == "will-run" {
                applied.insert(case["id"].as_str().unwrap().to_string());
            }
        }
    }
    let never: Vec<&String> = all.difference(&applied).collect();
    assert!(never.is_empty(), "cases that apply in no setup: {never:?}");
}
