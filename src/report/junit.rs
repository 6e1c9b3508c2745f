//! JUnit XML for CI gates: one `<testsuite>` per requirement source, one `<testcase>`
//! per selected expanded case.
//!
//! JUnit has four states (pass, failure, error, skipped) against our seven outcomes;
//! the mapping below is the one CI consumers understand: an unmet requirement is a
//! `<failure>`, anything that prevented observation is an `<error>`, a case that does
//! not apply is `<skipped>`, and a SHOULD not met is a pass with a `warn:` in
//! `<system-err>` (JUnit has no warning). Excluded cases were not selected and are
//! left out.

use super::atomic::write_atomically;
use super::evidence::{self, JUNIT_BODY_LIMIT};
use super::record::RunRecord;
use super::{ReportError, Reporter, mode_label};
use crate::event::{Event, RunSummary};
use crate::outcome::{CaseResult, Outcome};
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct JunitReporter {
    path: PathBuf,
    record: RunRecord,
}

impl JunitReporter {
    pub fn new(path: PathBuf) -> Self {
        JunitReporter {
            path,
            record: RunRecord::default(),
        }
    }

    /// The XML document for what has been recorded so far.
    pub fn render(&self, summary: &RunSummary) -> Result<String, quick_junit::SerializeError> {
        let properties = self.properties(summary);
        // Suites in order of first appearance in the plan, so the file reads like the run.
        let mut suites: Vec<TestSuite> = Vec::new();
        for case in self.record.cases() {
            if case.outcome == Outcome::Excluded {
                continue;
            }
            let position = match suites
                .iter()
                .position(|s| s.name.as_str() == case.requirement.source)
            {
                Some(position) => position,
                None => {
                    let mut suite = TestSuite::new(case.requirement.source.as_str());
                    suite.add_properties(properties.iter().cloned());
                    suites.push(suite);
                    suites.len() - 1
                }
            };
            let suite = &mut suites[position];
            let elapsed = suite.time.unwrap_or_default() + millis(case.duration_ms);
            suite.set_time(elapsed);
            suite.add_test_case(test_case(case));
        }
        if suites.is_empty() {
            // Nothing was decided (discovery failed, nothing selected, interrupted
            // early): keep the run's properties and verdict in the file so a CI reader
            // sees why it is empty instead of an unexplained green.
            let mut suite = TestSuite::new("mmconform");
            suite.add_properties(properties);
            suite.set_system_err(run_note(summary));
            suites.push(suite);
        }
        let mut report = Report::new("mmconform");
        report.set_time(millis(summary.duration_ms));
        report.add_test_suites(suites);
        report.to_string()
    }

    /// Facts a CI reader needs to trust or reproduce the result, on every suite
    /// (the `<testsuites>` element has no properties).
    fn properties(&self, summary: &RunSummary) -> Vec<Property> {
        let mut props = Vec::new();
        let mut add = |name: &str, value: String| {
            props.push(Property::new(name, value));
        };
        if let Some(run) = &self.record.run {
            let run = run.clone();
            add("mmconform.version", run.tool_version);
            add("profile", run.profile);
            add("target", run.target);
            for (name, value) in run.protocol_view.properties {
                add(&name, value);
            }
            add("mode", mode_label(run.strict, run.require).to_string());
            add("strict", run.strict.to_string());
            add("require", run.require.to_string());
            add("nonce", run.nonce);
            add("scenario-set.sha256", run.scenario_set_sha256);
            add("started-at", run.started_at);
            if let Some(baseline) = run.baseline {
                add("baseline", baseline.file);
                add("baseline.sha256", baseline.sha256);
            }
            if let Some(declared) = run.declared {
                // A protocol without discovery: the declaration is what the run was planned on.
                for (name, value) in declared.view.properties {
                    add(&name, value);
                }
            }
            if run.insecure_tls {
                add("tls.insecure", "true".into());
            }
            if let Some(witness) = run.witness {
                add("witness", witness);
            }
            for warning in run.warnings {
                add("warning", warning);
            }
        }
        if let Some(discovery) = &self.record.discovery {
            let discovery = discovery.clone();
            add("discovery.url", discovery.url);
            if let Some(status) = discovery.status {
                add("discovery.status", status.to_string());
            }
            if let Some(sha) = discovery.canonical_sha256 {
                add("discovery.sha256", sha);
            }
            if let Some(problem) = discovery.problem {
                add("discovery.problem", problem);
            }
        }
        if let Some(planned) = self.record.planned {
            add("planned", planned.to_string());
        }
        add("verdict", summary.verdict.clone());
        add("exit-code", summary.exit_code.to_string());
        add("incomplete", summary.incomplete.to_string());
        for (i, drift) in summary.baseline_drift.iter().enumerate() {
            add(&format!("baseline.drift.{i}"), drift.clone());
        }
        if summary.flaky > 0 {
            add("flaky", summary.flaky.to_string());
        }
        if summary.deadline_reached {
            add("deadline-reached", "true".into());
        }
        props
    }
}

