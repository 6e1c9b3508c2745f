//! `mmconform verify REPORT`: re-checking a JSON evidence report.
//!
//! A report is evidence a steward attaches to an RFC promotion, so it must be possible
//! to tell whether it is still what mmconform wrote. Each check here is independent and
//! named; any failing check means the file was edited (or is not an mmconform report).
//! The digest detects edits; it cannot prove who wrote the file, and the README says so.

use super::json::{INTEGRITY_KEY, recomputed_integrity};
use crate::digest::sha256_hex;
use crate::exit::{self, RunFacts};
use crate::outcome::Outcome;
use crate::scenario::builtin;
use crate::scenario::suite::{builtin_sources, set_sha256};
use mmconform_json::canonical_sha256;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub name: &'static str,
    pub passed: bool,
    pub detail: String,
}

fn check(name: &'static str, passed: bool, detail: impl Into<String>) -> Check {
    Check {
        name,
        passed,
        detail: detail.into(),
    }
}

fn report_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let schema: Value = serde_json::from_str(
            builtin::schema("report").expect("report.schema.json is embedded"),
        )
        .expect("report.schema.json is JSON");
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("report.schema.json compiles")
    })
}

/// Whether every check held: the report is what mmconform wrote.
pub fn intact(checks: &[Check]) -> bool {
    checks.iter().all(|c| c.passed)
}

/// The parsed report when every check holds; otherwise the checks that failed, in
/// order. For callers that go on to read the report (`evidence merge`): what they
/// read is exactly what `mmconform verify` accepts.
pub fn verified(bytes: &[u8]) -> Result<Value, Vec<Check>> {
    match checked(bytes) {
        (checks, Some(report)) if intact(&checks) => Ok(report),
        (checks, _) => Err(checks.into_iter().filter(|c| !c.passed).collect()),
    }
}

/// Every check, in order; parsing failures end the list early.
pub fn verify(bytes: &[u8]) -> Vec<Check> {
    checked(bytes).0
}

/// Every check, and the report they were made on (none when it is not JSON).
fn checked(bytes: &[u8]) -> (Vec<Check>, Option<Value>) {
    let report: Value = match mmconform_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return (vec![check("json", false, format!("not JSON: {e}"))], None),
    };
    let mut checks = vec![check("json", true, "parses")];
    checks.push(canonical_form(bytes, &report));
    checks.push(schema(&report));
    if checks.last().is_some_and(|c| c.passed) {
        // Only a report of the schema's shape is read further: the remaining checks
        // would read garbage otherwise.
        checks.push(own_digest(&report));
        checks.push(discovery_digest(&report));
        checks.push(scenario_set(&report));
        checks.push(counts_and_exit_code(&report));
    }
    (checks, Some(report))
}

/// mmconform writes pretty JSON with a final newline; a re-rendering of the parsed
/// document must give the same bytes, so even a whitespace edit shows.
fn canonical_form(bytes: &[u8], report: &Value) -> Check {
    let mut rendered = mmconform_json::pretty(report);
    rendered.push(b'\n');
    if rendered == bytes {
        return check("layout", true, "byte-for-byte as mmconform writes it");
    }
    let at = rendered
        .iter()
        .zip(bytes)
        .position(|(a, b)| a != b)
        .unwrap_or(rendered.len().min(bytes.len()));
    check(
        "layout",
        false,
        format!("differs from how mmconform writes this document, first at byte {at}"),
    )
}

fn schema(report: &Value) -> Check {
    let errors: Vec<String> = report_validator()
        .iter_errors(report)
        .take(5)
        .map(|e| format!("at {}: {}", e.instance_path(), e.masked()))
        .collect();
    if errors.is_empty() {
        check("schema", true, "valid against report.schema.json")
    } else {
        check("schema", false, errors.join("; "))
    }
}

fn own_digest(report: &Value) -> Check {
    let recorded = report.get(INTEGRITY_KEY).unwrap_or(&Value::Null);
    let expected = recomputed_integrity(report);
    if *recorded == expected {
        check(
            "integrity",
            true,
            "the report's SHA-256 matches its content",
        )
    } else {
        check(
            "integrity",
            false,
            format!(
                "recorded {}, content hashes to {}",
                recorded["canonical_sha256"], expected["canonical_sha256"]
            ),
        )
    }
}

