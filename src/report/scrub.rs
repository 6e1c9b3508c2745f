//! Passing every event through the [`Redactor`] once, on its way to the reporters
//! ([`scrub_event`], called by [`super::fanout`]).
//!
//! The runner already redacts transcripts before they reach a `CaseResult`. The
//! fan-out does it again because it is the last place a leaked token could be
//! stopped, and because some strings (reasons, notes, discovery documents) come from
//! the host and may echo a secret back.
//!
//! The copies are built with struct literals without `..`, so a field added to a shared
//! type fails to compile here until someone decides how to redact it.

use crate::event::{BaselineInfo, DiscoverySnapshot, Event, RunInfo, RunSummary, WireEntry};
use crate::outcome::{
    AssertionResult, CaseResult, Cause, Delivery, EvidenceView, Exchange, ExpectedFailure,
    ProtocolEvidence, RecordedRequest, RecordedResponse, Requirement,
};
use crate::redact::Redactor;

/// A copy of `case` with every string redacted and sensitive header values masked.
pub fn scrub_case(redactor: &Redactor, case: &CaseResult) -> CaseResult {
    let r = |s: &str| redactor.redact(s);
    CaseResult {
        id: r(&case.id),
        case_id: r(&case.case_id),
        title: r(&case.title),
        requirement: Requirement {
            source: r(&case.requirement.source),
            level: case.requirement.level,
            text: r(&case.requirement.text),
        },
        scenario_file: r(&case.scenario_file),
        bindings: pairs(redactor, &case.bindings),
        outcome: case.outcome,
        reason: case.reason.as_deref().map(r),
        notes: case.notes.iter().map(|n| r(n)).collect(),
        assertions: case
            .assertions
            .iter()
            .map(|a| AssertionResult {
                check: r(&a.check),
                expected: r(&a.expected),
                actual: r(&a.actual),
                passed: a.passed,
                level: a.level,
                delivery: a.delivery.as_ref().map(|d| Delivery {
                    outcome: d.outcome,
                    sent: r(&d.sent),
                    received: d.received.as_deref().map(r),
                    changes: d.changes.iter().map(|c| r(c)).collect(),
                }),
            })
            .collect(),
        decided_on: case.decided_on.iter().map(|d| r(d)).collect(),
        duration_ms: case.duration_ms,
        exchanges: case
            .exchanges
            .iter()
            .map(|e| scrub_exchange(redactor, e))
            .collect(),
        expected_failure: case.expected_failure.as_ref().map(|x| ExpectedFailure {
            entry: r(&x.entry),
            reason: r(&x.reason),
            expires: x.expires.as_deref().map(r),
        }),
        stream: case.stream.as_ref().map(|s| scrub_evidence(redactor, s)),
        model_calls: case
            .model_calls
            .as_ref()
            .map(|calls| calls.iter().map(|c| scrub_evidence(redactor, c)).collect()),
        self_check: case.self_check,
        cause: case.cause.as_ref().map(|c| Cause {
            what: r(&c.what),
            fix: c.fix.as_deref().map(r),
        }),
    }
}

/// A copy of protocol evidence with every string redacted (a RUN_ERROR message or an
/// echo may repeat a secret the agent was sent).
pub fn scrub_evidence(redactor: &Redactor, evidence: &ProtocolEvidence) -> ProtocolEvidence {
    let mut record = evidence.record.clone();
    scrub_value(redactor, &mut record);
    ProtocolEvidence {
        record,
        view: scrub_view(redactor, &evidence.view),
    }
}

fn scrub_view(redactor: &Redactor, view: &EvidenceView) -> EvidenceView {
    EvidenceView {
        summary: redactor.redact(&view.summary),
        properties: pairs(redactor, &view.properties),
        lines: view.lines.iter().map(|l| redactor.redact(l)).collect(),
    }
}

