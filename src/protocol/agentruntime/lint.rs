//! What is foreign in an agentruntime case: another protocol's endpoint, and the
//! request fields only this profile has (`resume`, `abort`) used elsewhere are the
//! other protocols' lint to refuse.

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
                    "`{}` is not an agentruntime endpoint (describe, execute)",
                    request.endpoint
                ),
            ));
        }
        if (request.resume || request.abort) && request.endpoint != super::EXECUTE {
            out.push(LintFinding::new(
                format!("{base}/request"),
                false,
                "resume and abort apply to execute only".into(),
            ));
        }
    }
    if case.validate.is_some() {
        out.push(LintFinding::new(
            format!("{base}/validate"),
            true,
            "an agentruntime run has no offline cases".into(),
        ));
    }
    out
}
