//! `run --export-hurl FILE`: the run's requests as a hurl file (`crate::http::replay`),
//! each case's request asserting the status the case expects, where hurl can say it,
//! and saying in comments what decided the case that hurl cannot check: a stream read
//! event by event, the model calls a witness saw, mmconform's other checks.

use crate::event::Event;
use crate::http::replay::{self, CaseChecks, ReplayLog};
use crate::outcome::CaseResult;
use crate::report::write_atomically;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

pub struct HurlExport {
    path: PathBuf,
    log: Arc<ReplayLog>,
    /// Case id -> what it checks.
    checks: HashMap<String, CaseChecks>,
}

impl HurlExport {
    pub fn new(path: PathBuf) -> HurlExport {
        HurlExport {
            path,
            log: Arc::default(),
            checks: HashMap::new(),
        }
    }

    /// The log the run's HTTP client fills.
    pub fn log(&self) -> Arc<ReplayLog> {
        self.log.clone()
    }

    /// Notes what each finished case checked.
    pub fn observe(&mut self, event: &Event) {
        if let Event::CaseFinished { result, .. } = event {
            self.checks.insert(result.id.clone(), checks_of(result));
        }
    }

    /// Writes the hurl file, and beside it the bodies too large to inline.
    pub fn write(self) -> Result<(), String> {
        let stem = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run.hurl".into());
        let (text, side_files) = replay::render(&self.log.requests(), &self.checks, &stem);
        let cannot = |path: &std::path::Path, e: std::io::Error| {
            format!("--export-hurl: cannot write {}: {e}", path.display())
        };
        for (name, body) in side_files {
            let path = self.path.with_file_name(name);
            let bytes = body.text_within(usize::MAX).unwrap_or_default();
            write_atomically(&path, bytes.as_bytes()).map_err(|e| cannot(&path, e))?;
        }
        write_atomically(&self.path, text.as_bytes()).map_err(|e| cannot(&self.path, e))
    }
}

/// What `case` checked: its status expectation, and in words what hurl cannot check.
fn checks_of(case: &CaseResult) -> CaseChecks {
    let status = (case.assertions.iter())
        .find(|a| a.check == "status")
        .map(|a| a.expected.clone());
    let mut beyond = Vec::new();
    if let Some(stream) = &case.stream {
        beyond.push(format!(
            "the answer as mmconform reads it ({}): a stream's events, their order and its end, or the body's shape; hurl sees the status and the bytes",
            stream.view.summary
        ));
    }
    let witnessed = case.model_calls.is_some()
        || case
            .assertions
            .iter()
            .any(|a| a.check.starts_with("witness"))
        || case.notes.iter().any(|n| n.contains("expect.witness"));
    if witnessed {
        beyond.push(
            "what reached the model: only mmconform's witness sees the model calls (run --witness)"
                .into(),
        );
    }
    let mut others: Vec<&str> = (case.assertions.iter())
        .map(|a| a.check.as_str())
        .filter(|c| *c != "status" && !c.starts_with("witness") && !c.starts_with("stream"))
        .collect();
    others.dedup();
    if !others.is_empty() {
        beyond.push(format!(
            "mmconform's other checks ({}): their results are in the JSON report",
            others.join(", ")
        ));
    }
    CaseChecks {
        status,
        beyond_hurl: beyond,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::AssertionResult;

    #[test]
    fn a_stream_or_witness_case_says_what_hurl_cannot_check() {
        let mut case = fixtures::cases().remove(1);
        case.stream = Some(crate::outcome::ProtocolEvidence {
            record: serde_json::Value::Null,
            view: crate::outcome::EvidenceView {
                summary: "completed: RUN_FINISHED after 6 events".into(),
                ..Default::default()
            },
        });
        case.assertions.push(AssertionResult::new(
            "witness.reached",
            "a call".into(),
            "none".into(),
            false,
        ));
        let checks = checks_of(&case);
        assert_eq!(checks.status.as_deref(), Some("400"));
        let text = checks.beyond_hurl.join("\n");
        assert!(text.contains("RUN_FINISHED after 6 events"), "{text}");
        assert!(text.contains("only mmconform's witness"), "{text}");
        assert!(
            text.contains("other checks (error_code, content_type)"),
            "{text}"
        );
        let plain = fixtures::case(
            "c",
            "c",
            case.requirement.clone(),
            crate::outcome::Outcome::Pass,
        );
        assert_eq!(checks_of(&plain), CaseChecks::default());
    }
}
