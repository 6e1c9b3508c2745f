//! Error answers at major 2 (openwop `spec/v2/core/errors.md`): a host "MUST return a
//! registered code, or a vendor code" with "the registered status", in the closed
//! envelope `{error, message, details?}`. Judged on every error answer of a v2 run,
//! beside the case's own expectations: a case that only asks for "refused" (a 4xx) still
//! fails an unregistered code, since the rule is about every error a host sends.
//!
//! The one place the texts disagree (the v2 notes, §7): RFC 0091 and the official suite
//! name `unsupported_modality` for an unadvertised modality; v2 core names
//! `capability_not_provided` (422) and registers no `unsupported_modality`. A case that
//! expects `unsupported_modality` is therefore judged in two parts at v2: "refused, never
//! dropped" stays its status check (MUST); the code passes as `capability_not_provided`,
//! is a MAY-level finding (a `warn` naming both texts, never a plain failure and never a
//! silent pass) as `unsupported_modality`, and fails as anything else.
//!
//! The other side of the same refusal: a case that says "not the capability code"
//! (`error_code: {not: unsupported_modality}`: a shape error, an SSRF refusal) is about
//! the code's meaning, "not advertised", so at v2 it fails `capability_not_provided` as
//! well (and keeps failing `unsupported_modality`, which says the same in v1's words).

use crate::judge::Judgement;
use crate::judge::error_body::{ErrorReading, ErrorShape};
use crate::outcome::{AssertionResult, Level};
use crate::scenario::model::{ErrorCodeExpectation, Expectations};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// RFC 0091's code for an unadvertised modality, absent from every v2 registry.
pub const RFC0091_CODE: &str = "unsupported_modality";
/// The v2 code for the same refusal (host-services.md §aiProviders).
pub const V2_REFUSAL_CODE: &str = "capability_not_provided";

/// The contradiction, as a report states it.
pub const CONTRADICTION: &str = "RFC 0091 and the official suite name `unsupported_modality`; openwop v2 core (spec/v2/core/host-services.md §aiProviders, the errors.md registry) requires `capability_not_provided` 422 and registers no `unsupported_modality`. A v2 host cannot satisfy both: reported, not failed";

/// The pinned v2 registry: code -> registered status.
pub struct Registry {
    pub pinned: String,
    codes: BTreeMap<String, u16>,
}

impl Registry {
    /// The registry shipped in `schemas/openwop/v2/error-registry.json`.
    pub fn pinned() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(|| {
            let text = include_str!("../../../schemas/openwop/v2/error-registry.json");
            let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            Registry {
                pinned: value["pinned"]
                    .as_str()
                    .unwrap_or("(unreadable)")
                    .to_string(),
                codes: value["codes"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter_map(|(k, v)| Some((k.clone(), u16::try_from(v.as_u64()?).ok()?)))
                    .collect(),
            }
        })
    }

    /// The registered status of `code`, if it is registered.
    pub fn status_of(&self, code: &str) -> Option<u16> {
        self.codes.get(code).copied()
    }
}

/// A vendor code `<org>.<name>` (the `openwop.` org is reserved).
fn is_vendor_code(code: &str) -> bool {
    let Some((org, name)) = code.split_once('.') else {
        return false;
    };
    let word = |s: &str, extra: &[u8]| {
        s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || extra.contains(&b))
    };
    org != "openwop" && word(org, b"-") && word(name, b"_")
}

/// The registry check of one error answer.
pub fn registry_check(code: &str, status: u16) -> AssertionResult {
    let registry = Registry::pinned();
    let expected = format!(
        "a code of the v2 registry ({}) with its registered status, or a vendor code <org>.<name>",
        registry.pinned
    );
    let (actual, passed, level) = match registry.status_of(code) {
        Some(registered) if registered == status => {
            (format!("{code} {status} (registered)"), true, None)
        }
        Some(registered) => (
            format!("{code} answered {status}; the registry gives {code} status {registered}"),
            false,
            None,
        ),
        None if is_vendor_code(code) => (format!("vendor code {code} {status}"), true, None),
        None if code == RFC0091_CODE => (
            format!("{code} {status}: not in the v2 registry. {CONTRADICTION}"),
            false,
            Some(Level::May),
        ),
        None => (
            format!(
                "{code} {status}: not in the v2 registry {}",
                registry.pinned
            ),
            false,
            None,
        ),
    };
    let assertion = AssertionResult::new("v2_registry", expected, actual, passed);
    match level {
        Some(level) => assertion.at_level(level),
        None => assertion,
    }
}

