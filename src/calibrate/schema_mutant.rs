//! Schema mutants: one shipped schema changed in one way, handed to the run as
//! `--schemas DIR` would hand an openwop checkout's files.
//!
//! Offline cases judge schema files, not a host, so no host fault can make them fail;
//! a schema that lost a keyword is their broken "host". Schemas that offline cases
//! judge get every mutant (each constraint they hold must be checked by some case).
//! Schemas that only judge host answers (`expect.schema`) get the over-strict mutant
//! alone: against the faithful host it shows the schema assertion can fail, while a
//! loosened judge could only be noticed together with a broken host.

use crate::plan::resolver;
use crate::scenario::suite::Suite;
use crate::scenario::{builtin, template};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::Path;

/// Keywords a mutant removes everywhere in one schema (one keyword per mutant).
const DROPPABLE: &[&str] = &[
    "required",
    "additionalProperties",
    "format",
    "enum",
    "const",
    "type",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "pattern",
];

/// The tool's own document schemas: they judge mmconform's files, not a host's
/// (`agui-echo` documents the echo event for third parties; the echo check is typed).
const TOOL_SCHEMAS: &[&str] = &[
    "agui-echo",
    "baseline",
    "criteria",
    "evidence",
    "report",
    "scenario",
];

/// A property no real document carries, required by the over-strict mutant.
const PROBE_PROPERTY: &str = "mmconformCalibrationProbe";

/// Keywords whose value is a map of subschemas.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is a subschema or a list of them.
const SCHEMA_SLOTS: &[&str] = &[
    "items",
    "prefixItems",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutation {
    /// The file is not a schema that compiles.
    Uncompilable,
    /// The root requires a property no document has, so valid documents fail.
    OverStrict,
    /// One keyword removed from every subschema.
    Without(&'static str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaMutant {
    /// Schema name as scenarios use it, e.g. `ai-envelope` or `envelopes/error`.
    pub schema: String,
    pub mutation: Mutation,
    /// The mutated file's text.
    text: String,
}

impl SchemaMutant {
    pub fn name(&self) -> String {
        let what = match &self.mutation {
            Mutation::Uncompilable => "uncompilable".to_string(),
            Mutation::OverStrict => "over-strict".to_string(),
            Mutation::Without(k) => format!("without-{k}"),
        };
        format!("schema:{}:{what}", self.schema)
    }

    pub fn description(&self) -> String {
        match &self.mutation {
            Mutation::Uncompilable => format!("{} is not a compilable schema.", self.schema),
            Mutation::OverStrict => format!(
                "{} requires a property `{PROBE_PROPERTY}` at its root that no document has.",
                self.schema
            ),
            Mutation::Without(k) => {
                format!("{} lost every `{k}` keyword.", self.schema)
            }
        }
    }

    /// Writes the mutated file where `SchemaCatalog` looks for `--schemas DIR` files.
    pub fn write_into(&self, dir: &Path) -> std::io::Result<()> {
        let path = dir.join(format!("{}.schema.json", self.schema));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, &self.text)
    }
}

/// Removes `keyword` from `schema` and every subschema below it; true if any was removed.
fn drop_keyword(schema: &mut Value, keyword: &str) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    let mut removed = map.remove(keyword).is_some();
    for slot in SCHEMA_SLOTS {
        match map.get_mut(*slot) {
            Some(Value::Array(items)) => {
                for item in items {
                    removed |= drop_keyword(item, keyword);
                }
            }
            Some(sub @ Value::Object(_)) => removed |= drop_keyword(sub, keyword),
            _ => {}
        }
    }
    for key in SCHEMA_MAPS {
        if let Some(Value::Object(subs)) = map.get_mut(*key) {
            for sub in subs.values_mut() {
                removed |= drop_keyword(sub, keyword);
            }
        }
    }
    removed
}

fn over_strict(schema: &Value) -> Option<Value> {
    let mut root: Map<String, Value> = schema.as_object()?.clone();
    let mut required = root
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    required.push(json!(PROBE_PROPERTY));
    root.insert("required".into(), Value::Array(required));
    Some(Value::Object(root))
}

fn mutants_of(name: &str, schema: &Value, judged: bool) -> Vec<SchemaMutant> {
    let make = |mutation, value: &Value| SchemaMutant {
        schema: name.to_string(),
        mutation,
        text: value.to_string(),
    };
    let mut out = Vec::new();
    if judged {
        out.push(make(Mutation::Uncompilable, &json!({"type": 12})));
    }
    if let Some(strict) = over_strict(schema) {
        out.push(make(Mutation::OverStrict, &strict));
    }
    if !judged {
        return out;
    }
    for keyword in DROPPABLE {
        let mut mutated = schema.clone();
        if drop_keyword(&mut mutated, keyword) {
            out.push(make(Mutation::Without(keyword), &mutated));
        }
    }
    out
}

