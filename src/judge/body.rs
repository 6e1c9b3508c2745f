//! `expect.body`: predicates over the answer's JSON body, one assertion each.

use crate::outcome::AssertionResult;
use crate::plan::predicate::{self, Resolve};
use crate::scenario::model::Predicate;
use serde_json::Value;

/// The predicate as written, compactly; the verdict carries the actual value.
fn describe(p: &Predicate) -> String {
    let Predicate::Atom(a) = p else {
        return "the body predicate holds".to_string();
    };
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

/// `body` is the parsed answer (`null` when it was not JSON). `Err` is a scenario defect.
pub fn check(p: &Predicate, body: &Value, resolve: Resolve) -> Result<AssertionResult, String> {
    let v = predicate::evaluate(p, body, resolve)?;
    Ok(AssertionResult::new(
        "body",
        describe(p),
        v.explanation,
        v.holds,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_assertion_naming_the_path() {
        let p: Predicate =
            serde_json::from_value(json!({"path": "error", "exists": true})).unwrap();
        let a = check(&p, &json!({"error": "x"}), &|_| None).unwrap();
        assert!(a.passed);
        assert_eq!(a.expected, "error present");
        assert!(!check(&p, &Value::Null, &|_| None).unwrap().passed);
    }
}
