//! The reports to merge. Each is checked exactly as `mmconform verify` checks it
//! (layout, schema, its own digest, the discovery digest, the scenario-set hash, the
//! verdict) before anything is read from it: a report that fails any check is refused
//! and named with the reasons, and nothing is merged.

use crate::digest::sha256_hex;
use crate::report::verify::verified;
use serde_json::Value;
use std::path::PathBuf;

/// A verified report, cited by its digests.
#[derive(Debug, Clone)]
pub struct InputReport {
    /// 1-based position on the command line (`#1`).
    pub index: usize,
    /// The path as given.
    pub file: String,
    /// SHA-256 of the file's bytes (`sha256sum FILE`).
    pub file_sha256: String,
    /// The report's own digest (`integrity.canonical_sha256`), which `verify` recomputes.
    pub integrity: String,
    pub report: Value,
    /// What the report's protocol reads in it that evidence cannot read generically
    /// (the registry fills it: `Protocol::read_report`).
    pub reading: ReportReading,
}

/// What a report's protocol says about its run where the merge cannot know: its wire,
/// what its discovery advertised, the variant all its cases were judged at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportReading {
    /// The wire protocol of the run (`openwop v1, spec dialect`); `None`: the profile's
    /// name.
    pub wire: Option<String>,
    /// What the host's discovery document advertised, one fact a line.
    pub advertised: Vec<String>,
    /// The variant every case of the run was judged at (`v2`) and how a requirement's
    /// source names it (`openwop 2`): its cases line up with the twins (`<id>@v2`) a run
    /// of both variants names.
    pub variant: Option<(String, String)>,
}

/// A report that may not be merged, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub file: String,
    pub reasons: Vec<String>,
}

/// Why the inputs could not be merged.
#[derive(Debug)]
pub enum InputProblem {
    /// A file could not be read (a usage error).
    Unreadable(String),
    /// Files that were read but refused.
    Refused(Vec<Refusal>),
}

/// Reads and admits every file, in order; every refusal is collected, not just the first.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<InputReport>, InputProblem> {
    let mut admitted = Vec::new();
    let mut refused = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let file = path.display().to_string();
        let bytes =
            std::fs::read(path).map_err(|e| InputProblem::Unreadable(format!("{file}: {e}")))?;
        match admit(i + 1, &file, &bytes) {
            Ok(input) => admitted.push(input),
            Err(refusal) => refused.push(refusal),
        }
    }
    if refused.is_empty() {
        Ok(admitted)
    } else {
        Err(InputProblem::Refused(refused))
    }
}

/// Verifies one report and checks that it is evidence about a host.
pub fn admit(index: usize, file: &str, bytes: &[u8]) -> Result<InputReport, Refusal> {
    let refuse = |reasons: Vec<String>| Refusal {
        file: file.to_string(),
        reasons,
    };
    let report = verified(bytes).map_err(|failed| {
        refuse(
            failed
                .iter()
                .map(|c| format!("{}: {}", c.name, c.detail))
                .collect(),
        )
    })?;
    if let Some(why) = not_about_a_host(&report) {
        return Err(refuse(vec![why]));
    }
    let integrity = report["integrity"]["canonical_sha256"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    Ok(InputReport {
        index,
        file: file.to_string(),
        file_sha256: sha256_hex(bytes),
        integrity,
        report,
        reading: ReportReading::default(),
    })
}

/// An intact report can still say nothing about any host.
fn not_about_a_host(report: &Value) -> Option<String> {
    let run = &report["run"];
    if run.is_null() {
        return Some(
            "incompatible: the run ended before describing itself, so no host can be named".into(),
        );
    }
    let target = run["target"].as_str().unwrap_or_default();
    if target.starts_with("offline") {
        return Some(format!(
            "incompatible: an offline run ({target}) observed no host"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_verify_refuses_with_the_failed_checks() {
        let refusal = admit(1, "r.json", b"{\"reportVersion\": 2}\n").unwrap_err();
        assert_eq!(refusal.file, "r.json");
        assert!(
            refusal.reasons.iter().any(|r| r.starts_with("schema:")),
            "{refusal:?}"
        );
        let truncated = admit(2, "t.json", b"{\"reportVersion\": ").unwrap_err();
        assert!(
            truncated.reasons[0].starts_with("json: not JSON"),
            "{truncated:?}"
        );
    }

    #[test]
    fn an_offline_run_is_not_about_a_host() {
        let report =
            serde_json::json!({"run": {"target": "offline (no target: only offline cases run)"}});
        assert!(not_about_a_host(&report).unwrap().contains("offline run"));
        assert!(
            not_about_a_host(&serde_json::json!({"run": null}))
                .unwrap()
                .contains("before describing itself")
        );
        assert_eq!(
            not_about_a_host(&serde_json::json!({"run": {"target": "https://h.example"}})),
            None
        );
    }
}
