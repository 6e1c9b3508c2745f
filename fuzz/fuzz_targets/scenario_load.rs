//! The scenario loader on arbitrary text, as YAML and as JSON: it must answer with a
//! loaded file or diagnostics that point inside the text, never panic, hang or blow up
//! memory. Files that load are planned against a real discovery document and their
//! request bodies rendered, so the planner and templates see fuzzed scenarios too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mmconform::api::openwop::{Dialect, PartInputs, derive_facts, render_part};
use mmconform::api::{
    SourceText, Suite, SuiteCase, check_options, load, plan, render_body, source_lines,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const DISCOVERY: &str = include_str!("../seeds/discovery/reference-limits.json");

fn context() -> Value {
    let document: Value = serde_json::from_str(DISCOVERY).expect("seed is JSON");
    json!({
        "discovery": document,
        "openwop": derive_facts(Some(&document), 1, 1 << 20),
        "run": {"tokenConfigured": true, "mediaBaseUrl": null, "mediaRefs": {},
                "dialect": "spec", "openwopMajor": 1},
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = check_options(false);
    let lines = source_lines(text).count();
    for name in ["fuzz.yaml", "fuzz.json"] {
        let source = SourceText {
            name: name.into(),
            text: text.into(),
        };
        match load(&source, &options) {
            Err(diagnostics) => {
                assert!(!diagnostics.is_empty(), "a refusal names a problem");
                for d in &diagnostics {
                    assert!(d.position.line >= 1 && d.position.col >= 1, "{d:?}");
                    assert!(
                        d.position.line <= lines.max(1) + 1,
                        "line past the end: {d:?}"
                    );
                    if d.position.line <= lines {
                        assert!(d.source_line.is_some(), "no source line for {d:?}");
                    }
                    let _ = d.to_string();
                }
            }
            Ok(loaded) => {
                let suite = Suite {
                    cases: loaded
                        .file
                        .cases
                        .iter()
                        .map(|spec| SuiteCase {
                            spec: spec.clone().into(),
                            file: loaded.name.clone(),
                            profile: loaded.file.profile.clone(),
                            conformance_profile: None,
                            variant: None,
                        })
                        .collect(),
                    files: vec![(loaded.name.clone(), loaded.sha256.clone())],
                    set_sha256: loaded.sha256.clone(),
                    replaced: Vec::new(),
                    left_out: Vec::new(),
                };
                let context = context();
                let refs = BTreeMap::new();
                let inputs = PartInputs {
                    dialect: Dialect::Spec,
                    nonce: "0123456789abcdef",
                    media_base_url: None,
                    media_refs: &refs,
                };
                for planned in plan(&suite, &context, &[], "0123456789abcdef") {
                    let case = &suite.cases[planned.case];
                    let resolve = planned.resolver(&context, "0123456789abcdef", &case.spec.id);
                    if let Some(body) = case.spec.request.as_ref().and_then(|r| r.body.as_ref()) {
                        let media = |spec: &_| render_part(spec, &resolve, &inputs);
                        let _ = render_body(body, &resolve, &media);
                    }
                }
            }
        }
    }
});
