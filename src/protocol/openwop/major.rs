//! Which cases a run of one openwop major leaves out. A case written for one major
//! (`applies: {path: openwop.major, equals: N}`) is excluded from a run of the other,
//! as `--filter` would: the major is the user's choice, not a fact about the host, so
//! `--require` must not turn it into a failure. The negotiation cases are left out of a
//! major-1 run against a host that lists no 2.x: a v1-only host is told it does not
//! speak v2, and is not failed for it unless the run asks for major 2.

use super::negotiation;
use crate::scenario::model::{CaseSpec, Predicate};
use serde_json::Value;

/// The major a case is written for, from a top-level `openwop.major` equality.
fn written_for(spec: &CaseSpec) -> Option<u64> {
    spec.applies.iter().find_map(|p| match p {
        Predicate::Atom(check) if check.path == "openwop.major" => {
            check.equals.as_ref().and_then(Value::as_u64)
        }
        _ => None,
    })
}

/// Why a run of `major` leaves `spec` out, if it does.
pub fn excludes(spec: &CaseSpec, major: u8, context: &Value) -> Option<String> {
    if let Some(wanted) = written_for(spec)
        && wanted != u64::from(major)
    {
        return Some(format!(
            "an openwop {wanted} case; the run targets openwop {major} (--openwop-major {wanted} runs it)"
        ));
    }
    let lists_v2 = context.pointer("/openwop/listsV2") == Some(&Value::Bool(true));
    let negotiation = spec.endpoint().is_some_and(negotiation::is_negotiation);
    (negotiation && major == 1 && !lists_v2).then(|| {
        "the host lists no 2.x version in protocolVersions: it speaks openwop 1 only (--openwop-major 2 asks for v2)".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case(applies: Value, endpoint: &str) -> CaseSpec {
        serde_json::from_value(json!({
            "id": "x.y", "title": "t",
            "requirement": {"source": "s", "level": "MUST", "text": "t"},
            "applies": applies,
            "request": {"endpoint": endpoint},
            "expect": {"status": 200}
        }))
        .unwrap()
    }

    #[test]
    fn a_case_of_the_other_major_is_excluded_not_skipped() {
        let v2 = case(
            json!([{"path": "openwop.major", "equals": 2, "reason": "r"}]),
            "discovery",
        );
        let ctx = json!({"openwop": {"listsV2": true}});
        assert!(excludes(&v2, 1, &ctx).is_some_and(|r| r.contains("--openwop-major 2")));
        assert_eq!(excludes(&v2, 2, &ctx), None);
        let any = case(json!([]), "discovery");
        assert_eq!(excludes(&any, 1, &ctx), None);
    }

    #[test]
    fn negotiation_is_left_out_only_for_a_v1_only_host_at_major_1() {
        let negotiation = case(json!([]), "discovery-v2");
        let v1_only = json!({"openwop": {"listsV2": false}});
        assert!(excludes(&negotiation, 1, &v1_only).is_some_and(|r| r.contains("openwop 1 only")));
        assert_eq!(excludes(&negotiation, 2, &v1_only), None);
        assert_eq!(
            excludes(&negotiation, 1, &json!({"openwop": {"listsV2": true}})),
            None
        );
    }
}
