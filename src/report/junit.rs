//! JUnit XML for CI gates: one `<testsuite>` per scenario file, one `<testcase>` per
//! selected expanded case, whose `classname` is its suite's name (so viewers that group
//! by class and viewers that group by suite show the same sections).
//!
//! The document validates against the strictest schema CI consumers apply, the
//! Jenkins xUnit plugin's `junit-10.xsd` (`tests/fixtures/junit/`): no `assertions` or
//! `<properties>` on a test case (the JSON report keeps the assertions and the stream
//! record), the run's properties once (on the first suite: `<testsuites>` takes none),
//! and no `skipped` count on `<testsuites>` ([`junit_strict`]).
//!
//! JUnit has four states (pass, failure, error, skipped) against our seven outcomes;
//! the mapping below is the one CI consumers understand: an unmet requirement is a
//! `<failure>`, anything that prevented observation is an `<error>`, a case that does
//! not apply is `<skipped>`, and a SHOULD not met is a pass with a `warn:` in
//! `<system-err>` (JUnit has no warning). Excluded cases were not selected and are
//! left out.

use super::atomic::write_atomically;
use super::evidence::{self, JUNIT_BODY_LIMIT};
use super::junit_strict;
use super::record::RunRecord;
use super::{ReportError, Reporter, mode_label};
use crate::event::{Event, RunSummary};
use crate::outcome::{CaseResult, Outcome};
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct JunitReporter {
    path: PathBuf,
    record: RunRecord,
    /// Each decided case (by plan index, so plan order whatever the completion order)
    /// as its suite's name, its duration and its test case, built when it arrives:
    /// while the run waits on the host, not all at the end. `None`: excluded, which
    /// the file leaves out.
    cases: BTreeMap<usize, Option<(String, u64, TestCase)>>,
}

impl JunitReporter {
    pub fn new(path: PathBuf) -> Self {
        JunitReporter {
            path,
            record: RunRecord::default(),
            cases: BTreeMap::new(),
        }
    }

    fn add_case(&mut self, index: usize, case: &CaseResult) {
        let entry = (case.outcome != Outcome::Excluded).then(|| {
            let profile = self
                .record
                .run
                .as_ref()
                .map_or("mmconform", |r| r.profile.as_str());
            let group = group(case, profile);
            (group.clone(), case.duration_ms, test_case(case, group))
        });
        self.cases.insert(index, entry);
    }

    /// The XML document for what has been recorded; the cases are handed over, so it
    /// is rendered once, when the run is over.
    fn render(&mut self, summary: &RunSummary) -> Result<String, quick_junit::SerializeError> {
        // Suites in order of first appearance in the plan, so the file reads like the run.
        let mut suites: Vec<TestSuite> = Vec::new();
        for (group, duration_ms, test_case) in
            std::mem::take(&mut self.cases).into_values().flatten()
        {
            let position = match suites.iter().position(|s| s.name.as_str() == group) {
                Some(position) => position,
                None => {
                    suites.push(TestSuite::new(group.as_str()));
                    suites.len() - 1
                }
            };
            let suite = &mut suites[position];
            let elapsed = suite.time.unwrap_or_default() + millis(duration_ms);
            suite.set_time(elapsed);
            suite.add_test_case(test_case);
        }
        if suites.is_empty() {
            // Nothing was decided (discovery failed, nothing selected, interrupted
            // early): keep the run's properties and verdict in the file so a CI reader
            // sees why it is empty instead of an unexplained green.
            let mut suite = TestSuite::new("mmconform");
            suite.set_system_err(run_note(summary));
            suites.push(suite);
        }
        // The run's facts once, on the first suite: the xUnit schema gives
        // `<testsuites>` no properties, and a copy per suite says nothing more.
        suites[0].add_properties(self.properties(summary));
        let mut report = Report::new("mmconform");
        report.set_time(millis(summary.duration_ms));
        report.add_test_suites(suites);
        let xml = report.to_string()?;
        junit_strict::strict(&xml).map_err(|e| std::io::Error::other(e).into())
    }