/// The code part of a refusal RFC 0091 spells `unsupported_modality`, at v2.
pub fn refusal_code_check(code: Option<&str>) -> AssertionResult {
    let expected = format!(
        "{V2_REFUSAL_CODE} (v2 core; RFC 0091 says {RFC0091_CODE}, which v2 does not register)"
    );
    match code {
        Some(V2_REFUSAL_CODE) => {
            AssertionResult::new("error_code", expected, V2_REFUSAL_CODE.into(), true)
        }
        Some(RFC0091_CODE) => AssertionResult::new(
            "error_code",
            expected,
            format!("{RFC0091_CODE}: {CONTRADICTION}"),
            false,
        )
        .at_level(Level::May),
        Some(other) => {
            AssertionResult::new("error_code", expected, format!("error code {other}"), false)
        }
        None => AssertionResult::new("error_code", expected, "no error code".into(), false),
    }
}

/// The code part of "not the capability refusal" at v2: neither v2's nor RFC 0091's
/// spelling of "not advertised".
pub fn not_refusal_code_check(code: Option<&str>) -> AssertionResult {
    let expected = format!(
        "an error code other than the capability refusal ({V2_REFUSAL_CODE} at v2, {RFC0091_CODE} in RFC 0091): the part's type is advertised, its shape is the problem"
    );
    let (actual, passed) = match code {
        Some(code @ (V2_REFUSAL_CODE | RFC0091_CODE)) => (
            format!("error code {code}, which says the modality is not advertised"),
            false,
        ),
        Some(other) => (format!("error code {other}"), true),
        None => ("no error code".to_string(), false),
    };
    AssertionResult::new("error_code", expected, actual, passed)
}

/// Whether a case's code expectation is RFC 0091's refusal code.
fn expects_rfc0091_code(expect: &Expectations) -> bool {
    matches!(&expect.error_code, Some(ErrorCodeExpectation::Equals(code)) if code == RFC0091_CODE)
        || matches!(&expect.error_code, Some(ErrorCodeExpectation::Rule(rule)) if rule.equals.as_deref() == Some(RFC0091_CODE))
}

/// Whether a case's code expectation is "not RFC 0091's refusal code".
fn avoids_rfc0091_code(expect: &Expectations) -> bool {
    matches!(&expect.error_code, Some(ErrorCodeExpectation::Rule(rule)) if rule.not.as_deref() == Some(RFC0091_CODE))
}

