//! `expect.error_code`: the error code the answer's body carries (read as
//! [`super::error_body`] says) equals, avoids, or is one of what the case names.

use super::error_body::ErrorShape;
use crate::outcome::AssertionResult;
use crate::scenario::model::{ErrorCodeExpectation, ErrorCodeRule};

fn rule_of(expect: &ErrorCodeExpectation) -> ErrorCodeRule {
    match expect {
        ErrorCodeExpectation::Equals(s) => ErrorCodeRule {
            absent: None,
            present: None,
            equals: Some(s.clone()),
            not: None,
            one_of: None,
        },
        ErrorCodeExpectation::Rule(r) => r.clone(),
    }
}

pub fn check(
    expect: &ErrorCodeExpectation,
    code: Option<&str>,
    shape: ErrorShape,
) -> AssertionResult {
    let rule = rule_of(expect);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(json: &str) -> ErrorCodeExpectation {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn equals_absent_not_and_one_of() {
        let flat = ErrorShape::Flat;
        assert!(check(&rule(r#""x""#), Some("x"), flat).passed);
        assert!(!check(&rule(r#""x""#), Some("y"), flat).passed);
        assert!(check(&rule(r#"{"absent": true}"#), None, flat).passed);
        assert!(!check(&rule(r#"{"not": "x"}"#), None, flat).passed);
        assert!(check(&rule(r#"{"one_of": ["a", "b"]}"#), Some("b"), flat).passed);
    }
}
