//! The accept pipeline without a server: one test per stage and outcome, every cap on
//! both sides of its boundary, trust precedence, vendor kinds, the universals exemption.

use axum::http::StatusCode;
use serde_json::{Value, json};

use super::pipeline::{TS_REASON, check_ts};
use super::{EnvelopeState, UNIVERSAL_ENVELOPES, accept_envelope};
use crate::ReferenceConfig;
use crate::test_support::{envelope, envelope_of as of_kind};

fn answer(body: Value) -> (StatusCode, Value) {
    accept_envelope(
        &ReferenceConfig::default(),
        &body,
        &EnvelopeState::default(),
    )
}

/// The outcome of a well-formed request, which is always a 200.
fn outcome(body: Value) -> Value {
    let (status, outcome) = answer(body);
    assert_eq!(status, StatusCode::OK, "{outcome}");
    outcome
}

fn status_of(body: Value) -> String {
    outcome(body)["status"].as_str().unwrap_or("-").to_owned()
}

#[test]
fn a_valid_universal_envelope_is_accepted_with_its_meta() {
    assert_eq!(
        outcome(json!({"envelope": envelope()})),
        json!({"status": "accepted", "normalizedMeta": {
            "source": "ai-generation", "ts": "2026-11-22T08:00:00Z", "contentTrust": "trusted"
        }})
    );
}

#[test]
fn a_body_without_an_envelope_is_a_flat_400() {
    for body in [
        json!({"hostSupportedEnvelopes": []}),
        json!({"envelope": null}),
        json!([1]),
        json!("x"),
    ] {
        let (status, error) = answer(body.clone());
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(error["error"], "invalid_request", "{body}");
        assert!(error["message"].is_string(), "{body}");
    }
}

#[test]
fn stage_1_schema_violations_are_invalid_with_details() {
    let mut without_meta = envelope();
    without_meta.as_object_mut().unwrap().remove("meta");
    let mut unknown_key = envelope();
    unknown_key["surprise"] = json!(1);
    let mut bad_source = envelope();
    bad_source["meta"]["source"] = json!("robot");
    let cases = [
        (without_meta, "required", ""),
        (unknown_key, "additionalProperties", ""),
        (bad_source, "enum", "/meta/source"),
        (json!("not an object"), "type", ""),
    ];
    for (envelope, keyword, at) in cases {
        let invalid = outcome(json!({"envelope": envelope}));
        assert_eq!(invalid["status"], "invalid", "{invalid}");
        assert!(
            invalid["reason"].as_str().unwrap().contains("ai-envelope"),
            "{invalid}"
        );
        let details = invalid["details"].as_array().unwrap();
        assert!(
            details
                .iter()
                .any(|d| d["keyword"] == keyword && d["instancePath"] == at),
            "{keyword} at {at:?}: {invalid}"
        );
        for detail in details {
            assert!(detail["message"].is_string(), "{invalid}");
        }
    }
}

#[test]
fn a_ts_that_is_not_a_date_time_names_iso_8601() {
    let mut tomorrow = envelope();
    tomorrow["meta"]["ts"] = json!("tomorrow");
    let invalid = outcome(json!({"envelope": tomorrow.clone()}));
    assert_eq!(invalid["reason"], TS_REASON);
    assert_eq!(invalid["details"][0]["keyword"], "format");
    assert_eq!(invalid["details"][0]["instancePath"], "/meta/ts");
    // Alongside another violation the reason still names ISO 8601.
    tomorrow["surprise"] = json!(1);
    let invalid = outcome(json!({"envelope": tomorrow}));
    assert!(
        invalid["reason"].as_str().unwrap().contains("ISO 8601"),
        "{invalid}"
    );
    assert_eq!(invalid["details"].as_array().unwrap().len(), 2);
}

#[test]
fn stage_3_checks_ts_on_its_own() {
    let config = ReferenceConfig::default();
    assert!(check_ts(&config, &envelope()).is_ok());
    let mut tomorrow = envelope();
    tomorrow["meta"]["ts"] = json!("tomorrow");
    let super::outcome::Outcome::Invalid { reason, details } =
        check_ts(&config, &tomorrow).unwrap_err()
    else {
        panic!("stage 3 answers invalid");
    };
    assert_eq!(reason, TS_REASON);
    assert_eq!(details[0].instance_path, "/meta/ts");
}