fn discovery_digest(report: &Value) -> Check {
    let discovery = &report["discovery"];
    match (
        &discovery["document"],
        discovery["canonical_sha256"].as_str(),
    ) {
        (Value::Null, None) => check("discovery", true, "no discovery document recorded"),
        (document, Some(recorded)) if !document.is_null() => {
            let actual = canonical_sha256(document);
            check(
                "discovery",
                actual == recorded,
                if actual == recorded {
                    "the document matches its canonical SHA-256".to_string()
                } else {
                    format!("recorded {recorded}, the document hashes to {actual}")
                },
            )
        }
        _ => check(
            "discovery",
            false,
            "a document without its hash, or a hash without its document",
        ),
    }
}

fn scenario_set(report: &Value) -> Check {
    let run = &report["run"];
    if run.is_null() {
        return check("scenarios", true, "the run ended before describing itself");
    }
    let files: Vec<(String, String)> = run["scenario_files"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|p| {
                    let s = |i: usize| p[i].as_str().unwrap_or_default().to_string();
                    (s(0), s(1))
                })
                .collect()
        })
        .unwrap_or_default();
    let recorded = run["scenario_set_sha256"].as_str().unwrap_or_default();
    if set_sha256(&files) != recorded {
        return check(
            "scenarios",
            false,
            "scenario_set_sha256 does not match the listed files",
        );
    }
    if run["tool_version"] != env!("CARGO_PKG_VERSION") {
        return check(
            "scenarios",
            true,
            "the set hash matches its files; built-in files not compared (another mmconform version)",
        );
    }
    let ours: BTreeMap<String, String> = builtin_sources()
        .into_iter()
        .map(|s| (s.name, sha256_hex(s.text.as_bytes())))
        .collect();
    for (name, sha) in &files {
        if let Some(expected) = ours.get(name)
            && expected != sha
        {
            return check(
                "scenarios",
                false,
                format!("{name} differs from this mmconform's built-in copy"),
            );
        }
    }
    check(
        "scenarios",
        true,
        "the set hash matches its files, and built-in files match this mmconform",
    )
}

/// The summary must be what `exit.rs` decides from the cases the report lists.
fn counts_and_exit_code(report: &Value) -> Check {
    let cases = report["cases"].as_array().cloned().unwrap_or_default();
    let mut tally: BTreeMap<Outcome, usize> = BTreeMap::new();
    let mut self_checks: BTreeMap<Outcome, usize> = BTreeMap::new();
    for case in &cases {
        let counts = if case["self_check"] == true {
            &mut self_checks
        } else {
            &mut tally
        };
        match serde_json::from_value::<Outcome>(case["outcome"].clone()) {
            Ok(o) => *counts.entry(o).or_default() += 1,
            Err(_) => return check("verdict", false, "a case with an unknown outcome"),
        }
        let executed = case["assertions"].as_array().map_or(0, Vec::len);
        if case["assertions_executed"] != executed {
            return check(
                "verdict",
                false,
                format!(
                    "{}: assertions_executed disagrees with its assertions",
                    case["id"]
                ),
            );
        }
    }
    let summary = &report["summary"];
    let recorded: BTreeMap<Outcome, usize> =
        serde_json::from_value(summary["counts"].clone()).unwrap_or_default();
    let nonzero = |m: &BTreeMap<Outcome, usize>| -> BTreeMap<Outcome, usize> {
        m.iter()
            .filter(|(_, n)| **n > 0)
            .map(|(o, n)| (*o, *n))
            .collect()
    };
    let recorded_self: BTreeMap<Outcome, usize> =
        serde_json::from_value(summary["self_checks"].clone()).unwrap_or_default();
    if nonzero(&recorded) != nonzero(&tally) || nonzero(&recorded_self) != nonzero(&self_checks) {
        return check(
            "verdict",
            false,
            "summary.counts disagrees with the cases listed",
        );
    }
    let facts = RunFacts {
        discovery_problem: report["discovery"]["problem"].as_str().map(str::to_string),
        interrupted: summary["incomplete"] == true,
        baseline_drift: serde_json::from_value(summary["baseline_drift"].clone())
            .unwrap_or_default(),
        ..RunFacts::default()
    };
    let decision = exit::decide(&exit::deciding_counts(&tally, &self_checks), &facts);
    if summary["exit_code"] == decision.code && summary["verdict"] == decision.verdict {
        check(
            "verdict",
            true,
            format!(
                "counts and exit code {} follow from the cases",
                decision.code
            ),
        )
    } else {
        check(
            "verdict",
            false,
            format!(
                "the cases give exit {} ({}); the summary says {} ({})",
                decision.code, decision.verdict, summary["exit_code"], summary["verdict"]
            ),
        )
    }
}
