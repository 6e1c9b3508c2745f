//! What differs between the inputs, so a reader knows what the matrix compares.
//!
//! Reports of different mmconform versions or scenario sets are still merged, by case
//! id and requirement text; this lists where they part: versions, scenario sets, a
//! case whose requirement reads differently, cases some reports lack, filtered or
//! interrupted runs.

use super::cases::Requirement;
use super::input::InputReport;
use std::collections::{BTreeMap, BTreeSet};

/// How many case ids a sentence names before it says "and N more".
const NAMED: usize = 8;

fn refs(indexes: &[usize]) -> String {
    indexes
        .iter()
        .map(|i| format!("#{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn some(ids: &[String]) -> String {
    let shown: Vec<&str> = ids.iter().take(NAMED).map(String::as_str).collect();
    let more = ids.len().saturating_sub(NAMED);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("{}{tail}", shown.join(", "))
}

/// Groups report indexes by a value each report has.
fn by_value(
    inputs: &[InputReport],
    value: impl Fn(&InputReport) -> String,
) -> BTreeMap<String, Vec<usize>> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for input in inputs {
        groups.entry(value(input)).or_default().push(input.index);
    }
    groups
}

fn run_text(input: &InputReport, key: &str) -> String {
    input.report["run"][key].as_str().unwrap_or("?").to_string()
}

/// Every difference, one sentence each.
pub fn differences(inputs: &[InputReport]) -> Vec<String> {
    let mut out = Vec::new();
    for (what, key) in [
        ("mmconform versions", "tool_version"),
        ("scenario sets", "scenario_set_sha256"),
    ] {
        let groups = by_value(inputs, |i| run_text(i, key));
        if groups.len() > 1 {
            let parts: Vec<String> = groups
                .iter()
                .map(|(v, ix)| format!("{} ({})", v.chars().take(12).collect::<String>(), refs(ix)))
                .collect();
            out.push(format!(
                "{what} differ: {}; cases are compared by id and requirement text",
                parts.join(", ")
            ));
        }
    }
    for (i, input) in inputs.iter().enumerate() {
        if let Some(first) = inputs[..i].iter().find(|o| o.integrity == input.integrity) {
            out.push(format!(
                "#{} is the same report as #{} (same digest)",
                input.index, first.index
            ));
        }
    }
    out.extend(requirement_changes(inputs));
    out.extend(missing_cases(inputs));
    for input in inputs {
        let run = &input.report["run"];
        let filters: Vec<String> = run["filters"]
            .as_array()
            .map(|f| {
                f.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if !filters.is_empty() {
            out.push(format!(
                "#{} ran with --filter {}: cases outside it were not run on its host",
                input.index,
                filters.join(" --filter ")
            ));
        }
        if input.report["summary"]["incomplete"] == true {
            out.push(format!(
                "#{} is incomplete (the run was interrupted): undecided cases are absent",
                input.index
            ));
        }
    }
    out
}

/// A case id whose requirement reads differently in some reports.
fn requirement_changes(inputs: &[InputReport]) -> Vec<String> {
    // Per case id, each reading of its requirement in the order first seen.
    let mut seen: BTreeMap<String, Vec<(Requirement, Vec<usize>)>> = BTreeMap::new();
    for input in inputs {
        for case in input.report["cases"].as_array().into_iter().flatten() {
            let id = case["id"].as_str().unwrap_or_default().to_string();
            let versions = seen.entry(id).or_default();
            let requirement = Requirement::of(case);
            let at = match versions.iter().position(|(r, _)| *r == requirement) {
                Some(at) => at,
                None => {
                    versions.push((requirement, Vec::new()));
                    versions.len() - 1
                }
            };
            if !versions[at].1.contains(&input.index) {
                versions[at].1.push(input.index);
            }
        }
    }
    seen.into_iter()
        .filter(|(_, versions)| versions.len() > 1)
        .map(|(id, versions)| {
            let parts: Vec<String> = versions
                .iter()
                .map(|(r, ix)| format!("[{} {}] \"{}\" ({})", r.level, r.source, r.text, refs(ix)))
                .collect();
            format!(
                "{id}: the requirement differs between reports, shown as separate rows: {}",
                parts.join(" vs ")
            )
        })
        .collect()
}

/// Case ids some reports list and others do not.
fn missing_cases(inputs: &[InputReport]) -> Vec<String> {
    if inputs.len() < 2 {
        return Vec::new();
    }
    let ids = |input: &InputReport| -> BTreeSet<String> {
        input.report["cases"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["id"].as_str().map(str::to_string))
            .collect()
    };
    let each: Vec<BTreeSet<String>> = inputs.iter().map(ids).collect();
    let union: BTreeSet<&String> = each.iter().flatten().collect();
    inputs
        .iter()
        .zip(&each)
        .filter_map(|(input, own)| {
            let lacking: Vec<String> = union
                .iter()
                .filter(|id| !own.contains(id.as_str()))
                .map(|id| id.to_string())
                .collect();
            (!lacking.is_empty()).then(|| {
                format!(
                    "#{} lacks {} case(s) other reports list: {}",
                    input.index,
                    lacking.len(),
                    some(&lacking)
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn input(index: usize, version: &str, cases: Value) -> InputReport {
        InputReport {
            index,
            file: format!("r{index}.json"),
            file_sha256: String::new(),
            integrity: format!("digest-{index}"),
            report: json!({"run": {"tool_version": version, "scenario_set_sha256": "aa",
                "filters": []}, "summary": {"incomplete": false}, "cases": cases}),
            reading: Default::default(),
        }
    }

    fn case(id: &str, text: &str) -> Value {
        json!({"id": id, "requirement": {"source": "RFC 0091 §A", "level": "MUST", "text": text}})
    }

    #[test]
    fn lists_versions_changed_requirements_and_missing_cases() {
        let a = input(1, "0.1.0", json!([case("x", "old"), case("y", "t")]));
        let b = input(2, "0.2.0", json!([case("x", "new")]));
        let d = differences(&[a, b]);
        assert!(
            d[0].starts_with("mmconform versions differ: 0.1.0 (#1), 0.2.0 (#2)"),
            "{d:?}"
        );
        assert!(
            d.iter().any(|l| l.starts_with("x: the requirement differs")
                && l.contains("\"old\" (#1) vs")
                && l.contains("\"new\" (#2)")),
            "{d:?}"
        );
        assert!(
            d.iter()
                .any(|l| l == "#2 lacks 1 case(s) other reports list: y"),
            "{d:?}"
        );
    }

    #[test]
    fn identical_inputs_differ_in_nothing_but_the_same_report_twice_is_named() {
        let a = input(1, "0.1.0", json!([case("x", "t")]));
        let b = input(2, "0.1.0", json!([case("x", "t")]));
        assert!(differences(&[a.clone(), b]).is_empty());
        let mut again = a.clone();
        again.index = 2;
        assert_eq!(
            differences(&[a, again]),
            vec!["#2 is the same report as #1 (same digest)"]
        );
    }
}
