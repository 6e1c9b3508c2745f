//! What is foreign in an acp case: another protocol's endpoint, `resume`, offline cases.

use crate::protocol::LintFinding;
use crate::scenario::model::CaseSpec;
use serde_json::Value;

pub fn lint_case(case: &CaseSpec, _raw: &Value, base: &str) -> Vec<LintFinding> {
    let mut out = Vec::new();
    if let Some(request) = &case.request {
        if !super::ENDPOINTS.contains(&request.endpoint.as_str()) {
            out.push(LintFinding::new(
                format!("{base}/request/endpoint"),
                false,
                format!(
                    "`{}` is not an acp endpoint (initialize, session/prompt)",
                    request.endpoint
                ),
            ));
        }
        if request.resume {
            out.push(LintFinding::new(
                format!("{base}/request"),
                false,
                "an acp case has no resume: every case is a fresh session".into(),
            ));
        }
        if request.abort && request.endpoint != super::PROMPT {
            out.push(LintFinding::new(
                format!("{base}/request"),
                false,
                "abort (session/cancel) applies to session/prompt only".into(),
            ));
        }
    }
    if case.validate.is_some() {
        out.push(LintFinding::new(
            format!("{base}/validate"),
            true,
            "an acp run has no offline cases".into(),
        ));
    }
    out
}
