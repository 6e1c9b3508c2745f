//! The JSON evidence file a spec steward attaches when promoting an RFC.
//!
//! It is the serde form of the shared event types, so it says exactly what the run
//! saw; `schemas/report.schema.json` describes it and a test keeps the two in step.
//! Bump [`REPORT_VERSION`] on any change a consumer could notice.

use super::atomic::write_atomically;
use super::record::RunRecord;
use super::{ReportError, Reporter};
use crate::event::{Event, RunSummary};
use crate::outcome::CaseResult;
use mmconform_json::{canonical_sha256, canonical_sha256_without_key};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

pub const REPORT_VERSION: u32 = 2;

/// A case as the report shows it: the shared type plus what a reader should not have
/// to count.
#[derive(Serialize)]
struct ReportedCase<'a> {
    #[serde(flatten)]
    case: &'a CaseResult,
    assertions_executed: usize,
}

/// The top-level key holding the report's own digest.
pub const INTEGRITY_KEY: &str = "integrity";

/// `{algorithm, canonical_sha256}` over `report` as it stands (without `integrity`).
pub fn integrity(report: &serde_json::Value) -> serde_json::Value {
    serde_json::json!({"algorithm": "sha256", "canonical_sha256": canonical_sha256(report)})
}

/// [`integrity`] recomputed over a written report: everything but its own `integrity`.
pub fn recomputed_integrity(report: &serde_json::Value) -> serde_json::Value {
    let digest = canonical_sha256_without_key(report, INTEGRITY_KEY);
    serde_json::json!({"algorithm": "sha256", "canonical_sha256": digest})
}

pub struct JsonReporter {
    path: PathBuf,
    record: RunRecord,
    /// Each decided case in its report form, by plan index (so plan order whatever the
    /// completion order), serialized when it arrives: while the run waits on the host,
    /// not all at the end.
    cases: BTreeMap<usize, serde_json::Result<Value>>,
}

impl JsonReporter {
    pub fn new(path: PathBuf) -> Self {
        JsonReporter {
            path,
            record: RunRecord::default(),
            cases: BTreeMap::new(),
        }
    }

    /// The report for what has been recorded (events arrive redacted); the cases are
    /// handed over, so it is rendered once, when the run is over. Field names are
    /// camelCase at the top only; the nested shared types keep their serde names.
    fn render(&mut self, summary: &RunSummary) -> serde_json::Result<Value> {
        let mut report = Map::new();
        report.insert("reportVersion".into(), REPORT_VERSION.into());
        // Null only if the run ended before it could describe itself.
        report.insert("run".into(), serde_json::to_value(&self.record.run)?);
        // Null when the run ended before discovery was attempted.
        let discovery = serde_json::to_value(&self.record.discovery)?;
        report.insert("discovery".into(), discovery);
        // Null when the run ended before a plan existed (e.g. discovery unusable).
        report.insert("planned".into(), serde_json::to_value(self.record.planned)?);
        // Decided cases in plan order (an interrupted run blocks the ones it never ran).
        let cases = std::mem::take(&mut self.cases).into_values();
        let cases = cases.collect::<serde_json::Result<Vec<Value>>>()?;
        report.insert("cases".into(), Value::Array(cases));
        // Every request the run sent, in the order sent; cases cite them by `seq`.
        if let Some(requests) = &self.record.requests {
            report.insert("requests".into(), serde_json::to_value(requests)?);
        }
        report.insert("summary".into(), serde_json::to_value(summary)?);
        let mut value = Value::Object(report);
        // Last, over exactly what is written, so `verify` can recompute it.
        let digest = integrity(&value);
        if let Value::Object(map) = &mut value {
            map.insert(INTEGRITY_KEY.to_string(), digest);
        }
        Ok(value)
    }
}

impl Reporter for JsonReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        if let Event::CaseFinished { index, result } = event {
            let case = ReportedCase {
                case: result,
                assertions_executed: result.assertions.len(),
            };
            self.cases.insert(*index, serde_json::to_value(&case));
            return Ok(());
        }
        let Some(summary) = self.record.record(event) else {
            return Ok(());
        };
        let rendered = self
            .render(summary)
            .map(|value| mmconform_json::pretty(&value));
        let error = |source| ReportError {
            kind: "JSON",
            path: self.path.clone(),
            source,
        };
        let mut bytes = rendered.map_err(|e| error(std::io::Error::other(e)))?;
        bytes.push(b'\n');
        write_atomically(&self.path, &bytes).map_err(error)
    }
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
