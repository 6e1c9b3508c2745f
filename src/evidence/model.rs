//! The merged evidence: one value every renderer reads, and the JSON output's shape
//! (`schemas/evidence.schema.json`). Bump [`EVIDENCE_VERSION`] on any change a
//! consumer could notice.

use super::hosts::Host;
use super::input::InputReport;
use super::matrix::RequirementRow;
use super::verdict::Verdict;
use serde::Serialize;

pub const EVIDENCE_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct Merged {
    #[serde(rename = "evidenceVersion")]
    pub evidence_version: u32,
    /// The mmconform that verified the inputs and merged them.
    pub tool_version: String,
    /// UTC date of the merge (`YYYY-MM-DD`).
    pub merged_on: String,
    /// Every input report, cited by its digests.
    pub inputs: Vec<InputSummary>,
    pub hosts: Vec<Host>,
    pub requirements: Vec<RequirementRow>,
    /// Hosts with several reports, which count once.
    pub counted_once: Vec<String>,
    /// Cases whose outcome differs between reports of one host.
    pub conflicts: Vec<String>,
    /// What differs between the inputs (versions, scenario sets, requirement text).
    pub differences: Vec<String>,
    /// Null when no criteria were given.
    pub verdict: Option<Verdict>,
}

/// An input report as the merge cites it.
#[derive(Debug, Clone, Serialize)]
pub struct InputSummary {
    /// `#n`: position on the command line.
    pub index: usize,
    pub file: String,
    /// The report's own digest (`integrity.canonical_sha256`): `mmconform verify FILE`
    /// recomputes it.
    pub integrity_sha256: String,
    /// SHA-256 of the file's bytes (`sha256sum FILE`).
    pub file_sha256: String,
    /// The host (`H1`) it is about.
    pub host: String,
    pub target: String,
    pub tool_version: String,
    pub scenario_set_sha256: String,
    pub started_at: String,
    /// `default`, `require`, `strict` or `strict+require`.
    pub mode: String,
    /// The run's own exit code and verdict, as the report states them.
    pub exit_code: i64,
    pub verdict: String,
    pub incomplete: bool,
    /// The run had a witness (`run --witness`): its cases carry the model calls that
    /// reached the host's model (`model_calls`).
    pub witnessed: bool,
}

impl InputSummary {
    pub fn of(input: &InputReport, host: &str) -> InputSummary {
        let run = &input.report["run"];
        let summary = &input.report["summary"];
        let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
        InputSummary {
            index: input.index,
            file: input.file.clone(),
            integrity_sha256: input.integrity.clone(),
            file_sha256: input.file_sha256.clone(),
            host: host.to_string(),
            target: text(&run["target"]),
            tool_version: text(&run["tool_version"]),
            scenario_set_sha256: text(&run["scenario_set_sha256"]),
            started_at: text(&run["started_at"]),
            mode: crate::report::mode_label(run["strict"] == true, run["require"] == true)
                .to_string(),
            exit_code: summary["exit_code"].as_i64().unwrap_or(-1),
            verdict: text(&summary["verdict"]),
            incomplete: summary["incomplete"] == true,
            witnessed: run["witness"].is_string(),
        }
    }
}
