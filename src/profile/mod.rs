//! Profiles know a protocol: where discovery lives (or, for AG-UI, what the user
//! declares instead), what facts it yields, how a `$media` placeholder becomes a
//! content part, how an error code or an event stream is read.

pub mod agui;
pub mod openwop;

/// The exact decoded size a `$media` spec asks for (`size` + `size_plus`), `None` when
/// it asks for none; `size` may be a placeholder. Shared by every profile's parts.
pub fn media_size(
    spec: &crate::scenario::model::MediaSpec,
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

/// The placeholder/predicate vocabulary scenario files may use, for `lint`.
pub fn context_vocabulary() -> Vec<(String, Option<Vec<String>>)> {
    vec![
        ("discovery".to_string(), None),
        (
            "openwop".to_string(),
            Some(
                openwop::facts::FACT_NAMES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        ),
        (
            "agui".to_string(),
            Some(
                agui::declaration::FACT_NAMES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        ),
        (
            "run".to_string(),
            Some(
                openwop::facts::RUN_FACT_NAMES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        ),
    ]
}
