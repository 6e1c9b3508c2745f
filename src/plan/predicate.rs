//! Evaluating scenario predicates (`applies`, `expect.body`) over a JSON context.

use crate::scenario::model::{PathCheck, Predicate};
use crate::scenario::{path, template};
use serde_json::Value;

/// The result of one predicate: whether it held, a sentence saying why not, and the
/// facts it looked at (recorded in reports as the basis of the decision).
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub holds: bool,
    /// When `holds` is false: why. When true: a statement of what held.
    pub explanation: String,
    pub facts: Vec<String>,
}

pub type Resolve<'a> = &'a dyn Fn(&str) -> Option<Value>;

fn show(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn contains(haystack: &Value, needle: &Value) -> bool {
    match (haystack, needle) {
        (Value::Array(items), n) => items.contains(n),
        (Value::String(s), Value::String(n)) => s.contains(n.as_str()),
        (Value::Object(map), Value::String(k)) => map.contains_key(k),
        _ => false,
    }
}

fn render(value: &Value, resolve: Resolve) -> Result<Value, String> {
    match value {
        Value::String(s) => template::render(s, resolve),
        other => Ok(other.clone()),
    }
}

fn atom(check: &PathCheck, context: &Value, resolve: Resolve) -> Result<Verdict, String> {
    // Paths are templates too: `/schemaVersions/{kind}`.
    let rendered_path = template::render_text(&check.path, resolve)?;
    let p = &rendered_path;
    let actual = path::lookup(context, p);
    let shown = actual.map(show).unwrap_or_else(|| "absent".to_string());
    let fact = format!(
        "{p} = {}",
        actual
            .map(|v| v.to_string())
            .unwrap_or_else(|| "absent".into())
    );
    let mut failures: Vec<String> = Vec::new();
    let mut statements: Vec<String> = Vec::new();
    if let Some(want) = check.exists {
        let present = actual.is_some_and(|v| !v.is_null());
        if present == want {
            statements.push(format!(
                "{p} is {}",
                if want { "present" } else { "absent" }
            ));
        } else {
            failures.push(format!(
                "{p} is {}",
                if want { "absent" } else { "present" }
            ));
        }
    }
    if let Some(needle) = &check.contains {
        let needle = render(needle, resolve)?;
        if actual.is_some_and(|a| contains(a, &needle)) {
            statements.push(format!("{p} contains {}", show(&needle)));
        } else {
            failures.push(format!("{p} lacks {}", show(&needle)));
        }
    }
    if let Some(needle) = &check.not_contains {
        let needle = render(needle, resolve)?;
        if actual.is_some_and(|a| contains(a, &needle)) {
            failures.push(format!("{p} contains {}", show(&needle)));
        } else {
            statements.push(format!("{p} lacks {}", show(&needle)));
        }
    }
    if let Some(want) = &check.equals {
        let want = render(want, resolve)?;
        if actual == Some(&want) {
            statements.push(format!("{p} is {}", show(&want)));
        } else {
            failures.push(format!("{p} is {shown}, not {}", show(&want)));
        }
    }
    if let Some(options) = &check.one_of {
        let options: Vec<Value> = options
            .iter()
            .map(|o| render(o, resolve))
            .collect::<Result<_, _>>()?;
        let list = options.iter().map(show).collect::<Vec<_>>().join(", ");
        if actual.is_some_and(|a| options.contains(a)) {
            statements.push(format!("{p} is one of [{list}]"));
        } else {
            failures.push(format!("{p} is {shown}, not one of [{list}]"));
        }
    }
    if let Some(min) = check.at_least {
        match actual.and_then(Value::as_f64) {
            Some(n) if n >= min => statements.push(format!("{p} is at least {min}")),
            _ => failures.push(format!("{p} is {shown}, not at least {min}")),
        }
    }
    let holds = failures.is_empty();
    let explanation = if holds {
        statements.join(" and ")
    } else if let Some(reason) = &check.reason {
        template::render_text(reason, resolve)?
    } else {
        failures.join(" and ")
    };
    Ok(Verdict {
        holds,
        explanation,
        facts: vec![fact],
    })
}

/// Evaluates one predicate. `Err` means a template in it could not be rendered (a scenario defect).
pub fn evaluate(
    predicate: &Predicate,
    context: &Value,
    resolve: Resolve,
) -> Result<Verdict, String> {
    let (mut verdict, reason) = match predicate {
        Predicate::Atom(check) => return atom(check, context, resolve),
        Predicate::Not { not, reason } => {
            let inner = evaluate(not, context, resolve)?;
            let explanation = if inner.holds {
                format!("{} (it must not)", inner.explanation)
            } else {
                inner.explanation
            };
            (
                Verdict {
                    holds: !inner.holds,
                    explanation,
                    facts: inner.facts,
                },
                reason,
            )
        }
        Predicate::All { all, reason } => (evaluate_all(all, context, resolve)?, reason),
        Predicate::Any { any, reason } => {
            let mut facts = Vec::new();
            let mut reasons = Vec::new();
            let mut held = None;
            for p in any {
                let v = evaluate(p, context, resolve)?;
                facts.extend(v.facts);
                if v.holds {
                    held = Some(v.explanation);
                    break;
                }
                reasons.push(v.explanation);
            }
            let verdict = match held {
                Some(explanation) => Verdict {
                    holds: true,
                    explanation,
                    facts,
                },
                None => Verdict {
                    holds: false,
                    explanation: reasons.join("; and "),
                    facts,
                },
            };
            (verdict, reason)
        }
    };
    if let (false, Some(reason)) = (verdict.holds, reason) {
        verdict.explanation = template::render_text(reason, resolve)?;
    }
    Ok(verdict)
}

/// All predicates must hold; the first that does not gives the reason.
pub fn evaluate_all(
    predicates: &[Predicate],
    context: &Value,
    resolve: Resolve,
) -> Result<Verdict, String> {
    let mut facts = Vec::new();
    let mut statements = Vec::new();
    for p in predicates {
        let v = evaluate(p, context, resolve)?;
        facts.extend(v.facts);
        if !v.holds {
            return Ok(Verdict {
                holds: false,
                explanation: v.explanation,
                facts,
            });
        }
        statements.push(v.explanation);
    }
    Ok(Verdict {
        holds: true,
        explanation: statements.join("; "),
        facts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pred(v: Value) -> Predicate {
        serde_json::from_value(v).unwrap()
    }

    fn resolve(name: &str) -> Option<Value> {
        (name == "modality").then(|| json!("audio"))
    }

    #[test]
    fn contains_reports_the_missing_value() {
        let ctx = json!({"openwop": {"modalities": ["text", "image"]}});
        let p = pred(json!({"path": "openwop.modalities", "contains": "{modality}"}));
        let v = evaluate(&p, &ctx, &resolve).unwrap();
        assert!(!v.holds);
        assert_eq!(v.explanation, "openwop.modalities lacks audio");
        assert_eq!(v.facts, vec![r#"openwop.modalities = ["text","image"]"#]);
        let custom = pred(
            json!({"path": "openwop.modalities", "contains": "{modality}", "reason": "no {modality}"}),
        );
        assert_eq!(
            evaluate(&custom, &ctx, &resolve).unwrap().explanation,
            "no audio"
        );
    }

    #[test]
    fn combinators_and_other_checks() {
        let ctx = json!({"a": 5, "s": "hello", "o": {"k": 1}, "n": null});
        let holds = |v: Value| evaluate(&pred(v), &ctx, &resolve).unwrap().holds;
        assert!(holds(json!({"path": "a", "at_least": 5})));
        assert!(!holds(json!({"path": "a", "at_least": 6})));
        assert!(holds(json!({"path": "s", "contains": "ell"})));
        assert!(holds(json!({"path": "o", "contains": "k"})));
        assert!(holds(json!({"path": "n", "exists": false})));
        assert!(holds(json!({"path": "a", "one_of": [1, 5]})));
        assert!(holds(json!({"not": {"path": "a", "equals": 4}})));
        assert!(holds(
            json!({"any": [{"path": "a", "equals": 4}, {"path": "a", "equals": 5}]})
        ));
        assert!(!holds(
            json!({"all": [{"path": "a", "equals": 5}, {"path": "zz", "exists": true}]})
        ));
    }
}
