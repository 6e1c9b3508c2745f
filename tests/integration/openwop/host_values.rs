//! Host-controlled values never become a tool error. Every field of a real discovery
//! document is mutated (removed, null, wrong types, zero, negative, huge, outside its
//! enum, an element duplicated) and every built-in case is planned against it and its
//! request built, as a run would: no case may come out as `error` (a defect in
//! mmconform or a scenario file) or panic. A wrong value is the business of the case
//! that checks it; a case that cannot be built from it is skipped or blocked.

use mmconform::api::openwop::{Dialect, PartInputs, derive_facts, render_part};
use mmconform::api::render_body;
use mmconform::api::{Disposition, Suite, SuiteOptions, check_options, load_suite, plan};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const NONCE: &str = "0123456789abcdef";
/// Most bytes a limit probe may send here (as `--max-probe-bytes`).
const MAX_PROBE: u64 = 1 << 20;

fn reference_document() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fuzz/seeds/discovery/reference-limits.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every JSON pointer in `value` (the root excluded).
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    let children: Vec<(String, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (format!("{at}/{k}"), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("{at}/{i}"), v))
            .collect(),
        _ => Vec::new(),
    };
    for (pointer, child) in children {
        out.push(pointer.clone());
        pointers(child, pointer, out);
    }
}

/// The values a careless or hostile host might put in any field.
fn replacements(original: &Value) -> Vec<Option<Value>> {
    let mut values = vec![
        None,
        Some(Value::Null),
        Some(json!("")),
        Some(json!("video")),
        Some(json!(0)),
        Some(json!(-1)),
        Some(json!(1.5)),
        Some(json!(i64::MAX)),
        Some(json!(u64::MAX)),
        Some(json!(1e300)),
        Some(json!(true)),
        Some(json!([])),
        Some(json!({})),
        Some(json!(["text", "text", 7, null])),
    ];
    if let Value::Array(items) = original
        && let Some(first) = items.first()
    {
        let mut doubled = items.clone();
        doubled.push(first.clone());
        values.push(Some(Value::Array(doubled)));
    }
    values
}

fn mutated(document: &Value, pointer: &str, value: Option<Value>) -> Value {
    let mut doc = document.clone();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match (doc.pointer_mut(parent).unwrap(), value) {
        (Value::Object(map), None) => {
            map.remove(key);
        }
        (Value::Object(map), Some(v)) => {
            map.insert(key.to_string(), v);
        }
        (Value::Array(items), None) => {
            items.remove(key.parse::<usize>().unwrap());
        }
        (Value::Array(items), Some(v)) => items[key.parse::<usize>().unwrap()] = v,
        _ => unreachable!("a parent is an object or an array"),
    }
    doc
}

/// What goes wrong planning and building every case against `document`.
fn tool_errors(suite: &Suite, document: &Value) -> Vec<String> {
    let context = json!({
        "discovery": document,
        "openwop": derive_facts(Some(document), 1, MAX_PROBE),
        "run": {"tokenConfigured": true, "mediaBaseUrl": "http://127.0.0.1:9/media",
                "mediaRefs": {"image": "ref-image"}, "dialect": "spec", "openwopMajor": 1},
    });
    let refs = BTreeMap::from([("image".to_string(), "ref-image".to_string())]);
    let inputs = PartInputs {
        dialect: Dialect::Spec,
        nonce: NONCE,
        media_base_url: Some("http://127.0.0.1:9/media"),
        media_refs: &refs,
    };
    let mut errors = Vec::new();
    for planned in plan(suite, &context, &[], NONCE) {
        if let Disposition::Error(reason) = &planned.disposition {
            errors.push(format!("{}: planned as error: {reason}", planned.id));
            continue;
        }
        if planned.disposition != Disposition::Run {
            continue;
        }
        let case = &suite.cases[planned.case];
        let resolve = planned.resolver(&context, NONCE, &case.spec.id);
        if let Some(template) = case.spec.request.as_ref().and_then(|r| r.body.as_ref()) {
            let media = |spec: &_| render_part(spec, &resolve, &inputs);
            if let Err(e) = render_body(template, &resolve, &media) {
                errors.push(format!("{}: request not built: {e}", planned.id));
            }
        }
    }
    errors
}

#[test]
fn no_discovery_value_makes_a_case_a_tool_error() {
    let suite = load_suite(&SuiteOptions {
        include_builtin: true,
        paths: Vec::new(),
        checks: check_options(false),
    })
    .unwrap()
    .for_profile("openwop");
    let document = reference_document();
    assert!(tool_errors(&suite, &document).is_empty());
    let mut all = Vec::new();
    pointers(&document, String::new(), &mut all);
    let mut failures = Vec::new();
    let mut tried = 0;
    for pointer in &all {
        let original = document.pointer(pointer).unwrap();
        for value in replacements(original) {
            tried += 1;
            let shown = value.as_ref().map_or("(removed)".into(), Value::to_string);
            for error in tool_errors(&suite, &mutated(&document, pointer, value)) {
                failures.push(format!("{pointer} = {shown}: {error}"));
            }
        }
    }
    assert!(tried > 300, "{tried} mutations");
    assert!(
        failures.is_empty(),
        "{} tool error(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
