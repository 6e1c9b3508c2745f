use super::*;
use crate::evidence::criteria::load::parse;
use crate::evidence::hosts::group;
use serde_json::{Value, json};

fn case(id: &str, source: &str, outcome: &str, reason: Option<&str>) -> Value {
    let ran = matches!(outcome, "pass" | "fail" | "warn");
    json!({
        "id": id, "case_id": id.split('[').next().unwrap(), "title": id,
        "requirement": {"source": source, "level": "MUST", "text": "t"},
        "outcome": outcome, "reason": reason,
        "assertions": if ran { vec![json!({"check": "status", "expected": "4xx",
            "actual": if outcome == "pass" { "400" } else { "200" }, "passed": outcome == "pass"})] } else { vec![] },
        "exchanges": if ran { vec![json!({})] } else { vec![] },
        "decided_on": [],
    })
}

fn report(
    index: usize,
    origin: &str,
    digest: &str,
    require: bool,
    cases: Vec<Value>,
) -> InputReport {
    let report = json!({
            "run": {"target": origin, "require": require, "strict": false, "profile": "openwop",
                "openwop_major": 1, "dialect": "spec", "tool_version": "0.1.0",
                "started_at": "2026-01-02T03:04:05Z"},
            "discovery": {"canonical_sha256": digest, "problem": null,
                "document": {"aiProviders": {"input": {"modalities": ["text", "image"]}}}},
            "cases": cases,
    });
    InputReport {
        index,
        file: format!("r{index}.json"),
        file_sha256: "f".repeat(64),
        integrity: "i".repeat(64),
        // What the registry reads in it, as `evidence merge` does.
        reading: crate::registry::read_report(&report),
        report,
    }
}

const CRITERIA: &str = "mmconform_criteria: 1\ntitle: T\nexclude_origins: [https://steward.example]\ncriteria:\n  - id: gated\n    text: t\n    hosts:\n      at_least: 2\n      where:\n        - { path: run.require, equals: true, reason: not under --require }\n      passes:\n        - { cases: [\"a.accept[image]\"] }\n        - { cases: [a.reject] }\n  - id: witness\n    text: one run used the witness\n    reports: { at_least: 1, where: [{ path: run.witness.used, equals: true }] }\n";

fn good(index: usize, origin: &str, digest: &str) -> InputReport {
    report(
        index,
        origin,
        digest,
        true,
        vec![
            case("a.accept[image]", "S", "pass", None),
            case("a.accept[audio]", "S", "skip", Some("lacks audio")),
            case("a.reject[audio]", "S", "pass", None),
        ],
    )
}

fn verdict(inputs: &[InputReport], extra: &[String]) -> Verdict {
    let criteria = parse("c.yaml", CRITERIA).unwrap();
    judge(&criteria, extra, inputs, &group(inputs))
}

#[test]
fn hosts_that_pass_non_vacuously_are_counted_and_the_excluded_are_named() {
    let inputs = vec![
        good(1, "https://a.example", "d1"),
        good(2, "https://steward.example/x", "d2"),
        good(3, "https://b.example", "d3"),
    ];
    let v = verdict(&inputs, &[]);
    let gated = &v.results[0];
    assert!(gated.met, "{gated:?}");
    assert_eq!(gated.satisfied_by, vec!["H1", "H3"]);
    assert_eq!(gated.excluded_satisfying, vec!["H2"]);
    assert_eq!(gated.reports, vec![1, 3]);
    // The witness is not in today's reports: never met, and the fact is named.
    let witness = &v.results[1];
    assert!(!witness.met && !v.met);
    assert!(
        witness.hosts[0].why[0].contains("run.witness.used is absent"),
        "{witness:?}"
    );
    // --exclude-origin removes one more host: now one short.
    let v = verdict(&inputs, &["https://b.example".to_string()]);
    let gated = &v.results[0];
    assert!(!gated.met);
    assert_eq!(
        gated.missing.as_deref(),
        Some(
            "needs 2 hosts outside the excluded origins (https://steward.example, https://b.example), found 1 (H2, H3 satisfy it but are excluded)"
        )
    );
}

