//! `expect.status`: the answer's HTTP status is one of the listed codes or classes.

use crate::outcome::AssertionResult;
use crate::scenario::model::{StatusExpectation, StatusPattern};

fn matches(p: &StatusPattern, status: u16) -> bool {
    match p {
        StatusPattern::Code(c) => *c == status,
        StatusPattern::Class(class) => class
            .as_bytes()
            .first()
            .is_some_and(|d| u16::from(d - b'0') == status / 100),
    }
}

fn text(p: &StatusPattern) -> String {
    match p {
        StatusPattern::Code(c) => c.to_string(),
        StatusPattern::Class(c) => c.clone(),
    }
}

pub fn check(expect: &StatusExpectation, status: u16) -> AssertionResult {
    let patterns: Vec<&StatusPattern> = match expect {
        StatusExpectation::One(p) => vec![p],
        StatusExpectation::Any(list) => list.iter().collect(),
    };
    let passed = patterns.iter().any(|p| matches(p, status));
    let expected = patterns
        .iter()
        .map(|p| text(p))
        .collect::<Vec<_>>()
        .join(" or ");
    AssertionResult::new("status", expected, status.to_string(), passed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_classes() {
        let class: StatusExpectation = serde_json::from_str(r#""4xx""#).unwrap();
        assert!(check(&class, 422).passed);
        assert!(!check(&class, 500).passed);
        let list: StatusExpectation = serde_json::from_str(r#"[200, "4xx"]"#).unwrap();
        let a = check(&list, 201);
        assert!(!a.passed);
        assert_eq!(a.expected, "200 or 4xx");
    }
}
