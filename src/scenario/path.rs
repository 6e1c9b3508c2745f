//! Paths into JSON values, as scenario files write them: dotted (`aiProviders.input.modalities`,
//! `messages.0.content`) or, when keys contain dots, a JSON pointer (`/schemaVersions/error`).

use serde_json::Value;

/// The value at `path`, if any. The empty path is the root.
pub fn lookup<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    if path.is_empty() {
        return Some(root);
    }
    if path.starts_with('/') {
        return root.pointer(path);
    }
    path.split('.').try_fold(root, |node, segment| match node {
        Value::Object(map) => map.get(segment),
        Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// The first segment of a path (`openwop` in `openwop.modalities`, `discovery` in `/discovery/x`).
pub fn root_segment(path: &str) -> &str {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let sep = if path.starts_with('/') { '/' } else { '.' };
    trimmed.split(sep).next().unwrap_or("")
}

/// The second segment, if any.
pub fn second_segment(path: &str) -> Option<&str> {
    let trimmed = path.strip_prefix('/').unwrap_or(path);
    let sep = if path.starts_with('/') { '/' } else { '.' };
    trimmed.split(sep).nth(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dotted_paths_walk_objects_and_arrays() {
        let v = json!({"a": {"b": [10, {"c": true}]}});
        assert_eq!(lookup(&v, "a.b.0"), Some(&json!(10)));
        assert_eq!(lookup(&v, "a.b.1.c"), Some(&json!(true)));
        assert_eq!(lookup(&v, "a.x"), None);
        assert_eq!(lookup(&v, "a.b.9"), None);
        assert_eq!(lookup(&v, ""), Some(&v));
    }

    #[test]
    fn pointers_allow_dotted_keys() {
        let v = json!({"schemaVersions": {"schema.request": 1}});
        assert_eq!(
            lookup(&v, "/schemaVersions/schema.request"),
            Some(&json!(1))
        );
        assert_eq!(root_segment("/schemaVersions/x"), "schemaVersions");
        assert_eq!(root_segment("openwop.modalities"), "openwop");
        assert_eq!(second_segment("openwop.modalities"), Some("modalities"));
    }
}
