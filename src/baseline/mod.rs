//! Baselines: known failures a team has not fixed yet (`--baseline FILE`).
//!
//! A failure matching an entry becomes `xfail` and does not fail the run. The entries
//! themselves are checked too, so a baseline cannot quietly rot: an entry whose case
//! now passes, one that matches no case, or one past its expiry date is drift, and
//! drift makes the run exit 5 naming the entry ([`tracker`]). `mmconform baseline
//! --from REPORT` writes a baseline from a run's report ([`write`]).

pub mod tracker;
pub mod write;

use crate::digest::sha256_hex;
use crate::scenario::builtin;
use crate::scenario::diagnostic::Diagnostic;
use crate::scenario::load::{SourceText, parse_validated};
use jsonschema::Validator;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::OnceLock;

/// A baseline is a list of case ids with reasons: a few hundred KiB is already absurd.
const MAX_BASELINE_BYTES: usize = 1024 * 1024;

/// The file format (schemas/baseline.schema.json).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaselineFile {
    pub mmconform_baseline: u32,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A case id (all its expansions) or one expanded id.
    pub case: String,
    pub reason: String,
    /// `YYYY-MM-DD`; the entry is drift from the day after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

impl Entry {
    /// Whether this entry covers a decided case.
    pub fn matches(&self, expanded_id: &str, case_id: &str) -> bool {
        self.case == expanded_id || self.case == case_id
    }

    /// ISO dates compare as strings, so no calendar arithmetic is needed.
    pub fn expired_on(&self, today: &str) -> bool {
        self.expires.as_deref().is_some_and(|d| d < today)
    }
}

/// A loaded baseline and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// The path as given, for messages and the report.
    pub file: String,
    pub sha256: String,
    pub entries: Vec<Entry>,
    /// 1-based line of each entry, for messages (`file:line`).
    pub lines: Vec<usize>,
}

fn validator() -> &'static Validator {
    static VALIDATOR: OnceLock<Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let text = builtin::schema("baseline").expect("baseline.schema.json is embedded");
        let schema: serde_json::Value =
            serde_json::from_str(text).expect("baseline.schema.json is JSON");
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("baseline.schema.json compiles")
    })
}

/// Why a baseline could not be used: unreadable, or problems at file:line:col.
#[derive(Debug)]
pub enum LoadError {
    Io(String),
    Invalid(Vec<Diagnostic>),
}

/// Parses and validates baseline text (YAML, or JSON when `name` ends in `.json`).
pub fn parse(name: &str, text: &str) -> Result<Baseline, Vec<Diagnostic>> {
    let source = SourceText {
        name: name.to_string(),
        text: text.to_string(),
    };
    let (value, index) = parse_validated(&source, validator(), "baseline", MAX_BASELINE_BYTES)?;
    let file: BaselineFile = serde_json::from_value(value).map_err(|e| {
        vec![Diagnostic::new(
            name,
            text,
            index.node(""),
            format!("does not match the baseline format: {e}"),
        )]
    })?;
    let lines: Vec<usize> = (0..file.entries.len())
        .map(|i| index.node(&format!("/entries/{i}")).line)
        .collect();
    let mut problems = Vec::new();
    for (i, entry) in file.entries.iter().enumerate() {
        if let Some(first) = file.entries[..i].iter().position(|e| e.case == entry.case) {
            problems.push(Diagnostic::new(
                name,
                text,
                index.node(&format!("/entries/{i}/case")),
                format!(
                    "`{}` is already listed at line {}; one entry per case",
                    entry.case, lines[first]
                ),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Baseline {
        file: name.to_string(),
        sha256: sha256_hex(text.as_bytes()),
        entries: file.entries,
        lines,
    })
}

pub fn load(path: &Path) -> Result<Baseline, LoadError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| LoadError::Io(format!("--baseline {}: {e}", path.display())))?;
    parse(&path.display().to_string(), &text).map_err(LoadError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "mmconform_baseline: 1\nentries:\n  - case: a.b[image]\n    reason: HOST-1\n  - case: a.c\n    reason: HOST-2\n    expires: 2030-01-31\n";

    #[test]
    fn parses_yaml_with_entry_lines() {
        let b = parse("b.yaml", GOOD).unwrap();
        assert_eq!(b.entries.len(), 2);
        assert_eq!(b.lines, vec![3, 5]);
        assert_eq!(b.entries[1].expires.as_deref(), Some("2030-01-31"));
        assert!(b.entries[0].matches("a.b[image]", "a.b"));
        assert!(!b.entries[0].matches("a.b[audio]", "a.b"));
        assert!(b.entries[1].matches("a.c[audio]", "a.c"));
        assert!(b.entries[1].expired_on("2030-02-01"));
        assert!(!b.entries[1].expired_on("2030-01-31"));
    }

    #[test]
    fn problems_carry_file_line_col() {
        let bad_date = GOOD.replace("2030-01-31", "next week");
        let d = parse("b.yaml", &bad_date).unwrap_err();
        assert_eq!((d[0].position.line, d[0].file.as_str()), (7, "b.yaml"));
        let unknown = GOOD.replace("    reason: HOST-2", "    reason: HOST-2\n    owner: me");
        let d = parse("b.yaml", &unknown).unwrap_err();
        assert!(
            d[0].message.contains("unknown key `owner`"),
            "{}",
            d[0].message
        );
        let dup = GOOD.replace("a.c", "a.b[image]");
        let d = parse("b.yaml", &dup).unwrap_err();
        assert_eq!(d[0].position.line, 5);
        assert!(d[0].message.contains("already listed at line 3"));
        let json = parse(
            "b.json",
            r#"{"mmconform_baseline": 1, "entries": [{"case": "x"}]}"#,
        )
        .unwrap_err();
        assert!(json[0].message.contains("reason"), "{}", json[0].message);
    }
}
