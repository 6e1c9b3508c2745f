//! The exact decoded size a `$media` spec asks for, shared by every protocol's parts.

use crate::scenario::model::MediaSpec;

/// The exact decoded size a `$media` spec asks for (`size` + `size_plus`), `None` when
/// it asks for none; `size` may be a placeholder. Shared by every profile's parts.
pub fn media_size(
    spec: &MediaSpec,
    resolve: &dyn Fn(&str) -> Option<serde_json::Value>,
) -> Result<Option<usize>, String> {
    let Some(size) = &spec.size else {
        return Ok(None);
    };
    let value = match size {
        serde_json::Value::String(t) => crate::scenario::template::render(t, resolve)?,
        other => other.clone(),
    };
    let base = value
        .as_i64()
        .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| format!("$media.size is not an integer: {value}"))?;
    let total = base + spec.size_plus.unwrap_or(0);
    usize::try_from(total)
        .map(Some)
        .map_err(|_| format!("$media.size works out negative ({total})"))
}