#[test]
fn stage_2_a_repeat_replays_the_first_outcome() {
    let config = ReferenceConfig::default();
    let state = EnvelopeState::default();
    let first = envelope();
    let (_, accepted) = accept_envelope(&config, &json!({"envelope": first.clone()}), &state);
    assert_eq!(accepted["status"], "accepted");
    // The same ids at a breached cap and untrusted: still the first decision.
    let again = json!({
        "envelope": first.clone(),
        "runTrustBoundary": "untrusted",
        "counters": {"clarificationRounds": {"current": 3, "cap": 3}}
    });
    assert_eq!(
        accept_envelope(&config, &again, &state),
        (StatusCode::OK, accepted)
    );
    // A fresh envelope with the same body is decided on its own.
    let fresh = json!({"envelope": envelope(), "counters": again["counters"].clone()});
    assert_eq!(
        accept_envelope(&config, &fresh, &state).1["status"],
        "breached"
    );
    // A malformed envelope is never remembered, so its ids stay free.
    let mut broken = envelope();
    broken["meta"]["ts"] = json!("tomorrow");
    assert_eq!(
        accept_envelope(&config, &json!({"envelope": broken.clone()}), &state).1["status"],
        "invalid"
    );
    broken["meta"]["ts"] = json!("2026-11-22T08:00:00Z");
    assert_eq!(
        accept_envelope(&config, &json!({"envelope": broken}), &state).1["status"],
        "accepted"
    );
}

#[test]
fn stage_4_the_host_gates_kinds_it_does_not_support() {
    let vendor = || of_kind("vendor.acme.prd", json!({"anything": [1, 2]}));
    let universals: Vec<&str> = UNIVERSAL_ENVELOPES.to_vec();
    // Without hostSupportedEnvelopes only the host's own (universal) kinds pass.
    let gated = outcome(json!({"envelope": vendor()}));
    assert_eq!(gated["status"], "gated");
    assert!(
        gated["reason"]
            .as_str()
            .unwrap()
            .contains("vendor.acme.prd")
    );
    assert_eq!(gated["allowedKinds"], json!(universals));
    let listed = json!(["error", "vendor.acme.other"]);
    let gated = outcome(json!({"envelope": vendor(), "hostSupportedEnvelopes": listed}));
    let mut allowed = universals.clone();
    allowed.push("vendor.acme.other");
    assert_eq!(gated["allowedKinds"], json!(allowed));
    // Listed kinds pass, namespaced or not; universals pass whatever the list says.
    let hosted = json!(["vendor.acme.prd", "prd.create"]);
    assert_eq!(
        status_of(json!({"envelope": vendor(), "hostSupportedEnvelopes": hosted})),
        "accepted"
    );
    let plain = of_kind("prd.create", json!(null));
    assert_eq!(
        status_of(json!({"envelope": plain, "hostSupportedEnvelopes": hosted})),
        "accepted"
    );
    assert_eq!(
        status_of(json!({"envelope": envelope(), "hostSupportedEnvelopes": []})),
        "accepted"
    );
}

#[test]
fn stage_5_universal_payloads_follow_their_schemas() {
    let cases = [
        (
            "clarification.request",
            json!({"questions": [{"id": "q", "question": "?"}]}),
            json!({"questions": []}),
        ),
        (
            "schema.request",
            json!({"envelopeType": "error", "reason": "lost it"}),
            json!({"envelopeType": ""}),
        ),
        (
            "schema.response",
            json!({"envelopeType": "error", "ack": true}),
            json!({"envelopeType": "error", "ack": false}),
        ),
        (
            "error",
            json!({"code": "oops", "message": "broke"}),
            json!({"code": "oops"}),
        ),
    ];
    for (kind, good, bad) in cases {
        assert_eq!(
            status_of(json!({"envelope": of_kind(kind, good)})),
            "accepted",
            "{kind}"
        );
        let invalid = outcome(json!({"envelope": of_kind(kind, bad)}));
        assert_eq!(invalid["status"], "invalid", "{kind}");
        assert!(
            invalid["reason"].as_str().unwrap().contains(kind),
            "{invalid}"
        );
        let path = invalid["details"][0]["instancePath"].as_str().unwrap();
        assert!(path.starts_with("/payload"), "{kind}: {invalid}");
    }
    // Namespaced payloads are their owner's business; an invalid payload wins over a cap.
    for kind in ["vendor.acme.x", "private.thing", "x-experimental"] {
        let body = json!({"envelope": of_kind(kind, json!("free text")), "hostSupportedEnvelopes": [kind]});
        assert_eq!(status_of(body), "accepted", "{kind}");
    }
    let at_cap = json!({"clarificationRounds": {"current": 3, "cap": 3}});
    let bad = of_kind("clarification.request", json!({}));
    assert_eq!(
        status_of(json!({"envelope": bad, "counters": at_cap})),
        "invalid"
    );
}

