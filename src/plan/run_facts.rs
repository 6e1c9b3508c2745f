//! The `run.*` facts every planning context holds, whatever the protocol: what this
//! run was given (a token, media URLs and references, the part spelling).

use crate::config::RunConfig;
use serde_json::{Value, json};

/// Names available under `run.`.
pub const NAMES: [&str; 5] = [
    "tokenConfigured",
    "mediaBaseUrl",
    "mediaRefs",
    "dialect",
    "openwopMajor",
];

pub fn of(config: &RunConfig) -> Value {
    json!({
        "tokenConfigured": config.token.is_some(),
        "mediaBaseUrl": config.media_base_url,
        "mediaRefs": config.media_refs,
        "dialect": config.dialect.as_str(),
        "openwopMajor": config.openwop_major,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Target;

    #[test]
    fn every_named_fact_is_present() {
        let facts = of(&RunConfig::new(Target::Offline));
        for name in NAMES {
            assert!(facts.get(name).is_some(), "{name}");
        }
    }
}
