//! Judging: each expectation kind of a scenario's `expect` in its own file, shared by
//! every protocol. A protocol reads its answer into an [`Answer`] (status, content type,
//! body) and calls [`judge_answer`]; expectations only it understands (AG-UI's stream
//! classification and echo) are judged in its own folder and added to the same
//! [`Judgement`]. The case's outcome is not decided here: `runner::verdict` does, once.

pub mod body;
pub mod catalog;
pub mod delivery;
pub mod error_body;
pub mod error_code;
pub mod error_shape;
pub mod json_body;
pub mod prefer;
pub mod refusal;
pub mod repair;
pub mod schema;
pub mod status;
pub mod tool_media;
pub mod validity;
pub mod witness;
pub mod witness_form;
pub mod witness_metadata;

use crate::outcome::AssertionResult;
use crate::plan::predicate::Resolve;
use crate::scenario::model::{ErrorShapeExpectation, Expectations};
use catalog::SchemaCatalog;
use mmconform_json::bounded;
use schema::SchemaCheck;
use serde_json::Value;

/// An answer as the judges read it.
#[derive(Debug, Clone)]
pub struct Answer<'a> {
    pub status: u16,
    pub content_type: Option<&'a str>,
    pub body: &'a [u8],
    /// The body was cut at the read cap.
    pub truncated: bool,
}

/// The assertions a case executed, with notes that do not change its outcome.
#[derive(Debug, Clone, Default)]
pub struct Judgement {
    pub assertions: Vec<AssertionResult>,
    pub notes: Vec<String>,
    /// Why part of the expectation could not be judged (a `--schemas` file that does
    /// not compile): neither a verdict on the host nor a tool defect.
    pub cannot_judge: Option<String>,
}

/// Judges the expectations every protocol shares, in the order a reader expects them:
/// status, JSON body, error code, error shape, body predicates, schema; then the
/// preference note. `Err` is a scenario defect.
pub fn judge_answer(
    expect: &Expectations,
    answer: &Answer,
    resolve: Resolve,
    catalog: &SchemaCatalog,
) -> Result<Judgement, String> {
    let mut j = Judgement::default();
    let reading = error_body::read(answer.body);
    let (parsed, problem) = match bounded::parse(answer.body) {
        Ok(value) => (Some(value), None),
        Err(problem) => (None, Some(problem)),
    };
    if answer.truncated {
        j.notes
            .push("the response body was cut at the read cap; judged on what was read".into());
    }
    if let Some(expected) = &expect.status {
        j.assertions.push(status::check(expected, answer.status));
    }
    if expect.json_body == Some(true) {
        j.assertions.push(json_body::check(
            parsed.as_ref(),
            problem.as_ref(),
            answer.content_type,
        ));
    }
    if let Some(code) = &expect.error_code {
        j.assertions.push(error_code::check(
            code,
            reading.code.as_deref(),
            reading.shape,
        ));
    }
    match expect.error_shape {
        Some(ErrorShapeExpectation::Flat) => j.assertions.push(error_shape::check(reading.shape)),
        Some(ErrorShapeExpectation::Openai) => j
            .assertions
            .push(error_shape::check_openai(parsed.as_ref())),
        Some(ErrorShapeExpectation::Anthropic) => j
            .assertions
            .push(error_shape::check_anthropic(parsed.as_ref())),
        None => {}
    }
    if expect.capability_refusal == Some(true) {
        j.assertions.push(refusal::check(answer.status));
    }
    let null = Value::Null;
    for p in &expect.body {
        j.assertions
            .push(body::check(p, parsed.as_ref().unwrap_or(&null), resolve)?);
    }
    if let Some(expected) = &expect.schema {
        match schema::check(expected, parsed.as_ref(), catalog)? {
            SchemaCheck::Judged(a) => j.assertions.push(a),
            SchemaCheck::CannotJudge(why) => j.cannot_judge = Some(why),
        }
    }
    if let Some(p) = &expect.prefer
        && let Some(note) = prefer::note(p, answer.status, reading.code.as_deref(), resolve)?
    {
        j.notes.push(note);
    }
    Ok(j)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn judge(expect: Value, status: u16, body: Value) -> Judgement {
        let expect: Expectations = serde_json::from_value(expect).unwrap();
        let bytes = body.to_string().into_bytes();
        let answer = Answer {
            status,
            content_type: Some("application/json"),
            body: &bytes,
            truncated: false,
        };
        judge_answer(&expect, &answer, &|_| None, &SchemaCatalog::default()).unwrap()
    }

    #[test]
    fn negative_case_needs_4xx_and_the_code() {
        let e = json!({"status": "4xx", "error_code": "unsupported_modality"});
        let ok = judge(
            e.clone(),
            400,
            json!({"error": "unsupported_modality", "message": "m"}),
        );
        assert!(ok.assertions.iter().all(|a| a.passed));
        let accepted = judge(e.clone(), 200, json!({"ok": true}));
        assert_eq!(accepted.assertions.iter().filter(|a| !a.passed).count(), 2);
        let wrong = judge(e, 400, json!({"error": "invalid_request", "message": "m"}));
        assert_eq!(
            wrong.assertions[1].actual,
            "error code invalid_request (flat envelope {error, message, details?})"
        );
    }

    #[test]
    fn positive_case_rejects_an_error_code_in_a_2xx() {
        let e = json!({"status": "2xx", "error_code": {"absent": true}});
        let sneaky = judge(e, 200, json!({"error": "unsupported_modality"}));
        assert!(sneaky.assertions[0].passed && !sneaky.assertions[1].passed);
    }

    #[test]
    fn shape_schema_body_and_preference_in_order() {
        let j = judge(
            json!({
                "error_shape": "flat",
                "body": [{"path": "error", "exists": true}],
                "schema": {"inline": {"type": "object", "required": ["message"]}},
                "prefer": {"status": 413, "error_code": "payload_too_large"}
            }),
            400,
            json!({"error": {"code": "x", "message": "m"}}),
        );
        let checks: Vec<(&str, bool)> = j
            .assertions
            .iter()
            .map(|a| (a.check.as_str(), a.passed))
            .collect();
        assert_eq!(
            checks,
            [("error_shape", false), ("body", true), ("schema", false)]
        );
        assert_eq!(
            j.notes,
            vec!["413 payload_too_large preferred; host answered 400 x"]
        );
    }
}