impl Reporter for JunitReporter {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError> {
        let Some(summary) = self.record.record(event) else {
            return Ok(());
        };
        let error = |source| ReportError {
            kind: "JUnit",
            path: self.path.clone(),
            source,
        };
        let xml = self
            .render(summary)
            .map_err(|e| error(std::io::Error::other(e)))?;
        write_atomically(&self.path, xml.as_bytes()).map_err(error)
    }
}

fn test_case(case: &CaseResult) -> TestCase {
    let details = || evidence::detail_lines(case, false).join("\n");
    let summary = || evidence::failure_summary(case).unwrap_or_else(|| case.outcome.to_string());
    let status = match case.outcome {
        Outcome::Pass | Outcome::Warn => TestCaseStatus::success(),
        Outcome::Skip | Outcome::Excluded => {
            let mut status = TestCaseStatus::skipped();
            let reason = case.reason.as_deref().unwrap_or("no reason given");
            status.set_message(format!("not-applicable: {reason}"));
            if !case.decided_on.is_empty() {
                status.set_description(format!("decided on: {}", case.decided_on.join("; ")));
            }
            status
        }
        // JUnit has no expected failure; consumers treat skipped as neutral, which is
        // what a baselined failure is for a CI gate. The failure itself stays visible.
        Outcome::Xfail => {
            let mut status = TestCaseStatus::skipped();
            let reason = case
                .expected_failure
                .as_ref()
                .map(|x| x.reason.as_str())
                .unwrap_or("listed in the baseline");
            status
                .set_message(format!("expected-failure: {reason}"))
                .set_description(details());
            status
        }
        Outcome::Fail => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_message(summary())
                .set_type(case.requirement.level.to_string())
                .set_description(details());
            status
        }
        Outcome::Blocked | Outcome::Error => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status
                .set_message(summary())
                .set_type(case.outcome.as_str())
                .set_description(details());
            status
        }
    };
    let mut test_case = TestCase::new(case.id.as_str(), status);
    test_case
        .set_classname(classname(case))
        .set_assertions(case.assertions.len())
        .set_time(millis(case.duration_ms));
    if let Some(evidence) = &case.stream {
        for (name, value) in &evidence.view.properties {
            test_case.add_property(Property::new(name.as_str(), value.as_str()));
        }
    }
    if let Some(calls) = &case.model_calls {
        test_case.add_property(Property::new("witness.calls", calls.len().to_string()));
    }
    if !case.exchanges.is_empty() {
        let mut out = evidence::transcript(case, JUNIT_BODY_LIMIT);
        if let Some(evidence) = &case.stream {
            out = format!("{}\n\n{out}", evidence.view.lines.join("\n"));
        }
        if let Some(calls) = evidence::model_call_transcript(case) {
            out = format!("{out}\n\n{calls}");
        }
        test_case.set_system_out(out);
    }
    if case.outcome == Outcome::Warn {
        test_case.set_system_err(format!("warn: {}\n{}", summary(), details()));
    }
    test_case
}

/// The scenario file's stem (`rfc0091-input` for `builtin:openwop/rfc0091-input.yaml`):
/// CI tools group test cases by class, and a file is what a steward edits.
fn classname(case: &CaseResult) -> String {
    let file = case
        .scenario_file
        .strip_prefix("builtin:")
        .unwrap_or(&case.scenario_file);
    match Path::new(file).file_stem().and_then(|s| s.to_str()) {
        Some(stem) if !stem.is_empty() => stem.to_string(),
        _ => case.case_id.clone(),
    }
}

fn run_note(summary: &RunSummary) -> String {
    format!(
        "verdict: {} (exit {}): {}",
        summary.verdict, summary.exit_code, summary.explanation
    )
}

fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

#[cfg(test)]
#[path = "junit_tests.rs"]
mod tests;
