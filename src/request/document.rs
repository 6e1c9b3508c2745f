//! Building JSON documents for cases: a fixture (or inline value) plus single-change
//! patches. A patch that does not apply is a scenario defect, never silently ignored:
//! a negative fixture identical to the valid one would make its case unable to fail.

use crate::scenario::builtin;
use crate::scenario::model::DocumentSpec;
use crate::scenario::template;
use serde_json::Value;

type Resolve<'a> = &'a dyn Fn(&str) -> Option<Value>;

fn render_strings(value: &Value, resolve: Resolve) -> Result<Value, String> {
    match value {
        Value::String(s) => template::render(s, resolve),
        Value::Array(items) => items
            .iter()
            .map(|v| render_strings(v, resolve))
            .collect::<Result<_, _>>()
            .map(Value::Array),
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                out.insert(k.clone(), render_strings(v, resolve)?);
            }
            Ok(Value::Object(out))
        }
        other => Ok(other.clone()),
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Splits `/a/b/c` into the parent pointer `/a/b` and the last token `c`.
fn split(pointer: &str) -> Result<(&str, String), String> {
    let i = pointer
        .rfind('/')
        .ok_or_else(|| format!("`{pointer}` is not a JSON pointer"))?;
    Ok((&pointer[..i], unescape(&pointer[i + 1..])))
}

pub fn set(doc: &mut Value, pointer: &str, value: Value) -> Result<(), String> {
    if pointer.is_empty() {
        *doc = value;
        return Ok(());
    }
    let (parent, last) = split(pointer)?;
    match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(last, value);
            Ok(())
        }
        Some(Value::Array(items)) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items[i] = value;
                Ok(())
            }
            _ if last == "-" => {
                items.push(value);
                Ok(())
            }
            _ => Err(format!("set {pointer}: no array index `{last}`")),
        },
        _ => Err(format!(
            "set {pointer}: `{parent}` is not an object or array in the document"
        )),
    }
}

pub fn remove(doc: &mut Value, pointer: &str) -> Result<(), String> {
    let (parent, last) = split(pointer)?;
    let removed = match doc.pointer_mut(parent) {
        Some(Value::Object(map)) => map.remove(&last).is_some(),
        Some(Value::Array(items)) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items.remove(i);
                true
            }
            _ => false,
        },
        _ => false,
    };
    if removed {
        Ok(())
    } else {
        Err(format!("remove {pointer}: nothing there to remove"))
    }
}

/// The document a spec describes, with placeholders rendered and patches applied.
pub fn build(spec: &DocumentSpec, resolve: Resolve) -> Result<Value, String> {
    let mut doc = match (&spec.fixture, &spec.inline) {
        (Some(path), _) => {
            let path = template::render_text(path, resolve)?;
            let text =
                builtin::fixture(&path).ok_or_else(|| format!("no fixture `fixtures/{path}`"))?;
            let parsed: Value = serde_json::from_str(text)
                .map_err(|e| format!("fixtures/{path} is not JSON: {e}"))?;
            render_strings(&parsed, resolve)?
        }
        (None, Some(inline)) => render_strings(inline, resolve)?,
        (None, None) => return Err("a document needs `fixture` or `inline`".into()),
    };
    for (pointer, value) in &spec.set {
        let pointer = template::render_text(pointer, resolve)?;
        set(&mut doc, &pointer, render_strings(value, resolve)?)?;
    }
    for pointer in &spec.remove {
        remove(&mut doc, &template::render_text(pointer, resolve)?)?;
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patches_apply_or_fail_loudly() {
        let mut doc = json!({"a": {"b": 1}, "l": [1, 2]});
        set(&mut doc, "/a/c", json!(2)).unwrap();
        set(&mut doc, "/l/-", json!(3)).unwrap();
        remove(&mut doc, "/a/b").unwrap();
        assert_eq!(doc, json!({"a": {"c": 2}, "l": [1, 2, 3]}));
        assert!(
            remove(&mut doc, "/a/zzz")
                .unwrap_err()
                .contains("nothing there")
        );
        assert!(set(&mut doc, "/missing/x", json!(1)).is_err());
    }

    #[test]
    fn builds_from_inline_with_templates() {
        let spec: DocumentSpec = serde_json::from_value(json!({
            "inline": {"id": "e-{uid}", "meta": {"ts": "x"}},
            "set": {"/meta/ts": "tomorrow"},
            "remove": ["/id"]
        }))
        .unwrap();
        let resolve = |n: &str| (n == "uid").then(|| json!("u1"));
        assert_eq!(
            build(&spec, &resolve).unwrap(),
            json!({"meta": {"ts": "tomorrow"}})
        );
    }
}