/// A copy of `event` with everything a reporter could write redacted: the one place
/// redaction happens on the way out (see [`super::fanout`]).
pub fn scrub_event(redactor: &Redactor, event: &Event) -> Event {
    let r = |s: &str| redactor.redact(s);
    match event {
        Event::RunStarted(run) => Event::RunStarted(Box::new(scrub_run(redactor, run))),
        Event::Discovery(d) => Event::Discovery(scrub_discovery(redactor, d)),
        Event::Planned { total } => Event::Planned { total: *total },
        Event::CaseFinished { index, result } => Event::CaseFinished {
            index: *index,
            result: Box::new(scrub_case(redactor, result)),
        },
        Event::Wire(entries) => Event::Wire(
            entries
                .iter()
                .map(|e| WireEntry {
                    seq: e.seq,
                    method: r(&e.method),
                    url: r(&e.url),
                    purpose: r(&e.purpose),
                    status: e.status,
                    failure: e.failure.as_deref().map(r),
                })
                .collect(),
        ),
        Event::TargetUnusable { reason, hint } => Event::TargetUnusable {
            reason: redactor.redact(reason),
            hint: redactor.redact(hint),
        },
        Event::RunFinished(summary) => Event::RunFinished(scrub_summary(redactor, summary)),
    }
}

fn scrub_summary(redactor: &Redactor, summary: &RunSummary) -> RunSummary {
    let r = |s: &str| redactor.redact(s);
    RunSummary {
        counts: summary.counts.clone(),
        self_checks: summary.self_checks.clone(),
        exit_code: summary.exit_code,
        verdict: r(&summary.verdict),
        explanation: r(&summary.explanation),
        duration_ms: summary.duration_ms,
        finished_at: r(&summary.finished_at),
        incomplete: summary.incomplete,
        baseline_drift: summary.baseline_drift.iter().map(|d| r(d)).collect(),
        flaky: summary.flaky,
        deadline_reached: summary.deadline_reached,
        advice: summary.advice.iter().map(|a| r(a)).collect(),
    }
}

/// A copy of `exchange` with header values masked by name and everything else redacted.
pub fn scrub_exchange(redactor: &Redactor, exchange: &Exchange) -> Exchange {
    let r = |s: &str| redactor.redact(s);
    let request = &exchange.request;
    Exchange {
        request: RecordedRequest {
            method: r(&request.method),
            url: r(&request.url),
            headers: headers(redactor, &request.headers),
            body: request.body.as_deref().map(r),
            sent: request.sent.clone(),
        },
        response: exchange.response.as_ref().map(|response| RecordedResponse {
            status: response.status,
            headers: headers(redactor, &response.headers),
            body: r(&response.body),
            truncated: response.truncated,
        }),
        curl: r(&exchange.curl),
        retries: exchange.retries,
        notes: exchange.notes.iter().map(|n| r(n)).collect(),
        seq: exchange.seq,
        cached: exchange.cached,
    }
}

/// A copy of `run` with every string redacted (the target URL could carry a token in
/// its query string, filters are typed by the user).
pub fn scrub_run(redactor: &Redactor, run: &RunInfo) -> RunInfo {
    let r = |s: &str| redactor.redact(s);
    let all = |v: &[String]| v.iter().map(|s| r(s)).collect();
    RunInfo {
        tool_version: r(&run.tool_version),
        profile: r(&run.profile),
        target: r(&run.target),
        protocol_options: {
            let mut options = serde_json::Value::Object(run.protocol_options.clone());
            scrub_value(redactor, &mut options);
            match options {
                serde_json::Value::Object(map) => map,
                _ => serde_json::Map::new(),
            }
        },
        strict: run.strict,
        require: run.require,
        opted_out_profiles: all(&run.opted_out_profiles),
        filters: all(&run.filters),
        concurrency: run.concurrency,
        started_at: r(&run.started_at),
        nonce: r(&run.nonce),
        scenario_set_sha256: r(&run.scenario_set_sha256),
        scenario_files: pairs(redactor, &run.scenario_files),
        baseline: run.baseline.as_ref().map(|b| BaselineInfo {
            file: r(&b.file),
            sha256: r(&b.sha256),
            entries: b.entries,
        }),
        declared: run.declared.as_ref().map(|d| scrub_evidence(redactor, d)),
        warnings: all(&run.warnings),
        insecure_tls: run.insecure_tls,
        witness: run.witness.as_deref().map(r),
        rerun_base: all(&run.rerun_base),
        report_file: run.report_file.as_deref().map(r),
        protocol_view: scrub_view(redactor, &run.protocol_view),
    }
}