/// The mutants of every shipped schema except the tool's own, in a stable order;
/// `judged` names the schemas offline cases validate documents against.
pub fn catalogue(judged: &BTreeSet<String>) -> Vec<SchemaMutant> {
    let mut names: Vec<&str> = builtin::schema_names()
        .into_iter()
        .filter(|n| !TOOL_SCHEMAS.contains(n))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let text = builtin::schema(name)?;
            let schema: Value = serde_json::from_str(text).ok()?;
            Some(mutants_of(name, &schema, judged.contains(name)))
        })
        .flatten()
        .collect()
}

/// The schema names the suite's offline cases validate against, per expansion.
pub fn judged_schemas(suite: &Suite) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for case in &suite.cases {
        let Some(validate) = &case.spec.validate else {
            continue;
        };
        for bindings in case.spec.binding_rows() {
            let resolve = resolver(&bindings, &Value::Null, "calibration", &case.spec.id, 0);
            if let Ok(name) = template::render_text(&validate.schema, &resolve) {
                names.insert(name);
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_a_keyword_reaches_nested_schemas_but_not_property_names() {
        let mut schema = json!({
            "type": "object",
            "required": ["format"],
            "properties": {
                "format": {"type": "string", "format": "date-time"},
                "list": {"type": "array", "items": {"format": "uri"}}
            },
            "$defs": {"x": {"anyOf": [{"format": "email"}]}}
        });
        assert!(drop_keyword(&mut schema, "format"));
        assert!(
            schema["properties"]["format"].is_object(),
            "a property named format stays"
        );
        assert!(schema["properties"]["format"].get("format").is_none());
        assert!(
            schema["properties"]["list"]["items"]
                .get("format")
                .is_none()
        );
        assert!(schema["$defs"]["x"]["anyOf"][0].get("format").is_none());
        assert_eq!(schema["required"], json!(["format"]));
        assert!(!drop_keyword(&mut schema, "pattern"));
    }

    fn judged() -> BTreeSet<String> {
        ["ai-envelope", "envelopes/error"]
            .into_iter()
            .map(String::from)
            .collect()
    }

    #[test]
    fn catalogue_mutates_judged_schemas_fully_and_judges_only_strictly() {
        let all = catalogue(&judged());
        let names: std::collections::BTreeSet<String> = all.iter().map(|m| m.name()).collect();
        assert_eq!(names.len(), all.len());
        assert!(names.contains("schema:ai-envelope:without-format"));
        assert!(names.contains("schema:ai-envelope:over-strict"));
        assert!(names.contains("schema:envelopes/error:uncompilable"));
        assert!(!names.iter().any(|n| n.starts_with("schema:report:")));
        let judge_only: Vec<&String> = names
            .iter()
            .filter(|n| n.starts_with("schema:error-envelope:"))
            .collect();
        assert_eq!(judge_only, vec!["schema:error-envelope:over-strict"]);
        let strict = all
            .iter()
            .find(|m| m.name() == "schema:ai-envelope:over-strict")
            .unwrap();
        let value: Value = serde_json::from_str(&strict.text).unwrap();
        assert!(
            value["required"]
                .as_array()
                .unwrap()
                .contains(&json!(PROBE_PROPERTY))
        );
    }

    #[test]
    fn a_mutant_lands_where_the_catalog_looks() {
        let dir = tempfile::tempdir().unwrap();
        let mutant = catalogue(&judged())
            .into_iter()
            .find(|m| m.schema == "envelopes/error")
            .unwrap();
        mutant.write_into(dir.path()).unwrap();
        assert!(dir.path().join("envelopes/error.schema.json").is_file());
    }

    #[test]
    fn judged_schemas_come_from_expanded_validate_cases() {
        let suite = crate::scenario::suite::load_suite(&crate::scenario::suite::SuiteOptions {
            include_builtin: true,
            paths: Vec::new(),
            checks: crate::registry::check_options(false),
        })
        .unwrap();
        let names = judged_schemas(&suite);
        assert!(names.contains("ai-envelope"));
        assert!(names.contains("envelopes/schema.request"));
        assert!(!names.contains("error-envelope"));
        assert!(!names.iter().any(|n| n.contains('{')));
    }
}
