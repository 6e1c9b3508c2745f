//! Which openwop major each case is judged at.
//!
//! A case written for one major (`applies: {path: openwop.major, equals: N}`) is excluded
//! from a run of the other, as `--filter` would: the major is the user's choice, not a
//! fact about the host, so `--require` must not turn it into a failure. The negotiation
//! cases are left out of a major-1 run against a host that lists no 2.x: a v1-only host
//! is told it does not speak v2, and is not failed for it unless the run asks for v2.
//!
//! `--openwop-major auto` against a host listing a 2.x version plans the v2 root as the
//! variant [`V2`] ([`arrange`]): every case written for no major runs at v1 under its own
//! id and again at v2 as `<id>@v2` (its requirement source marked `(openwop 2)`, so JUnit
//! keeps the majors in separate suites); a case written for v2 moves there under its own
//! id (`openwop.v2.*` already names its major); v1 cases, the negotiation cases (they
//! judge the resource, not a major) and offline cases (fixtures) run once, at v1. A variant case's endpoint carries
//! the tag too (`ai-call@v2`), so each major's seam is probed and blocked on its own.

use super::negotiation;
use crate::scenario::model::{CaseSpec, Predicate};
use crate::scenario::suite::{Suite, SuiteCase};
use serde_json::Value;

/// The variant tag of the v2 cases of an auto run, in case ids and endpoints (`@v2`).
pub const V2: &str = "v2";

/// The major a case is written for, from a top-level `openwop.major` equality.
fn written_for(spec: &CaseSpec) -> Option<u64> {
    spec.applies.iter().find_map(|p| match p {
        Predicate::Atom(check) if check.path == "openwop.major" => {
            check.equals.as_ref().and_then(Value::as_u64)
        }
        _ => None,
    })
}

/// A scenario endpoint without its variant tag, and the major the tag names.
pub fn split_endpoint(endpoint: &str) -> (&str, Option<u8>) {
    match endpoint.strip_suffix(&format!("@{V2}")) {
        Some(base) => (base, Some(2)),
        None => (endpoint, None),
    }
}

/// The major a planning context was derived for (`openwop.major`).
pub fn of_context(context: &Value) -> Option<u8> {
    context
        .pointer("/openwop/major")
        .and_then(Value::as_u64)
        .and_then(|m| u8::try_from(m).ok())
}

/// Why a run leaves `spec` out of the context of `major`, if it does. `auto`: the run
/// was asked for whatever the host speaks (a v2 case is left out only because the
/// host lists no 2.x version).
pub fn excludes(spec: &CaseSpec, major: u8, auto: bool, context: &Value) -> Option<String> {
    let lists_v2 = context.pointer("/openwop/listsV2") == Some(&Value::Bool(true));
    let v1_only = "the host lists no 2.x version in protocolVersions: it speaks openwop 1 only (--openwop-major 2 asks for v2)";
    if let Some(wanted) = written_for(spec)
        && wanted != u64::from(major)
    {
        if auto && wanted == 2 && !lists_v2 {
            return Some(v1_only.to_string());
        }
        return Some(format!(
            "an openwop {wanted} case; the run targets openwop {major} (--openwop-major {wanted} runs it)"
        ));
    }
    let negotiation = spec
        .endpoint()
        .is_some_and(|e| negotiation::is_negotiation(split_endpoint(e).0));
    (negotiation && major == 1 && !lists_v2).then(|| v1_only.to_string())
}

/// The suite of an auto run once the host listed a 2.x version (see the module text).
pub fn arrange(suite: &Suite) -> Suite {
    let mut v1 = Vec::new();
    let mut v2 = Vec::new();
    for case in &suite.cases {
        // Offline cases judge fixtures and negotiation cases the resource: no major.
        let once = case.spec.endpoint().is_none_or(negotiation::is_negotiation);
        match written_for(&case.spec) {
            Some(2) => v2.push(into_v2(case, false)),
            Some(_) => v1.push(case.clone()),
            None if once => v1.push(case.clone()),
            None => {
                v1.push(case.clone());
                v2.push(into_v2(case, true));
            }
        }
    }
    v1.extend(v2);
    Suite {
        cases: v1,
        ..suite.clone()
    }
}

