//! Compiled JSON Schemas for `expect.schema`, cached by name for the whole run.

use crate::scenario::builtin;
use crate::scenario::model::SchemaExpectation;
use jsonschema::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

fn cache() -> &'static Mutex<HashMap<String, Arc<Validator>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Validator>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn compile(schema: &Value) -> Result<Validator, String> {
    // Formats are assertions here: a steward checking `date-time` means it.
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| format!("schema does not compile: {e}"))
}

pub fn validator(expect: &SchemaExpectation) -> Result<Arc<Validator>, String> {
    let key = match (&expect.reference, &expect.inline) {
        (Some(name), _) => format!("ref:{name}"),
        (None, Some(inline)) => format!("inline:{inline}"),
        (None, None) => return Err("schema expectation names no schema".into()),
    };
    if let Some(v) = cache()
        .lock()
        .map_err(|_| "schema cache poisoned")?
        .get(&key)
    {
        return Ok(v.clone());
    }
    let schema: Value = match (&expect.reference, &expect.inline) {
        (Some(name), _) => {
            let text =
                builtin::schema(name).ok_or_else(|| format!("no shipped schema named `{name}`"))?;
            serde_json::from_str(text).map_err(|e| format!("schema {name} is not JSON: {e}"))?
        }
        (None, Some(inline)) => inline.clone(),
        (None, None) => unreachable!("checked above"),
    };
    let compiled = Arc::new(compile(&schema)?);
    cache()
        .lock()
        .map_err(|_| "schema cache poisoned")?
        .insert(key, compiled.clone());
    Ok(compiled)
}
