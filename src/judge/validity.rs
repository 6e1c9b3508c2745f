//! `expect.valid`, `expect.keyword`, `expect.at` of an offline case: is the document
//! valid against the schema, and do the errors include the keyword and the instance
//! path the case names. One assertion each; the actual value lists the errors.

use crate::outcome::AssertionResult;
use jsonschema::Validator;
use serde_json::Value;

/// One validation error: the failing keyword, the instance path, the message.
pub struct Finding {
    pub keyword: String,
    pub at: String,
    pub message: String,
}

/// Every error the schema finds in `document`.
pub fn findings(validator: &Validator, document: &Value) -> Vec<Finding> {
    validator
        .iter_errors(document)
        .map(|e| Finding {
            keyword: e.kind().keyword().to_string(),
            at: e.instance_path().as_str().to_string(),
            message: e.to_string(),
        })
        .collect()
}

fn shown_at(at: &str) -> &str {
    if at.is_empty() { "(root)" } else { at }
}

fn show(findings: &[Finding]) -> String {
    if findings.is_empty() {
        return "valid".to_string();
    }
    let shown: Vec<String> = findings
        .iter()
        .take(6)
        .map(|f| format!("{} at {}: {}", f.keyword, shown_at(&f.at), f.message))
        .collect();
    format!("invalid: {}", shown.join("; "))
}

/// What the case expects of the findings (keyword and path already rendered).
pub struct Expected {
    pub valid: Option<bool>,
    pub keyword: Option<String>,
    /// An instance path; `(root)` names the document itself.
    pub at: Option<String>,
}

pub fn check(expected: &Expected, findings: &[Finding]) -> Vec<AssertionResult> {
    let mut assertions = Vec::new();
    if let Some(valid) = expected.valid {
        assertions.push(AssertionResult::new(
            "valid",
            (if valid { "valid" } else { "invalid" }).into(),
            show(findings),
            findings.is_empty() == valid,
        ));
    }
    if let Some(keyword) = &expected.keyword {
        assertions.push(AssertionResult::new(
            "keyword",
            format!("an error from `{keyword}`"),
            show(findings),
            findings.iter().any(|f| f.keyword == *keyword),
        ));
    }
    if let Some(at) = &expected.at {
        // `(root)` names the document itself, whose JSON pointer is the empty string.
        let pointer = if at == "(root)" { "" } else { at.as_str() };
        assertions.push(AssertionResult::new(
            "at",
            format!("an error at {}", shown_at(pointer)),
            show(findings),
            findings.iter().any(|f| f.at == pointer),
        ));
    }
    assertions
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keyword_and_path_must_be_among_the_errors() {
        let schema = json!({"type": "object", "required": ["meta"]});
        let validator = jsonschema::validator_for(&schema).unwrap();
        let found = findings(&validator, &json!({}));
        let expected = Expected {
            valid: Some(false),
            keyword: Some("required".into()),
            at: Some("(root)".into()),
        };
        assert!(check(&expected, &found).iter().all(|a| a.passed));
        let wrong = Expected {
            valid: Some(true),
            keyword: Some("format".into()),
            at: Some("/meta".into()),
        };
        assert!(check(&wrong, &found).iter().all(|a| !a.passed));
    }
}
