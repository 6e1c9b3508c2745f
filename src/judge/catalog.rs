//! The schemas cases validate against: shipped ones, or those of an openwop checkout
//! given with `--schemas DIR` (same file names), compiled once per run.

use crate::scenario::builtin;
use jsonschema::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// A compiled schema and where it came from (`builtin` or a file path).
#[derive(Clone)]
pub struct LoadedSchema {
    pub validator: Arc<Validator>,
    pub origin: String,
}

#[derive(Default)]
pub struct SchemaCatalog {
    dir: Option<PathBuf>,
    cache: Mutex<HashMap<String, Result<LoadedSchema, String>>>,
}

fn compile(schema: &Value) -> Result<Validator, String> {
    // Formats are assertions here: `meta.ts` must really be a date-time.
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| format!("schema does not compile: {e}"))
}

/// Compiles a schema's text; `origin` names it in errors.
fn load(text: &str, origin: String) -> Result<LoadedSchema, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("{origin} is not JSON: {e}"))?;
    let validator = compile(&value).map_err(|e| format!("{origin}: {e}"))?;
    Ok(LoadedSchema {
        validator: Arc::new(validator),
        origin,
    })
}

/// A shipped schema, compiled the first time any run of the process needs it: the
/// text is part of the binary, so every run would compile the same validator.
fn shipped(name: &str) -> Result<LoadedSchema, String> {
    static COMPILED: OnceLock<Mutex<HashMap<String, Result<LoadedSchema, String>>>> =
        OnceLock::new();
    let mut compiled = COMPILED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(hit) = compiled.get(name) {
        return hit.clone();
    }
    let loaded = builtin::schema(name)
        .ok_or_else(|| format!("no schema named `{name}`"))
        .and_then(|text| load(text, format!("builtin:{name}")));
    compiled.insert(name.to_string(), loaded.clone());
    loaded
}

impl SchemaCatalog {
    pub fn new(dir: Option<PathBuf>) -> SchemaCatalog {
        SchemaCatalog {
            dir,
            cache: Mutex::default(),
        }
    }

    /// The text of a named schema: `DIR/<name>.schema.json` when `--schemas` has it,
    /// else the shipped copy.
    fn source(&self, name: &str) -> Result<(String, String), String> {
        if let Some(dir) = &self.dir {
            let path = dir.join(format!("{name}.schema.json"));
            if path.is_file() {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                return Ok((text, path.display().to_string()));
            }
        }
        builtin::schema(name)
            .map(|t| (t.to_string(), format!("builtin:{name}")))
            .ok_or_else(|| format!("no schema named `{name}`"))
    }

    /// True when `--schemas DIR` supplies this schema (so a defect in it is the
    /// user's file, not the tool's).
    pub fn overridden(&self, name: &str) -> bool {
        self.dir
            .as_ref()
            .is_some_and(|dir| dir.join(format!("{name}.schema.json")).is_file())
    }

    /// A named schema, compiled (cached, including failures, so each is tried once).
    /// A shipped schema is compiled once per process, whichever run asks first.
    pub fn named(&self, name: &str) -> Result<LoadedSchema, String> {
        let mut cache = self
            .cache
            .lock()
            .map_err(|_| "schema cache poisoned".to_string())?;
        if let Some(hit) = cache.get(name) {
            return hit.clone();
        }
        let loaded = if self.overridden(name) {
            self.source(name)
                .and_then(|(text, origin)| load(&text, origin))
        } else {
            shipped(name)
        };
        cache.insert(name.to_string(), loaded.clone());
        loaded
    }

    pub fn inline(&self, schema: &Value) -> Result<LoadedSchema, String> {
        Ok(LoadedSchema {
            validator: Arc::new(compile(schema)?),
            origin: "inline".to_string(),
        })
    }
}
