//! Reading a criteria file the way scenario and baseline files are read: YAML or JSON,
//! validated against `schemas/criteria.schema.json`, every problem at `file:line:col`.

use super::CriteriaFile;
use crate::digest::sha256_hex;
use crate::plan::predicate::evaluate_all;
use crate::scenario::builtin;
use crate::scenario::diagnostic::Diagnostic;
use crate::scenario::load::{LazyIndex, SourceText, parse_validated};
use jsonschema::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// Criteria are a page of YAML; a megabyte is already absurd.
const MAX_CRITERIA_BYTES: usize = 1024 * 1024;

/// A criteria file that passed every check, and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedCriteria {
    /// `builtin:rfc0091` or the path as given.
    pub name: String,
    /// SHA-256 of the file's text, so the verdict names exactly what it judged by.
    pub sha256: String,
    pub file: CriteriaFile,
}

fn validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let text = builtin::schema("criteria").expect("criteria.schema.json is embedded");
        let schema: Value = serde_json::from_str(text).expect("criteria.schema.json is JSON");
        jsonschema::options()
            .build(&schema)
            .expect("criteria.schema.json compiles")
    })
}

/// Parses and checks criteria text (YAML, or JSON when `name` ends in `.json`).
pub fn parse(name: &str, text: &str) -> Result<LoadedCriteria, Vec<Diagnostic>> {
    let source = SourceText {
        name: name.to_string(),
        text: text.to_string(),
    };
    let (value, index) = parse_validated(&source, validator(), "criteria", MAX_CRITERIA_BYTES)?;
    let file: CriteriaFile = serde_json::from_value(value).map_err(|e| {
        vec![Diagnostic::new(
            name,
            text,
            index.node(""),
            format!("does not match the criteria format: {e}"),
        )]
    })?;
    let mut problems = semantic_problems(&file, &index)
        .into_iter()
        .map(|(pointer, message)| Diagnostic::new(name, text, index.node(&pointer), message))
        .collect::<Vec<_>>();
    if !problems.is_empty() {
        problems.sort_by_key(|d| d.position);
        return Err(problems);
    }
    Ok(LoadedCriteria {
        name: name.to_string(),
        sha256: sha256_hex(text.as_bytes()),
        file,
    })
}

/// What the schema cannot say: ids are unique, and predicates hold no placeholders
/// (there is nothing to fill them with: paths go straight into the report).
fn semantic_problems(file: &CriteriaFile, _index: &LazyIndex) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, criterion) in file.criteria.iter().enumerate() {
        if let Some(first) = file.criteria[..i].iter().position(|c| c.id == criterion.id) {
            out.push((
                format!("/criteria/{i}/id"),
                format!(
                    "criterion id `{}` is already used by criteria[{first}]",
                    criterion.id
                ),
            ));
        }
        let predicates = match (&criterion.hosts, &criterion.reports) {
            (Some(h), _) => (&h.where_, "hosts"),
            (None, Some(r)) => (&r.where_, "reports"),
            (None, None) => continue,
        };
        for (j, predicate) in predicates.0.iter().enumerate() {
            if let Err(e) = evaluate_all(std::slice::from_ref(predicate), &Value::Null, &|_| None) {
                out.push((
                    format!("/criteria/{i}/{}/where/{j}", predicates.1),
                    format!("{e} (criteria predicates are paths into the report; no placeholders)"),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "mmconform_criteria: 1\ntitle: T\ncriteria:\n  - id: a\n    text: one host\n    hosts:\n      at_least: 1\n      where:\n        - { path: run.require, equals: true }\n      passes:\n        - { cases: [x.y], at_least: 1 }\n";

    fn problems(text: &str) -> Vec<String> {
        match parse("c.yaml", text) {
            Ok(_) => Vec::new(),
            Err(d) => d
                .iter()
                .map(|d| format!("{}: {}", d.location(), d.message))
                .collect(),
        }
    }

    #[test]
    fn a_good_file_loads_with_its_digest() {
        let loaded = parse("c.yaml", GOOD).unwrap();
        assert_eq!(loaded.file.criteria[0].id, "a");
        assert_eq!(loaded.sha256.len(), 64);
    }

    #[test]
    fn an_unknown_key_is_named_at_its_line_and_column() {
        let text = GOOD.replace(
            "      at_least: 1\n      where:",
            "      at_least: 1\n      wher: []\n      where:",
        );
        assert_eq!(
            problems(&text),
            vec!["c.yaml:8:7: unknown key `wher` in criteria[0].hosts"]
        );
    }

    #[test]
    fn wrong_values_point_at_the_value() {
        let text = GOOD.replace("at_least: 1\n      where", "at_least: 0\n      where");
        let found = problems(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("c.yaml:7:17: criteria[0].hosts.at_least"),
            "{found:?}"
        );
        let bad_level = GOOD.replace("{ cases: [x.y], at_least: 1 }", "{ level: must }");
        assert!(
            problems(&bad_level)[0].starts_with("c.yaml:11:20:"),
            "{:?}",
            problems(&bad_level)
        );
    }

    #[test]
    fn syntax_errors_duplicate_ids_and_placeholders_are_located() {
        assert!(problems("mmconform_criteria: 1\ntitle: [\n")[0].starts_with("c.yaml:"));
        let twice = format!(
            "{GOOD}  - id: a\n    text: again\n    reports: {{ at_least: 1, where: [{{ path: run.x, exists: true }}] }}\n"
        );
        assert_eq!(
            problems(&twice),
            vec!["c.yaml:12:9: criterion id `a` is already used by criteria[0]"]
        );
        let placeholder = GOOD.replace("equals: true", "equals: \"{modality}\"");
        let found = problems(&placeholder);
        assert!(
            found[0].starts_with("c.yaml:9:11:") && found[0].contains("no placeholders"),
            "{found:?}"
        );
    }

    #[test]
    fn a_criterion_counts_hosts_or_reports() {
        let neither = "mmconform_criteria: 1\ntitle: T\ncriteria:\n  - id: a\n    text: t\n";
        assert!(!problems(neither).is_empty());
    }
}
