//! Profiles know a protocol: where discovery lives (or, for AG-UI, what the user
//! declares instead), what facts it yields, how a `$media` placeholder becomes a
//! content part, how an error code or an event stream is read.

pub mod agui;
pub mod openwop;

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