#[test]
fn stage_6_the_node_allowlist_binds_all_but_universals() {
    let vendor = || of_kind("vendor.acme.prd", json!({}));
    let host = json!(["vendor.acme.prd"]);
    let node = json!(["vendor.acme.other"]);
    let gated = outcome(
        json!({"envelope": vendor(), "hostSupportedEnvelopes": host, "nodeAllowedKinds": node}),
    );
    assert_eq!(gated["status"], "gated");
    assert_eq!(gated["allowedKinds"], node);
    let node_ok = json!(["vendor.acme.prd"]);
    let body =
        json!({"envelope": vendor(), "hostSupportedEnvelopes": host, "nodeAllowedKinds": node_ok});
    assert_eq!(status_of(body), "accepted");
    for kind_list in [node, json!([])] {
        for (kind, payload) in [
            ("clarification.request", envelope()["payload"].clone()),
            ("error", json!({"code": "c", "message": "m"})),
        ] {
            let body = json!({"envelope": of_kind(kind, payload), "nodeAllowedKinds": kind_list});
            assert_eq!(status_of(body), "accepted", "{kind}");
        }
    }
    // The host gate decides before the node allowlist.
    let body = json!({"envelope": vendor(), "nodeAllowedKinds": ["vendor.acme.prd"]});
    assert_eq!(outcome(body)["allowedKinds"], json!(UNIVERSAL_ENVELOPES));
}

#[test]
fn stage_7_each_counter_breaches_at_its_cap_not_below() {
    let cases = [
        (
            "clarification.request",
            envelope()["payload"].clone(),
            "clarificationRounds",
            "clarification",
        ),
        (
            "schema.request",
            json!({"envelopeType": "error"}),
            "schemaRounds",
            "schema",
        ),
        (
            "error",
            json!({"code": "c", "message": "m"}),
            "envelopesPerTurn",
            "envelopes",
        ),
        (
            "schema.response",
            json!({"envelopeType": "error", "ack": true}),
            "envelopesPerTurn",
            "envelopes",
        ),
    ];
    for (kind, payload, counter, cap_kind) in cases {
        let body = |current: i64| json!({"envelope": of_kind(kind, payload.clone()), "counters": {counter: {"current": current, "cap": 3}}});
        assert_eq!(status_of(body(2)), "accepted", "{kind} at cap-1");
        assert_eq!(
            outcome(body(3)),
            json!({"status": "breached", "capKind": cap_kind, "current": 3, "cap": 3}),
            "{kind} at cap"
        );
    }
    let vendor = of_kind("vendor.acme.prd", json!({}));
    let body = json!({"envelope": vendor, "hostSupportedEnvelopes": ["vendor.acme.prd"],
        "counters": {"envelopesPerTurn": {"current": 32, "cap": 32}}});
    assert_eq!(outcome(body)["capKind"], "envelopes");
}

#[test]
fn stage_8_trust_is_own_then_run_then_trusted() {
    let with_own = |trust: &str| {
        let mut envelope = envelope();
        envelope["meta"]["contentTrust"] = json!(trust);
        envelope
    };
    let trust = |body: Value| outcome(body)["normalizedMeta"]["contentTrust"].clone();
    assert_eq!(trust(json!({"envelope": envelope()})), "trusted");
    assert_eq!(
        trust(json!({"envelope": envelope(), "runTrustBoundary": "untrusted"})),
        "untrusted"
    );
    assert_eq!(
        trust(json!({"envelope": envelope(), "runTrustBoundary": "trusted"})),
        "trusted"
    );
    assert_eq!(
        trust(json!({"envelope": with_own("trusted"), "runTrustBoundary": "untrusted"})),
        "trusted"
    );
    assert_eq!(
        trust(json!({"envelope": with_own("untrusted"), "runTrustBoundary": "trusted"})),
        "untrusted"
    );
    assert_eq!(
        trust(json!({"envelope": with_own("untrusted")})),
        "untrusted"
    );
    // An unrecognised boundary never upgrades content to trusted; null means not given.
    assert_eq!(
        trust(json!({"envelope": envelope(), "runTrustBoundary": "maybe"})),
        "untrusted"
    );
    assert_eq!(
        trust(json!({"envelope": envelope(), "runTrustBoundary": null})),
        "trusted"
    );
}

#[test]
fn junk_in_optional_fields_never_breaks_the_seam() {
    let body = json!({
        "envelope": envelope(),
        "hostSupportedEnvelopes": "all",
        "nodeAllowedKinds": {"a": 1},
        "runTrustBoundary": 7,
        "counters": [1, 2]
    });
    assert_eq!(outcome(body)["normalizedMeta"]["contentTrust"], "untrusted");
}
