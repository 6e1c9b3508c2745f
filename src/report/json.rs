//! The JSON evidence file a spec steward attaches when promoting an RFC.
//!
//! It is the serde form of the shared event types, so it says exactly what the run
//! saw; `schemas/report.schema.json` describes it and a test keeps the two in step.
//! Bump [`REPORT_VERSION`] on any change a consumer could notice.

use super::atomic::write_atomically;
use super::record::RunRecord;
use super::{ReportError, Reporter};
use crate::canonical::canonical_sha256;
use crate::event::{DiscoverySnapshot, Event, RunInfo, RunSummary};
use crate::outcome::CaseResult;
use serde::Serialize;
use std::path::PathBuf;

pub const REPORT_VERSION: u32 = 2;

/// The document's top level. Field names are camelCase here only; the nested shared
/// types keep their serde names.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonReport<'a> {
    report_version: u32,
    /// Null only if the run ended before it could describe itself.
    run: Option<&'a RunInfo>,
    /// Null when the run ended before discovery was attempted.
    discovery: Option<&'a DiscoverySnapshot>,
    /// Null when the run ended before a plan existed (e.g. discovery unusable).
    planned: Option<usize>,
    /// Decided cases in plan order; fewer than `planned` when the run was interrupted.
    cases: Vec<ReportedCase>,
    /// Every request the run sent, in the order sent; cases cite them by `seq`.
    #[serde(skip_serializing_if = "Option::is_none")]
    requests: Option<&'a Vec<crate::event::WireEntry>>,
    summary: &'a RunSummary,
}

/// A case as the report shows it: the shared type plus what a reader should not have
/// to count.
#[derive(Serialize)]
struct ReportedCase {
    #[serde(flatten)]
    case: CaseResult,
    assertions_executed: usize,
}

/// The top-level key holding the report's own digest.
pub const INTEGRITY_KEY: &str = "integrity";

/// `{algorithm, canonical_sha256}` over `report` as it stands (without `integrity`).
pub fn integrity(report: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({"algorithm": "sha256", "canonical_sha256": canonical_sha256(report)})
}

pub struct JsonReporter {
    path: PathBuf,
    record: RunRecord,
}

impl JsonReporter {
    pub fn new(path: PathBuf) -> Self {
        JsonReporter {
            path,
            record: RunRecord::default(),
        }
    }

    /// The report for what has been recorded so far (events arrive redacted).
    pub fn render(&self, summary: &RunSummary) -> serde_json::Result<serde_json::Value> {
        let report = JsonReport {
            report_version: REPORT_VERSION,
            run: self.record.run.as_ref(),
            discovery: self.record.discovery.as_ref(),
            planned: self.record.planned,
            cases: self
                .record
                .cases()
                .map(|c| ReportedCase {
                    case: c.clone(),
                    assertions_executed: c.assertions.len(),
                })
                .collect(),
            requests: self.record.requests.as_ref(),
            summary,
        };
        let mut value = serde_json::to_value(&report)?;
        // Last, over exactly what is written, so `verify` can recompute it.
        let digest = integrity(&value);
        if let serde_json::Value::Object(map) = &mut value {
            map.insert(INTEGRITY_KEY.to_string(), digest);
        }
        Ok(value)
    }
}

impl Reporter for JsonReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        let Some(summary) = self.record.record(event) else {
            return Ok(());
        };
        let error = |source| ReportError {
            kind: "JSON",
            path: self.path.clone(),
            source,
        };
        let mut bytes = self
            .render(summary)
            .and_then(|value| serde_json::to_vec_pretty(&value))
            .map_err(|e| error(std::io::Error::other(e)))?;
        bytes.push(b'\n');
        write_atomically(&self.path, &bytes).map_err(error)
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
