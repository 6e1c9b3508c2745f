//! Offline cases: compile a schema and validate a document against it, no target
//! needed. They run in `run --offline` and in every run. The failing keywords and
//! instance paths go into the assertions, so the report shows exactly what failed.

use super::document;
use super::result::result_without_exchange;
use crate::outcome::{AssertionResult, CaseResult, Outcome};
use crate::protocol::CaseInput;
use crate::scenario::template;
use std::time::Instant;

/// (keyword, instance path, message) of one validation error.
type Finding = (String, String, String);

fn show(findings: &[Finding]) -> String {
    if findings.is_empty() {
        return "valid".to_string();
    }
    let shown: Vec<String> = findings
        .iter()
        .take(6)
        .map(|(k, at, m)| format!("{k} at {}: {m}", if at.is_empty() { "(root)" } else { at }))
        .collect();
    format!("invalid: {}", shown.join("; "))
}

pub fn run_validate_case(env: &CaseInput) -> CaseResult {
    let (planned, case) = (env.planned, env.case);
    let started = Instant::now();
    let Some(spec) = &case.spec.validate else {
        return result_without_exchange(
            planned,
            case,
            Outcome::Error,
            Some("not a validate case".into()),
        );
    };
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let expect = &case.spec.expect;
    let mut result = result_without_exchange(planned, case, Outcome::Blocked, None);
    let mut assertions = Vec::new();
    let schema = template::render_text(&spec.schema, &resolve)
        .and_then(|name| env.catalog.named(&name).map(|s| (name, s)));
    let compiled = match schema {
        Ok((name, loaded)) => {
            if expect.compiles == Some(true) {
                assertions.push(AssertionResult::new(
                    "compiles",
                    format!("{name} compiles"),
                    format!("compiled ({})", loaded.origin),
                    true,
                ));
            }
            result
                .notes
                .push(format!("schema {name} from {}", loaded.origin));
            Some(loaded)
        }
        Err(e) => {
            // A schema that does not compile fails whatever the case expected of it.
            assertions.push(AssertionResult::new(
                "compiles",
                format!("{} compiles", spec.schema),
                e,
                false,
            ));
            None
        }
    };
    if let (Some(loaded), Some(doc_spec)) = (&compiled, &spec.document) {
        let doc = match document::build(doc_spec, &resolve) {
            Ok(doc) => doc,
            Err(e) => {
                result.outcome = Outcome::Error;
                result.reason = Some(format!("scenario defect: {e}"));
                return result;
            }
        };
        let findings: Vec<Finding> = loaded
            .validator
            .iter_errors(&doc)
            .map(|e| {
                (
                    e.kind().keyword().to_string(),
                    e.instance_path().as_str().to_string(),
                    e.to_string(),
                )
            })
            .collect();
        let rendered = |t: &Option<String>| {
            t.as_ref()
                .map(|t| template::render_text(t, &resolve))
                .transpose()
        };
        let (keyword, at) = match (rendered(&expect.keyword), rendered(&expect.at)) {
            (Ok(k), Ok(a)) => (k, a),
            (Err(e), _) | (_, Err(e)) => {
                result.outcome = Outcome::Error;
                result.reason = Some(format!("scenario defect: {e}"));
                return result;
            }
        };
        if let Some(valid) = expect.valid {
            let expected = if valid { "valid" } else { "invalid" };
            assertions.push(AssertionResult::new(
                "valid",
                expected.into(),
                show(&findings),
                findings.is_empty() == valid,
            ));
        }
        if let Some(keyword) = keyword {
            let hit = findings.iter().any(|(k, _, _)| *k == keyword);
            assertions.push(AssertionResult::new(
                "keyword",
                format!("an error from `{keyword}`"),
                show(&findings),
                hit,
            ));
        }
        if let Some(at) = at {
            // `(root)` names the document itself, whose JSON pointer is the empty string.
            let at = if at == "(root)" { String::new() } else { at };
            let hit = findings.iter().any(|(_, p, _)| *p == at);
            let shown_at = if at.is_empty() {
                "(root)".to_string()
            } else {
                at.clone()
            };
            assertions.push(AssertionResult::new(
                "at",
                format!("an error at {shown_at}"),
                show(&findings),
                hit,
            ));
        }
    }
    result.outcome =
        crate::judge::verdict::outcome(&assertions, case.spec.requirement.level, env.strict);
    result.reason = match result.outcome {
        Outcome::Pass => None,
        Outcome::Blocked => Some("the case executed no assertion".into()),
        _ => assertions
            .iter()
            .find(|a| !a.passed)
            .map(|a| format!("expected {}; got {}", a.expected, a.actual)),
    };
    result.assertions = assertions;
    result.duration_ms = started.elapsed().as_millis() as u64;
    result
}
