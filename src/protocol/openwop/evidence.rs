//! What an openwop run adds to the run's evidence: its options (the part-spelling
//! dialect and the major version), listed in the JSON report and shown by reporters.

use super::options::{Dialect, OpenwopMajor};
use crate::outcome::EvidenceView;
use serde_json::{Map, Value, json};

/// The options as the JSON report lists them, and as terminals and JUnit show them.
pub fn run_options(dialect: Dialect, major: OpenwopMajor) -> (Map<String, Value>, EvidenceView) {
    let mut options = Map::new();
    options.insert("dialect".into(), json!(dialect.as_str()));
    let major = major.as_json();
    options.insert("openwop_major".into(), major.clone());
    let view = EvidenceView {
        summary: format!("dialect {}", dialect.as_str()),
        properties: vec![
            ("dialect".into(), dialect.as_str().into()),
            (
                "openwop.major".into(),
                major.to_string().trim_matches('"').into(),
            ),
        ],
        lines: Vec::new(),
    };
    (options, view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_keep_their_report_names() {
        let (options, view) = run_options(Dialect::Suite, OpenwopMajor::Two);
        assert_eq!(
            Value::Object(options),
            json!({"dialect": "suite", "openwop_major": 2})
        );
        assert_eq!(view.summary, "dialect suite");
    }
}
