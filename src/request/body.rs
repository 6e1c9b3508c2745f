//! Rendering a case's request body template, for every protocol: placeholders in
//! strings, `$media` objects into content parts (each protocol spells them its own
//! way), `$fixture` objects into (patched) fixture documents.

use super::document;
use crate::scenario::model::{DocumentSpec, MediaSpec};
use crate::scenario::template;
use serde_json::{Map, Value};

/// Turns a `$media` spec into a content part in the profile's spelling.
pub type RenderMedia<'a> = &'a dyn Fn(&MediaSpec) -> Result<Value, String>;

/// Renders a body template: placeholders in strings, `$media` objects into parts (by
/// the profile's `media`), `$fixture` objects into (patched) fixture documents.
pub fn render_body(
    template_value: &Value,
    resolve: &dyn Fn(&str) -> Option<Value>,
    media: RenderMedia,
) -> Result<Value, String> {
    match template_value {
        Value::String(s) => template::render(s, resolve),
        Value::Array(items) => items
            .iter()
            .map(|i| render_body(i, resolve, media))
            .collect::<Result<_, _>>()
            .map(Value::Array),
        Value::Object(map) => {
            if let Some(spec) = map.get("$media") {
                let spec: MediaSpec =
                    serde_json::from_value(spec.clone()).map_err(|e| format!("bad $media: {e}"))?;
                return media(&spec);
            }
            if let Some(fixture) = map.get("$fixture") {
                let spec: DocumentSpec = serde_json::from_value(fixture.clone())
                    .map_err(|e| format!("bad $fixture: {e}"))?;
                return document::build(&spec, resolve);
            }
            let mut out = Map::new();
            for (k, v) in map {
                out.insert(k.clone(), render_body(v, resolve, media)?);
            }
            Ok(Value::Object(out))
        }
        other => Ok(other.clone()),
    }
}
