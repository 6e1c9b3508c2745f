//! What a host sends back, fuzzed: the first byte picks a status, the rest is the body.
//! The body is read as a discovery document (bounded JSON, facts, planning every
//! built-in case against it, rendering their requests) and as the answer to every
//! built-in request case (the judge, error-code reading, schema checks), and recorded
//! as a transcript would record it. Nothing may panic, hang or blow memory up, and the
//! bounded parser must agree with serde_json whenever it accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmconform::api::openwop::{Dialect, PartInputs, derive_facts, render_part};
use mmconform::api::{
    Answer, Disposition, PlannedCase, Redactor, SchemaCatalog, Suite, SuiteOptions, check_options,
    judge_answer, load_suite, parse_bounded_json, plan, render_body, shown_body,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const NONCE: &str = "0123456789abcdef";
const DISCOVERY: &str = include_str!("../seeds/discovery/reference-limits.json");
const STATUSES: [u16; 12] = [200, 201, 204, 301, 400, 401, 404, 413, 415, 422, 500, 503];

struct Fixed {
    suite: Suite,
    catalog: SchemaCatalog,
    context: Value,
    planned: Vec<PlannedCase>,
}

fn context_for(document: &Value) -> Value {
    json!({
        "discovery": document,
        "openwop": derive_facts(Some(document), 1, 1 << 20),
        "run": {"tokenConfigured": true, "mediaBaseUrl": null, "mediaRefs": {},
                "dialect": "spec", "openwopMajor": 1},
    })
}

fn fixed() -> &'static Fixed {
    static FIXED: OnceLock<Fixed> = OnceLock::new();
    FIXED.get_or_init(|| {
        let suite = load_suite(&SuiteOptions {
            include_builtin: true,
            paths: Vec::new(),
            checks: check_options(false),
        })
        .expect("built-in scenarios load");
        let document: Value = serde_json::from_str(DISCOVERY).expect("seed is JSON");
        let context = context_for(&document);
        let planned = plan(&suite, &context, &[], NONCE)
            .into_iter()
            .filter(|p| p.disposition == Disposition::Run)
            .filter(|p| suite.cases[p.case].spec.request.is_some())
            .collect();
        Fixed {
            suite,
            catalog: SchemaCatalog::new(None),
            context,
            planned,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let fixed = fixed();

    // The bounded parser never accepts what serde_json rejects, nor changes a value.
    let parsed = parse_bounded_json(body);
    if let Ok(value) = &parsed {
        let plain: Value = serde_json::from_slice(body).expect("serde_json agrees");
        assert_eq!(&plain, value);
    }

    // As a discovery document.
    if let Ok(document @ Value::Object(_)) = &parsed {
        let context = context_for(document);
        let refs = BTreeMap::new();
        let inputs = PartInputs {
            dialect: Dialect::Spec,
            nonce: NONCE,
            media_base_url: None,
            media_refs: &refs,
        };
        // Whatever the document says, no case becomes a tool error: a wrong value is
        // for the case that checks it (tests/integration/openwop/host_values.rs).
        for planned in plan(&fixed.suite, &context, &[], NONCE) {
            assert!(
                !matches!(planned.disposition, Disposition::Error(_)),
                "{}: {:?}",
                planned.id,
                planned.disposition
            );
            if planned.disposition != Disposition::Run {
                continue;
            }
            let case = &fixed.suite.cases[planned.case];
            let resolve = planned.resolver(&context, NONCE, &case.spec.id);
            if let Some(template) = case.spec.request.as_ref().and_then(|r| r.body.as_ref()) {
                let media = |spec: &_| render_part(spec, &resolve, &inputs);
                if let Err(e) = render_body(template, &resolve, &media) {
                    panic!("{}: request not built: {e}", planned.id);
                }
            }
        }
    }

    // As the answer to every request case.
    let answer = Answer {
        status: STATUSES[usize::from(selector) % STATUSES.len()],
        content_type: Some("application/json"),
        body,
        truncated: selector & 0x80 != 0,
    };
    for planned in &fixed.planned {
        let case = &fixed.suite.cases[planned.case];
        let resolve = planned.resolver(&fixed.context, NONCE, &case.spec.id);
        let _ = judge_answer(&case.spec.expect, &answer, &resolve, &fixed.catalog);
    }

    // As a transcript records it.
    let shown = shown_body(body);
    assert!(
        shown.len() <= 64 * 1024 + 64,
        "recorded {} bytes",
        shown.len()
    );
    let redactor = Redactor::new(["s3cret"]);
    let once = redactor.redact(&shown);
    assert_eq!(redactor.redact(&once), once, "redaction is idempotent");
    assert!(!once.contains("s3cret"));
});