#[test]
fn skips_blocks_failures_and_runs_without_require_never_count() {
    let skipped = report(
        1,
        "https://a.example",
        "d1",
        true,
        vec![
            case("a.accept[image]", "S", "skip", Some("lacks image")),
            case("a.reject[audio]", "S", "pass", None),
        ],
    );
    let blocked = report(
        2,
        "https://b.example",
        "d2",
        true,
        vec![
            case("a.accept[image]", "S", "pass", None),
            case("a.reject[audio]", "S", "blocked", Some("seam answered 404")),
            case("a.reject[document]", "S", "pass", None),
        ],
    );
    let failed = report(
        3,
        "https://c.example",
        "d3",
        true,
        vec![
            case("a.accept[image]", "S", "pass", None),
            case("a.reject[audio]", "S", "fail", None),
        ],
    );
    let lax = report(
        4,
        "https://d.example",
        "d4",
        false,
        vec![
            case("a.accept[image]", "S", "pass", None),
            case("a.reject[audio]", "S", "pass", None),
        ],
    );
    let v = verdict(&[skipped, blocked, failed, lax], &[]);
    let gated = &v.results[0];
    assert!(!gated.met && gated.satisfied_by.is_empty(), "{gated:?}");
    let why = |h: usize| gated.hosts[h].why.join(" | ");
    assert!(
        why(0).contains(
            "0 non-vacuous pass(es), 1 needed; not exercised: a.accept[image] skip (lacks image)"
        ),
        "{}",
        why(0)
    );
    assert!(
        why(1).contains("a.reject[audio] blocked (seam answered 404)"),
        "{}",
        why(1)
    );
    assert!(
        why(2).contains("a.reject[audio] fail (status: expected 4xx; got 200)"),
        "{}",
        why(2)
    );
    assert_eq!(why(3), "#4: not under --require");
}

#[test]
fn two_reports_of_one_host_count_once_and_a_conflict_is_not_a_pass() {
    let inputs = vec![
        good(1, "https://a.example", "d1"),
        good(2, "https://a.example:443/other", "d1"),
    ];
    assert_eq!(group(&inputs).len(), 1);
    let v = verdict(&inputs, &[]);
    assert_eq!(v.results[0].satisfied_by, vec!["H1"]);
    assert!(!v.results[0].met, "one host, counted once, is not two");
    let mut worse = good(3, "https://a.example", "d1");
    worse.report["cases"][2]["outcome"] = json!("fail");
    let inputs = vec![good(1, "https://a.example", "d1"), worse];
    let v = verdict(&inputs, &[]);
    assert!(
        !v.results[0].hosts[0].satisfied,
        "{:?}",
        v.results[0].hosts[0]
    );
}

#[test]
fn counting_origins_merges_the_shapes_of_one_deployment() {
    let text = CRITERIA.replace("at_least: 2\n", "at_least: 2\n      count: origins\n");
    let criteria = parse("c.yaml", &text).unwrap();
    let inputs = vec![
        good(1, "https://a.example", "d1"),
        good(2, "https://a.example", "d2"),
    ];
    let v = judge(&criteria, &[], &inputs, &group(&inputs));
    assert_eq!(v.results[0].satisfied_by, vec!["H1", "H2"]);
    assert!(!v.results[0].met, "two shapes of one origin are one origin");
}

#[test]
fn reached_counts_only_passes_a_witness_saw_reach_the_model() {
    const REACHED: &str = "mmconform_criteria: 1\ntitle: T\ncriteria:\n  - id: reached\n    text: t\n    hosts:\n      at_least: 1\n      passes:\n        - { cases: [\"a.accept[image]\"], reached: true }\n";
    let criteria = parse("c.yaml", REACHED).unwrap();
    let witnessed = |calls: usize, witness_held: bool| {
        let mut pass = case("a.accept[image]", "S", "pass", None);
        pass["model_calls"] = json!(vec![json!({"wire": "chat"}); calls]);
        pass["assertions"].as_array_mut().unwrap().push(json!({
            "check": "witness.reached", "expected": "every part", "actual": "every part",
            "passed": witness_held}));
        report(1, "https://a.example", "d1", true, vec![pass])
    };
    // A witnessed pass whose parts reached the model counts.
    let inputs = vec![witnessed(1, true)];
    let v = judge(&criteria, &[], &inputs, &group(&inputs));
    assert!(v.met, "{v:?}");
    // The same pass from a run without a witness does not, and says why.
    let inputs = vec![good(1, "https://a.example", "d1")];
    let v = judge(&criteria, &[], &inputs, &group(&inputs));
    assert!(!v.met);
    let why = &v.results[0].hosts[0].why[0];
    assert!(
        why.contains("0 non-vacuous pass(es) the witness saw reach the model")
            && why.contains("a.accept[image] pass, not witnessed reaching the model"),
        "{why}"
    );
    // Model calls recorded but none carrying the case (no witness assertion held): no.
    let inputs = vec![witnessed(0, true)];
    assert!(!judge(&criteria, &[], &inputs, &group(&inputs)).met);
}
