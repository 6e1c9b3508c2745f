//! The planning contexts of a run: the run's own, and one per variant its protocol
//! found (openwop `--openwop-major auto` against a host listing a 2.x version: `v2`,
//! planned from the v2 root). A case is planned, settled and judged in the context its
//! `SuiteCase::variant` names.

use crate::scenario::suite::SuiteCase;
use serde_json::Value;
use std::collections::BTreeMap;

/// One further context and why its description is unusable, when it is.
#[derive(Debug, Clone)]
pub struct VariantContext {
    pub context: Value,
    pub problem: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Contexts {
    /// The run's own context (every case without a variant).
    pub main: Value,
    /// By variant tag (`v2`).
    pub variants: BTreeMap<String, VariantContext>,
}

impl Contexts {
    /// Only the run's own context.
    pub fn single(main: Value) -> Contexts {
        Contexts {
            main,
            variants: BTreeMap::new(),
        }
    }

    /// The context `case` is planned and judged in. A variant the run did not find falls
    /// back to the run's context (a protocol arranges copies only for variants found).
    pub fn of(&self, case: &SuiteCase) -> &Value {
        case.variant
            .as_ref()
            .and_then(|tag| self.variants.get(tag))
            .map_or(&self.main, |v| &v.context)
    }

    /// Why the description `case`'s variant was planned from is unusable, when it is:
    /// its cases are blocked with it, as every case is when the run's own is unusable.
    pub fn problem(&self, case: &SuiteCase) -> Option<&str> {
        case.variant
            .as_ref()
            .and_then(|tag| self.variants.get(tag))
            .and_then(|v| v.problem.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case(variant: Option<&str>) -> SuiteCase {
        SuiteCase {
            spec: serde_json::from_value(json!({
                "id": "x.y", "title": "t",
                "requirement": {"source": "s", "level": "MUST", "text": "t"},
                "expect": {"status": 200}
            }))
            .unwrap(),
            file: "f.yaml".into(),
            profile: "openwop".into(),
            conformance_profile: None,
            variant: variant.map(str::to_string),
        }
    }

    #[test]
    fn a_case_is_planned_in_its_variant_and_blocked_by_its_problem_only() {
        let mut contexts = Contexts::single(json!({"major": 1}));
        contexts.variants.insert(
            "v2".into(),
            VariantContext {
                context: json!({"major": 2}),
                problem: Some("GET answered 406".into()),
            },
        );
        assert_eq!(contexts.of(&case(None)), &json!({"major": 1}));
        assert_eq!(contexts.of(&case(Some("v2"))), &json!({"major": 2}));
        assert_eq!(contexts.of(&case(Some("v3"))), &json!({"major": 1}));
        assert_eq!(contexts.problem(&case(None)), None);
        assert_eq!(
            contexts.problem(&case(Some("v2"))),
            Some("GET answered 406")
        );
    }
}
