//! Judging a response against a case's expectations. Each present expectation is one
//! assertion; the case outcome follows from the assertions and the requirement level.

use super::http::HttpResponse;
use super::schemas::SchemaCatalog;
use crate::bounded_json::{self, JsonProblem};
use crate::outcome::{AssertionResult, Level, Outcome};
use crate::plan::predicate::{self, Resolve};
use crate::profile::openwop::error_body::{self, ErrorShape};
use crate::scenario::model::{
    ErrorCodeExpectation, ErrorCodeRule, ErrorShapeExpectation, Expectations, StatusExpectation,
    StatusPattern,
};
use crate::scenario::{path, template};
use serde_json::Value;

#[derive(Debug, Clone, Default)]
pub struct Judgement {
    pub assertions: Vec<AssertionResult>,
    pub notes: Vec<String>,
    /// Why part of the expectation could not be judged (a `--schemas` file that does
    /// not compile): neither a verdict on the host nor a tool defect.
    pub cannot_judge: Option<String>,
}

fn pattern_matches(p: &StatusPattern, status: u16) -> bool {
    match p {
        StatusPattern::Code(c) => *c == status,
        StatusPattern::Class(class) => class
            .as_bytes()
            .first()
            .is_some_and(|d| u16::from(d - b'0') == status / 100),
    }
}

fn pattern_text(p: &StatusPattern) -> String {
    match p {
        StatusPattern::Code(c) => c.to_string(),
        StatusPattern::Class(c) => c.clone(),
    }
}

fn status_check(expect: &StatusExpectation, status: u16) -> AssertionResult {
    let patterns: Vec<&StatusPattern> = match expect {
        StatusExpectation::One(p) => vec![p],
        StatusExpectation::Any(list) => list.iter().collect(),
    };
    let passed = patterns.iter().any(|p| pattern_matches(p, status));
    let expected = patterns
        .iter()
        .map(|p| pattern_text(p))
        .collect::<Vec<_>>()
        .join(" or ");
    AssertionResult::new("status", expected, status.to_string(), passed)
}

fn code_check(
    expect: &ErrorCodeExpectation,
    code: Option<&str>,
    shape: ErrorShape,
) -> AssertionResult {
    let rule = match expect {
        ErrorCodeExpectation::Equals(s) => ErrorCodeRule {
            absent: None,
            present: None,
            equals: Some(s.clone()),
            not: None,
            one_of: None,
        },
        ErrorCodeExpectation::Rule(r) => r.clone(),
    };
    let (expected, passed) = if rule.absent == Some(true) {
        ("no error code".to_string(), code.is_none())
    } else if rule.present == Some(true) {
        ("an error code".to_string(), code.is_some())
    } else if let Some(want) = &rule.equals {
        (format!("error code {want}"), code == Some(want.as_str()))
    } else if let Some(not) = &rule.not {
        (
            format!("an error code other than {not}"),
            code.is_some_and(|c| c != not),
        )
    } else if let Some(list) = &rule.one_of {
        (
            format!("error code one of {}", list.join(", ")),
            code.is_some_and(|c| list.iter().any(|l| l == c)),
        )
    } else {
        ("(empty rule)".to_string(), false)
    };
    let actual = match code {
        Some(c) => format!("error code {c} ({shape})"),
        None => format!("no error code ({shape})"),
    };
    AssertionResult::new("error_code", expected, actual, passed)
}