/// `case` planned from the v2 root; `copy`: a v1 case's v2 twin, its id marked.
fn into_v2(case: &SuiteCase, copy: bool) -> SuiteCase {
    let mut case = case.clone();
    case.variant = Some(V2.to_string());
    let spec = std::sync::Arc::make_mut(&mut case.spec);
    if let Some(request) = &mut spec.request {
        request.endpoint = format!("{}@{V2}", request.endpoint);
    }
    if copy {
        spec.id = format!("{}@{V2}", spec.id);
        spec.requirement.source = format!("{} (openwop 2)", spec.requirement.source);
    }
    case
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

    fn suite_case(applies: Value, endpoint: &str, id: &str) -> SuiteCase {
        let mut spec = case(applies, endpoint);
        spec.id = id.to_string();
        SuiteCase {
            spec: spec.into(),
            file: "f.yaml".into(),
            profile: "openwop".into(),
            conformance_profile: None,
            variant: None,
        }
    }

    #[test]
    fn a_case_of_the_other_major_is_excluded_not_skipped() {
        let v2 = case(
            json!([{"path": "openwop.major", "equals": 2, "reason": "r"}]),
            "discovery",
        );
        let ctx = json!({"openwop": {"listsV2": true}});
        assert!(excludes(&v2, 1, false, &ctx).is_some_and(|r| r.contains("--openwop-major 2")));
        assert_eq!(excludes(&v2, 2, false, &ctx), None);
        let any = case(json!([]), "discovery");
        assert_eq!(excludes(&any, 1, false, &ctx), None);
    }

    #[test]
    fn negotiation_is_left_out_only_for_a_v1_only_host_at_major_1() {
        let negotiation = case(json!([]), "discovery-v2");
        let v1_only = json!({"openwop": {"listsV2": false}});
        assert!(
            excludes(&negotiation, 1, false, &v1_only)
                .is_some_and(|r| r.contains("openwop 1 only"))
        );
        assert_eq!(excludes(&negotiation, 2, false, &v1_only), None);
        let lists = json!({"openwop": {"listsV2": true}});
        assert_eq!(excludes(&negotiation, 1, false, &lists), None);
    }

    #[test]
    fn auto_tells_a_v1_only_host_it_does_not_speak_v2_instead_of_naming_the_flag() {
        let v2 = case(json!([{"path": "openwop.major", "equals": 2}]), "discovery");
        let v1_only = json!({"openwop": {"listsV2": false}});
        let reason = excludes(&v2, 1, true, &v1_only).unwrap();
        assert!(reason.contains("openwop 1 only"), "{reason}");
    }

    #[test]
    fn arrange_copies_neutral_cases_moves_v2_cases_and_keeps_v1_and_negotiation_once() {
        let v1 = json!([{"path": "openwop.major", "equals": 1}]);
        let v2 = json!([{"path": "openwop.major", "equals": 2}]);
        let suite = Suite {
            cases: vec![
                suite_case(json!([]), "ai-call", "a.neutral"),
                suite_case(v1, "discovery", "a.v1"),
                suite_case(v2, "discovery", "a.v2"),
                suite_case(json!([]), "discovery-v2", "a.negotiation"),
                {
                    let mut offline = suite_case(json!([]), "x", "a.offline");
                    std::sync::Arc::make_mut(&mut offline.spec).request = None;
                    offline
                },
            ],
            files: Vec::new(),
            set_sha256: String::new(),
            replaced: Vec::new(),
            left_out: Vec::new(),
        };
        let arranged = arrange(&suite);
        let rows: Vec<(&str, Option<&str>, Option<&str>, &str)> = arranged
            .cases
            .iter()
            .map(|c| {
                (
                    c.spec.id.as_str(),
                    c.variant.as_deref(),
                    c.spec.endpoint(),
                    c.spec.requirement.source.as_str(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            vec![
                ("a.neutral", None, Some("ai-call"), "s"),
                ("a.v1", None, Some("discovery"), "s"),
                ("a.negotiation", None, Some("discovery-v2"), "s"),
                ("a.offline", None, None, "s"),
                (
                    "a.neutral@v2",
                    Some("v2"),
                    Some("ai-call@v2"),
                    "s (openwop 2)"
                ),
                ("a.v2", Some("v2"), Some("discovery@v2"), "s"),
            ]
        );
        assert_eq!(split_endpoint("ai-call@v2"), ("ai-call", Some(2)));
        assert_eq!(split_endpoint("ai-call"), ("ai-call", None));
    }
}
