//! Offline cases: compile a schema and validate a document against it, no target
//! needed. They run in `run --offline` and in every run. The failing keywords and
//! instance paths go into the assertions, so the report shows exactly what failed.

use crate::judge::catalog::LoadedSchema;
use crate::judge::validity;
use crate::observation::Observation;
use crate::outcome::AssertionResult;
use crate::plan::predicate::Resolve;
use crate::plan::result::{error_unsent, record_of};
use crate::protocol::CaseInput;
use crate::request::document;
use crate::scenario::model::{DocumentSpec, Expectations, ValidateSpec};
use crate::scenario::template;
use jsonschema::Validator;
use std::time::Instant;

/// Runs an offline case: compile the schema it names, build its document, judge the
/// findings: what was observed. A template that does not render is a scenario defect.
pub fn run_validate_case(env: &CaseInput) -> Observation {
    let (planned, case) = (env.planned, env.case);
    let started = Instant::now();
    let Some(spec) = &case.spec.validate else {
        return error_unsent(planned, case, "not a validate case".into());
    };
    let resolve = planned.resolver(env.context, env.nonce, &case.spec.id);
    let mut record = record_of(planned, case);
    let (compiled, mut assertions) = compile(env, spec, &resolve, &mut record.notes);
    if let (Some(loaded), Some(doc_spec)) = (&compiled, &spec.document) {
        match judge_document(&loaded.validator, doc_spec, &case.spec.expect, &resolve) {
            Ok(found) => assertions.extend(found),
            Err(e) => return Observation::error(record, format!("scenario defect: {e}")),
        }
    }
    record.assertions = assertions;
    record.duration_ms = started.elapsed().as_millis() as u64;
    Observation::judged(record)
}

/// The schema the case names, compiled (`None`, and a failed `compiles` assertion,
/// when it does not compile: that fails whatever the case expected of it).
fn compile(
    env: &CaseInput,
    spec: &ValidateSpec,
    resolve: Resolve,
    notes: &mut Vec<String>,
) -> (Option<LoadedSchema>, Vec<AssertionResult>) {
    let schema = template::render_text(&spec.schema, resolve)
        .and_then(|name| env.catalog.named(&name).map(|s| (name, s)));
    match schema {
        Ok((name, loaded)) => {
            let mut assertions = Vec::new();
            if env.case.spec.expect.compiles == Some(true) {
                assertions.push(AssertionResult::new(
                    "compiles",
                    format!("{name} compiles"),
                    format!("compiled ({})", loaded.origin),
                    true,
                ));
            }
            notes.push(format!("schema {name} from {}", loaded.origin));
            (Some(loaded), assertions)
        }
        Err(e) => {
            let failed =
                AssertionResult::new("compiles", format!("{} compiles", spec.schema), e, false);
            (None, vec![failed])
        }
    }
}

/// The document built and judged; `Err` is a scenario defect.
fn judge_document(
    validator: &Validator,
    doc_spec: &DocumentSpec,
    expect: &Expectations,
    resolve: Resolve,
) -> Result<Vec<AssertionResult>, String> {
    let doc = document::build(doc_spec, resolve)?;
    let rendered = |t: &Option<String>| {
        t.as_ref()
            .map(|t| template::render_text(t, resolve))
            .transpose()
    };
    let expected = validity::Expected {
        valid: expect.valid,
        keyword: rendered(&expect.keyword)?,
        at: rendered(&expect.at)?,
    };
    Ok(validity::check(
        &expected,
        &validity::findings(validator, &doc),
    ))
}
