//! `expect.schema`: the answer's body (or a value inside it) is valid against a named
//! schema from the [`SchemaCatalog`] or an inline one.

use super::catalog::SchemaCatalog;
use crate::outcome::AssertionResult;
use crate::scenario::model::SchemaExpectation;
use crate::scenario::path;
use serde_json::Value;

/// What judging a schema expectation came to.
pub enum SchemaCheck {
    Judged(AssertionResult),
    /// A `--schemas` replacement that does not compile: neither a verdict on the host
    /// nor a tool defect.
    CannotJudge(String),
}

fn display_pointer(p: &str) -> String {
    if p.is_empty() {
        "(root)".to_string()
    } else {
        p.to_string()
    }
}

/// `Err` is a scenario defect (no schema named, a shipped schema that does not compile).
pub fn check(
    expect: &SchemaExpectation,
    body: Option<&Value>,
    catalog: &SchemaCatalog,
) -> Result<SchemaCheck, String> {
    let loaded = match (&expect.reference, &expect.inline) {
        (Some(name), _) => match catalog.named(name) {
            Ok(loaded) => loaded,
            Err(e) if catalog.overridden(name) => return Ok(SchemaCheck::CannotJudge(e)),
            Err(e) => return Err(e),
        },
        (None, Some(inline)) => catalog.inline(inline)?,
        (None, None) => return Err("schema expectation names no schema".into()),
    };
    let at = expect.at.clone().unwrap_or_default();
    let name = expect
        .reference
        .clone()
        .unwrap_or_else(|| "inline schema".into());
    let where_ = if at.is_empty() {
        "the body".to_string()
    } else {
        format!("body.{at}")
    };
    let expected = format!("{where_} valid against {name}");
    let (actual, passed) = match (body, body.and_then(|b| path::lookup(b, &at))) {
        (None, _) => ("the body is not JSON".to_string(), false),
        (Some(_), None) => (format!("{where_} is absent"), false),
        (Some(_), Some(instance)) => {
            let errors: Vec<String> = loaded
                .validator
                .iter_errors(instance)
                .take(5)
                .map(|e| {
                    format!(
                        "at {}: {}",
                        display_pointer(e.instance_path().as_str()),
                        e.masked()
                    )
                })
                .collect();
            if errors.is_empty() {
                ("valid".to_string(), true)
            } else {
                (errors.join("; "), false)
            }
        }
    };
    Ok(SchemaCheck::Judged(AssertionResult::new(
        "schema", expected, actual, passed,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn valid_invalid_absent_and_not_json() {
        let expect: SchemaExpectation = serde_json::from_value(
            json!({"inline": {"type": "object", "required": ["message"]}, "at": "error"}),
        )
        .unwrap();
        let catalog = SchemaCatalog::default();
        let judged = |body: Option<&Value>| match check(&expect, body, &catalog).unwrap() {
            SchemaCheck::Judged(a) => a,
            SchemaCheck::CannotJudge(e) => panic!("{e}"),
        };
        assert!(judged(Some(&json!({"error": {"message": "m"}}))).passed);
        assert!(!judged(Some(&json!({"error": {}}))).passed);
        assert_eq!(judged(Some(&json!({}))).actual, "body.error is absent");
        assert_eq!(judged(None).actual, "the body is not JSON");
    }
}