/// Judges one HTTP response.
pub fn judge(
    expect: &Expectations,
    response: &HttpResponse,
    resolve: Resolve,
    catalog: &SchemaCatalog,
) -> Result<Judgement, String> {
    let mut j = Judgement::default();
    let reading = error_body::read(&response.body);
    let (body_json, json_problem) = match bounded_json::parse(&response.body) {
        Ok(value) => (Some(value), None),
        Err(problem) => (None, Some(problem)),
    };
    if response.truncated {
        j.notes
            .push("the response body was cut at the read cap; judged on what was read".into());
    }
    if let Some(status) = &expect.status {
        j.assertions.push(status_check(status, response.status));
    }
    if expect.json_body == Some(true) {
        let is_object = body_json.as_ref().is_some_and(Value::is_object);
        let actual = match &body_json {
            Some(Value::Object(_)) => "a JSON object".to_string(),
            Some(other) => format!("JSON {}", kind(other)),
            None => match json_problem {
                Some(JsonProblem::TooManyValues) => JsonProblem::TooManyValues.to_string(),
                _ => format!(
                    "not JSON (content-type {})",
                    response.content_type.as_deref().unwrap_or("absent")
                ),
            },
        };
        j.assertions.push(AssertionResult::new(
            "json_body",
            "a JSON object".into(),
            actual,
            is_object,
        ));
    }
    if let Some(code) = &expect.error_code {
        j.assertions
            .push(code_check(code, reading.code.as_deref(), reading.shape));
    }
    if let Some(ErrorShapeExpectation::Flat) = expect.error_shape {
        let passed = reading.shape == ErrorShape::Flat;
        j.assertions.push(AssertionResult::new(
            "error_shape",
            ErrorShape::Flat.to_string(),
            reading.shape.to_string(),
            passed,
        ));
    }
    let empty = Value::Null;
    let body = body_json.as_ref().unwrap_or(&empty);
    for p in &expect.body {
        let v = predicate::evaluate(p, body, resolve)?;
        let expected = describe_expected(p);
        j.assertions.push(AssertionResult::new(
            "body",
            expected,
            v.explanation,
            v.holds,
        ));
    }
    let loaded = match expect.schema.as_ref().map(|s| (&s.reference, &s.inline)) {
        None => None,
        Some((Some(name), _)) => match catalog.named(name) {
            Ok(loaded) => Some(loaded),
            Err(e) if catalog.overridden(name) => {
                j.cannot_judge = Some(e);
                None
            }
            Err(e) => return Err(e),
        },
        Some((None, Some(inline))) => Some(catalog.inline(inline)?),
        Some((None, None)) => return Err("schema expectation names no schema".into()),
    };
    if let (Some(schema), Some(loaded)) = (&expect.schema, loaded) {
        let at = schema.at.clone().unwrap_or_default();
        let validator = loaded.validator;
        let name = schema
            .reference
            .clone()
            .unwrap_or_else(|| "inline schema".into());
        let where_ = if at.is_empty() {
            "the body".to_string()
        } else {
            format!("body.{at}")
        };
        let expected = format!("{where_} valid against {name}");
        match (
            &body_json,
            body_json.as_ref().and_then(|b| path::lookup(b, &at)),
        ) {
            (None, _) => j.assertions.push(AssertionResult::new(
                "schema",
                expected,
                "the body is not JSON".into(),
                false,
            )),
            (Some(_), None) => j.assertions.push(AssertionResult::new(
                "schema",
                expected,
                format!("{where_} is absent"),
                false,
            )),
            (Some(_), Some(instance)) => {
                let errors: Vec<String> = validator
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
                let actual = if errors.is_empty() {
                    "valid".to_string()
                } else {
                    errors.join("; ")
                };
                j.assertions.push(AssertionResult::new(
                    "schema",
                    expected,
                    actual,
                    errors.is_empty(),
                ));
            }
        }
    }
    if let Some(prefer) = &expect.prefer {
        let status_ok = prefer.status.is_none_or(|s| s == response.status);
        let code_ok = prefer
            .error_code
            .as_ref()
            .is_none_or(|c| reading.code.as_deref() == Some(c.as_str()));
        if !(status_ok && code_ok) {
            let note = match &prefer.note {
                Some(n) => template::render_text(n, resolve)?,
                None => {
                    let mut wanted = Vec::new();
                    if let Some(s) = prefer.status {
                        wanted.push(s.to_string());
                    }
                    if let Some(c) = &prefer.error_code {
                        wanted.push(c.clone());
                    }
                    format!("{} preferred", wanted.join(" "))
                }
            };
            j.notes.push(format!(
                "{note}; host answered {} {}",
                response.status,
                reading.code.as_deref().unwrap_or("(no error code)")
            ));
        }
    }
    Ok(j)
}