/// A copy of `snapshot` with every string, including those in the verbatim document,
/// redacted.
pub fn scrub_discovery(redactor: &Redactor, snapshot: &DiscoverySnapshot) -> DiscoverySnapshot {
    let r = |s: &str| redactor.redact(s);
    let value = |v: &serde_json::Value| {
        let mut v = v.clone();
        scrub_value(redactor, &mut v);
        v
    };
    DiscoverySnapshot {
        url: r(&snapshot.url),
        status: snapshot.status,
        document: snapshot.document.as_ref().map(value),
        canonical_sha256: snapshot.canonical_sha256.as_deref().map(r),
        problem: snapshot.problem.as_deref().map(r),
        facts: value(&snapshot.facts),
        variants: snapshot
            .variants
            .iter()
            .map(|(tag, v)| (tag.clone(), scrub_discovery(redactor, v)))
            .collect(),
        notes: snapshot.notes.iter().map(|n| r(n)).collect(),
    }
}

/// Redact every string and object key inside `value`, in place.
pub fn scrub_value(redactor: &Redactor, value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) => *s = redactor.redact(s),
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_value(redactor, v)),
        Value::Object(map) => {
            // Rebuild the map so keys are redacted too while keeping their order.
            let old = std::mem::take(map);
            for (key, mut item) in old {
                scrub_value(redactor, &mut item);
                map.insert(redactor.redact(&key), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn headers(redactor: &Redactor, headers: &[(String, String)]) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| (redactor.redact(name), redactor.header_value(name, value)))
        .collect()
}

fn pairs(redactor: &Redactor, pairs: &[(String, String)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (redactor.redact(k), redactor.redact(v)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_sensitive_headers_and_secrets_everywhere_in_an_exchange() {
        let redactor = Redactor::new(["s3cret"]);
        let exchange = Exchange {
            request: RecordedRequest {
                method: "POST".into(),
                url: "http://h/x?key=s3cret".into(),
                headers: vec![
                    ("Cookie".into(), "session=abc".into()),
                    ("X-Echo".into(), "s3cret".into()),
                ],
                body: Some("{\"token\":\"s3cret\"}".into()),
                sent: None,
            },
            response: Some(RecordedResponse {
                status: 200,
                headers: vec![("Set-Cookie".into(), "id=1".into())],
                body: "you sent s3cret".into(),
                truncated: false,
            }),
            curl: "curl -H 'X-Echo: s3cret' http://h/x".into(),
            retries: 1,
            notes: vec!["redirect to http://u:s3cret@h/".into()],
            seq: Some(1),
            cached: false,
        };
        let out = scrub_exchange(&redactor, &exchange);
        let text = serde_json::to_string(&out).unwrap();
        assert!(!text.contains("s3cret"), "{text}");
        assert!(!text.contains("session=abc"), "{text}");
        assert!(!text.contains("id=1"), "{text}");
    }

    #[test]
    fn redacts_keys_and_values_of_json_documents_keeping_key_order() {
        let redactor = Redactor::new(["tok"]);
        let mut value = serde_json::json!({"z": "tok", "a": ["x tok"], "tok": 1});
        scrub_value(&redactor, &mut value);
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"z":"[REDACTED]","a":["x [REDACTED]"],"[REDACTED]":1}"#
        );
    }
}