    /// Facts a CI reader needs to trust or reproduce the result.
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
        let self_checks: usize = (summary.self_checks.iter())
            .filter(|(o, _)| **o != Outcome::Excluded)
            .map(|(_, n)| n)
            .sum();
        if self_checks > 0 {
            let passed = summary
                .self_checks
                .get(&Outcome::Pass)
                .copied()
                .unwrap_or(0);
            add("self-checks", format!("{passed} of {self_checks} passed"));
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
        if let Event::CaseFinished { index, result } = event {
            self.add_case(*index, result);
            return Ok(());
        }
        let Some(summary) = self.record.record(event) else {
            return Ok(());
        };
        let rendered = self.render(summary);
        let error = |source| ReportError {
            kind: "JUnit",
            path: self.path.clone(),
            source,
        };
        let xml = rendered.map_err(|e| error(std::io::Error::other(e)))?;
        write_atomically(&self.path, xml.as_bytes()).map_err(error)
    }
}

fn test_case(case: &CaseResult, group: String) -> TestCase {
    let mut test_case = TestCase::new(case.id.as_str(), status(case));
    test_case
        .set_classname(group)
        .set_time(millis(case.duration_ms));
    // The stream's classification leads the output; its full record, the assertions and
    // the model calls are the JSON report's: the xUnit schema allows no properties here.
    let mut out: Vec<String> = case
        .stream
        .iter()
        .map(|evidence| evidence.view.lines.join("\n"))
        .collect();
    if !case.exchanges.is_empty() {
        out.push(evidence::transcript(case, JUNIT_BODY_LIMIT));
    }
    // What a witnessed run saw reach the model, count first (`witness: N model call(s)`).
    out.extend(evidence::model_call_transcript(case));
    if !out.is_empty() {
        test_case.set_system_out(out.join("\n\n"));
    }
    if case.outcome == Outcome::Warn {
        let summary = evidence::failure_summary(case).unwrap_or_else(|| case.outcome.to_string());
        let details = evidence::detail_lines(case, false).join("\n");
        test_case.set_system_err(format!("warn: {summary}\n{details}"));
    }
    test_case
}

/// The JUnit state of an outcome. A skip and an expected failure carry their reason in
/// the body too: GitLab shows the body, Jenkins and others the `message`.
fn status(case: &CaseResult) -> TestCaseStatus {
    let details = || evidence::detail_lines(case, false).join("\n");
    let summary = || evidence::failure_summary(case).unwrap_or_else(|| case.outcome.to_string());
    match case.outcome {
        Outcome::Pass | Outcome::Warn => TestCaseStatus::success(),
        Outcome::Skip | Outcome::Excluded => {
            let mut status = TestCaseStatus::skipped();
            let reason = case.reason.as_deref().unwrap_or("no reason given");
            let message = format!("not-applicable: {reason}");
            let mut body = message.clone();
            if !case.decided_on.is_empty() {
                body.push_str(&format!("\ndecided on: {}", case.decided_on.join("; ")));
            }
            status.set_message(message).set_description(body);
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
            let message = format!("expected-failure: {reason}");
            let body = format!("{message}\n{}", details());
            status.set_message(message).set_description(body);
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
    }
}

/// The group a case is reported in, as suite name and `classname` alike: the profile
/// and the scenario file's stem (`openwop.rfc0091-accept` for
/// `builtin:openwop/rfc0091-accept.yaml`). A file is what a steward edits, and the one
/// dot makes Jenkins show the profile as the package and the file as the class (a dot
/// inside the stem would split it, so it becomes `-`). A case of a variant (its id
/// ends in `@<tag>`: openwop auto's `@v2`) is grouped apart, `openwop.rfc0091-accept@v2`,
/// so each protocol major is a suite of its own.
///
/// A self-check (an offline check of mmconform's own schema files) is grouped under
/// `mmconform-self-check` instead of the profile: it says nothing about the host.
fn group(case: &CaseResult, profile: &str) -> String {
    let profile = if case.self_check {
        "mmconform-self-check"
    } else {
        profile
    };
    let file = case
        .scenario_file
        .strip_prefix("builtin:")
        .unwrap_or(&case.scenario_file);
    let stem = match Path::new(file).file_stem().and_then(|s| s.to_str()) {
        Some(stem) if !stem.is_empty() => stem,
        _ => case.case_id.as_str(),
    };
    let variant = case
        .case_id
        .split_once('@')
        .map(|(_, tag)| format!("@{tag}"))
        .unwrap_or_default();
    format!("{profile}.{}{variant}", stem.replace('.', "-"))
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