fn display_pointer(p: &str) -> String {
    if p.is_empty() {
        "(root)".to_string()
    } else {
        p.to_string()
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn describe_expected(p: &crate::scenario::model::Predicate) -> String {
    // The predicate as written, compactly; the judge's verdict carries the actual value.
    match p {
        crate::scenario::model::Predicate::Atom(a) => {
            let mut parts = vec![a.path.clone()];
            if let Some(e) = a.exists {
                parts.push(if e { "present".into() } else { "absent".into() });
            }
            for (word, v) in [
                ("contains", &a.contains),
                ("lacks", &a.not_contains),
                ("equals", &a.equals),
            ] {
                if let Some(v) = v {
                    parts.push(format!("{word} {v}"));
                }
            }
            if let Some(list) = &a.one_of {
                parts.push(format!("one of {}", Value::Array(list.clone())));
            }
            if let Some(n) = a.at_least {
                parts.push(format!("at least {n}"));
            }
            parts.join(" ")
        }
        _ => "the body predicate holds".to_string(),
    }
}

/// The outcome of an executed case from its assertions.
pub fn outcome(assertions: &[AssertionResult], level: Level, strict: bool) -> Outcome {
    if assertions.is_empty() {
        return Outcome::Blocked;
    }
    if assertions.iter().all(|a| a.passed) {
        return Outcome::Pass;
    }
    match level {
        Level::Must => Outcome::Fail,
        Level::Should if strict => Outcome::Fail,
        Level::Should | Level::May => Outcome::Warn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn response(status: u16, body: Value) -> HttpResponse {
        HttpResponse {
            status,
            content_type: Some("application/json".into()),
            body: body.to_string().into_bytes(),
            truncated: false,
        }
    }

    fn expect(v: Value) -> Expectations {
        serde_json::from_value(v).unwrap()
    }

    fn none(_: &str) -> Option<Value> {
        None
    }

    #[test]
    fn negative_case_needs_4xx_and_the_code() {
        let e = expect(json!({"status": "4xx", "error_code": "unsupported_modality"}));
        let ok = judge(
            &e,
            &response(
                400,
                json!({"error": "unsupported_modality", "message": "m"}),
            ),
            &none,
            &SchemaCatalog::default(),
        )
        .unwrap();
        assert!(ok.assertions.iter().all(|a| a.passed));
        let accepted = judge(
            &e,
            &response(200, json!({"ok": true})),
            &none,
            &SchemaCatalog::default(),
        )
        .unwrap();
        assert_eq!(accepted.assertions.iter().filter(|a| !a.passed).count(), 2);
        let wrong = judge(
            &e,
            &response(400, json!({"error": "invalid_request", "message": "m"})),
            &none,
            &SchemaCatalog::default(),
        )
        .unwrap();
        assert_eq!(
            wrong.assertions[1].actual,
            "error code invalid_request (flat envelope {error, message, details?})"
        );
    }

    #[test]
    fn positive_case_rejects_an_error_code_in_a_2xx() {
        let e = expect(json!({"status": "2xx", "error_code": {"absent": true}}));
        let sneaky = judge(
            &e,
            &response(200, json!({"error": "unsupported_modality"})),
            &none,
            &SchemaCatalog::default(),
        )
        .unwrap();
        assert!(sneaky.assertions[0].passed && !sneaky.assertions[1].passed);
    }

    #[test]
    fn shape_schema_body_and_preference() {
        let e = expect(json!({
            "error_shape": "flat",
            "body": [{"path": "error", "exists": true}],
            "schema": {"inline": {"type": "object", "required": ["message"]}},
            "prefer": {"status": 413, "error_code": "payload_too_large"}
        }));
        let j = judge(
            &e,
            &response(400, json!({"error": {"code": "x", "message": "m"}})),
            &none,
            &SchemaCatalog::default(),
        )
        .unwrap();
        assert!(!j.assertions[0].passed, "nested is not flat");
        assert!(j.assertions[1].passed);
        assert!(!j.assertions[2].passed);
        assert_eq!(
            j.notes,
            vec!["413 payload_too_large preferred; host answered 400 x"]
        );
    }

    #[test]
    fn outcome_follows_level_and_strictness() {
        let failed = vec![AssertionResult::new("s", "a".into(), "b".into(), false)];
        assert_eq!(outcome(&[], Level::Must, false), Outcome::Blocked);
        assert_eq!(outcome(&failed, Level::Must, false), Outcome::Fail);
        assert_eq!(outcome(&failed, Level::Should, false), Outcome::Warn);
        assert_eq!(outcome(&failed, Level::Should, true), Outcome::Fail);
        assert_eq!(outcome(&failed, Level::May, true), Outcome::Warn);
    }
}