/// Applies the v2 error rules to an answer: on an error answer (status >= 400), the
/// refusal code read per major, the registry and the closed envelope. Every error
/// answer takes the last two, whatever the case expects of it: a case that needs only
/// "refused" is not a licence for an unregistered code.
pub fn apply(
    expect: &Expectations,
    status: u16,
    reading: &ErrorReading,
    judgement: &mut Judgement,
) {
    if status < 400 {
        return;
    }
    let reread = if expects_rfc0091_code(expect) {
        Some(refusal_code_check(reading.code.as_deref()))
    } else if avoids_rfc0091_code(expect) {
        Some(not_refusal_code_check(reading.code.as_deref()))
    } else {
        None
    };
    if let Some(check) = reread
        && let Some(slot) = judgement
            .assertions
            .iter_mut()
            .find(|a| a.check == "error_code")
    {
        *slot = check;
    }
    if let Some(code) = &reading.code {
        judgement.assertions.push(registry_check(code, status));
    }
    if expect.error_shape.is_none() {
        let flat = reading.shape == ErrorShape::Flat;
        judgement.assertions.push(AssertionResult::new(
            "error_shape",
            "the closed v2 error envelope {error, message, details?} (errors.md)".into(),
            reading.shape.to_string(),
            flat,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::error_body::read;
    use serde_json::json;

    fn judged(expect: Value, status: u16, body: Value) -> Judgement {
        let expect: Expectations = serde_json::from_value(expect).unwrap();
        let bytes = body.to_string().into_bytes();
        let reading = read(&bytes);
        let mut j = Judgement::default();
        if let Some(code) = &expect.error_code {
            j.assertions.push(crate::judge::error_code::check(
                code,
                reading.code.as_deref(),
                reading.shape,
            ));
        }
        if let Some(expected) = &expect.status {
            j.assertions
                .push(crate::judge::status::check(expected, status));
        }
        apply(&expect, status, &reading, &mut j);
        j
    }

    fn named<'j>(j: &'j Judgement, check: &str) -> &'j AssertionResult {
        j.assertions.iter().find(|a| a.check == check).unwrap()
    }

    fn outcome(j: &Judgement, strict: bool) -> crate::outcome::Outcome {
        crate::runner::verdict::outcome_of(&j.assertions, Level::Must, strict)
    }

    #[test]
    fn the_refusal_code_per_major() {
        use crate::outcome::Outcome;
        let e = json!({"status": "4xx", "error_code": "unsupported_modality"});
        let v2 = judged(
            e.clone(),
            422,
            json!({"error": "capability_not_provided", "message": "m"}),
        );
        assert_eq!(outcome(&v2, true), Outcome::Pass);
        let rfc = judged(
            e.clone(),
            400,
            json!({"error": "unsupported_modality", "message": "m"}),
        );
        // The documented contradiction: a warn even under --strict, naming both texts.
        assert_eq!(outcome(&rfc, true), Outcome::Warn);
        assert!(rfc.assertions[0].actual.contains("host-services.md"));
        let other = judged(
            e.clone(),
            400,
            json!({"error": "validation_error", "message": "m"}),
        );
        assert_eq!(outcome(&other, false), Outcome::Fail);
        let status = judged(
            e,
            400,
            json!({"error": "capability_not_provided", "message": "m"}),
        );
        assert_eq!(outcome(&status, false), Outcome::Fail);
        assert!(named(&status, "v2_registry").actual.contains("status 422"));
    }

    #[test]
    fn unregistered_codes_and_open_envelopes_fail_naming_the_registry() {
        use crate::outcome::Outcome;
        let e = json!({"status": "4xx", "error_code": {"not": "unsupported_modality"}});
        let legacy = judged(
            e.clone(),
            400,
            json!({"error": "invalid_request", "message": "m"}),
        );
        assert_eq!(outcome(&legacy, false), Outcome::Fail);
        let registry = named(&legacy, "v2_registry");
        assert!(
            registry.actual.contains("errors.json"),
            "{}",
            registry.actual
        );
        let extra = judged(
            e.clone(),
            400,
            json!({"error": "validation_error", "message": "m", "status": 400}),
        );
        assert_eq!(outcome(&extra, false), Outcome::Fail);
        let vendor = judged(
            e.clone(),
            400,
            json!({"error": "acme.bad_part", "message": "m"}),
        );
        assert_eq!(outcome(&vendor, false), Outcome::Pass);
        let reserved = judged(e, 400, json!({"error": "openwop.bad_part", "message": "m"}));
        assert_eq!(outcome(&reserved, false), Outcome::Fail);
        for (code, status) in [
            ("egress_denied", 403),
            ("payload_too_large", 413),
            ("validation_error", 400),
        ] {
            assert!(registry_check(code, status).passed, "{code}");
        }
    }

    #[test]
    fn not_the_capability_code_reads_the_v2_code_too() {
        use crate::outcome::Outcome;
        let e = json!({"status": "4xx", "error_code": {"not": "unsupported_modality"}});
        let v2_code = judged(
            e.clone(),
            422,
            json!({"error": "capability_not_provided", "message": "m"}),
        );
        assert_eq!(outcome(&v2_code, false), Outcome::Fail);
        assert!(v2_code.assertions[0].actual.contains("not advertised"));
        let v1_code = judged(
            e.clone(),
            400,
            json!({"error": "unsupported_modality", "message": "m"}),
        );
        assert!(!v1_code.assertions[0].passed);
        let shape = judged(e, 400, json!({"error": "validation_error", "message": "m"}));
        assert_eq!(outcome(&shape, true), Outcome::Pass);
    }

    #[test]
    fn a_case_that_only_wants_refused_still_meets_the_registry() {
        use crate::outcome::Outcome;
        let e = json!({"status": "4xx"});
        let unregistered = judged(
            e.clone(),
            413,
            json!({"error": "part_too_large", "message": "m"}),
        );
        assert_eq!(outcome(&unregistered, false), Outcome::Fail);
        let failed: Vec<&str> = unregistered
            .assertions
            .iter()
            .filter(|a| !a.passed)
            .map(|a| a.check.as_str())
            .collect();
        assert_eq!(failed, ["v2_registry"]);
        let registered = judged(
            e.clone(),
            413,
            json!({"error": "payload_too_large", "message": "m"}),
        );
        assert_eq!(outcome(&registered, true), Outcome::Pass);
        let open = judged(e.clone(), 400, json!({"detail": "too big"}));
        assert_eq!(outcome(&open, false), Outcome::Fail);
        // A 2xx is no error answer: nothing of the registry applies.
        let accepted = judged(json!({"status": "2xx"}), 200, json!({"output": "ok"}));
        assert_eq!(accepted.assertions.len(), 1);
    }
}
