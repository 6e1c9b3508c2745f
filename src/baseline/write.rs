//! `mmconform baseline --from REPORT`: a baseline listing what a run found failing,
//! so a team can adopt mmconform on a host with known gaps and gate on new ones.

use super::{BaselineFile, Entry};
use serde_json::Value;

/// How new entries are annotated.
#[derive(Debug, Clone, Default)]
pub struct EntryDefaults {
    /// The reason written on every new entry; a default names the report.
    pub reason: Option<String>,
    /// `YYYY-MM-DD` expiry for new entries.
    pub expires: Option<String>,
}

/// Entries for every failing case of `report` (a JSON evidence report), plus the
/// entries that excused its expected failures, in plan order.
pub fn from_report(
    report: &Value,
    report_name: &str,
    today: &str,
    defaults: &EntryDefaults,
) -> Result<BaselineFile, String> {
    let cases = report
        .get("cases")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{report_name} has no `cases` array: is it an mmconform report?"))?;
    let mut entries: Vec<Entry> = Vec::new();
    for case in cases {
        let text = |key: &str| case.get(key).and_then(Value::as_str);
        let (Some(id), Some(outcome)) = (text("id"), text("outcome")) else {
            return Err(format!("{report_name}: a case without id or outcome"));
        };
        let entry = match outcome {
            "fail" => Entry {
                case: id.to_string(),
                reason: defaults.reason.clone().unwrap_or_else(|| {
                    format!(
                        "failing in {report_name} on {today}: {}",
                        text("reason").unwrap_or("see the report")
                    )
                }),
                expires: defaults.expires.clone(),
            },
            // Still known: keep the entry that excused it, as written.
            "xfail" => {
                let known = case.get("expected_failure").cloned().unwrap_or_default();
                let field = |k: &str| known.get(k).and_then(Value::as_str).map(str::to_string);
                Entry {
                    case: field("entry").unwrap_or_else(|| id.to_string()),
                    reason: field("reason").unwrap_or_else(|| "kept from the last baseline".into()),
                    expires: field("expires"),
                }
            }
            _ => continue,
        };
        if !entries.iter().any(|e| e.case == entry.case) {
            entries.push(entry);
        }
    }
    Ok(BaselineFile {
        mmconform_baseline: 1,
        entries,
    })
}

/// The baseline as YAML, with a header saying where it came from.
pub fn to_yaml(file: &BaselineFile, report_name: &str, today: &str) -> Result<String, String> {
    let body = serde_saphyr::to_string(file).map_err(|e| format!("cannot write YAML: {e}"))?;
    Ok(format!(
        "# mmconform baseline: known failures, written by `mmconform baseline --from {report_name}` on {today}.\n\
         # A listed failure is reported as xfail and does not fail `run --baseline`; an entry\n\
         # whose case passes, that matches no case, or past its `expires` date is drift (exit 5).\n\
         {body}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn failures_and_kept_entries_round_trip_through_the_parser() {
        let report = json!({"cases": [
            {"id": "a[image]", "outcome": "fail", "reason": "expected 2xx; got 500"},
            {"id": "b", "outcome": "pass"},
            {"id": "c[audio]", "outcome": "xfail", "expected_failure":
                {"entry": "c", "reason": "HOST-7", "expires": "2027-01-01"}},
            {"id": "c[image]", "outcome": "xfail", "expected_failure":
                {"entry": "c", "reason": "HOST-7", "expires": "2027-01-01"}},
            {"id": "d", "outcome": "warn"}
        ]});
        let file = from_report(&report, "r.json", "2026-11-23", &EntryDefaults::default()).unwrap();
        assert_eq!(file.entries.len(), 2);
        assert_eq!(file.entries[0].case, "a[image]");
        assert_eq!(
            file.entries[0].reason,
            "failing in r.json on 2026-11-23: expected 2xx; got 500"
        );
        assert_eq!(file.entries[1].case, "c");
        assert_eq!(file.entries[1].expires.as_deref(), Some("2027-01-01"));
        let yaml = to_yaml(&file, "r.json", "2026-11-23").unwrap();
        assert!(yaml.starts_with("# mmconform baseline"), "{yaml}");
        let parsed = super::super::parse("b.yaml", &yaml).unwrap();
        assert_eq!(parsed.entries, file.entries);
    }

    #[test]
    fn defaults_apply_to_new_entries_only() {
        let report = json!({"cases": [{"id": "a", "outcome": "fail"}]});
        let defaults = EntryDefaults {
            reason: Some("HOST-9".into()),
            expires: Some("2027-02-01".into()),
        };
        let file = from_report(&report, "r.json", "2026-11-23", &defaults).unwrap();
        assert_eq!(file.entries[0].reason, "HOST-9");
        assert_eq!(file.entries[0].expires.as_deref(), Some("2027-02-01"));
        assert!(from_report(&json!({"x": 1}), "r.json", "d", &defaults).is_err());
    }
}
