//! The criteria shipped with mmconform (`criteria/*.yaml`), one per RFC whose promotion
//! evidence its text states.

use super::load::{LoadedCriteria, parse};
use crate::scenario::diagnostic::Diagnostic;

/// `(name, text)` of every built-in criteria file.
pub const BUILTIN: &[(&str, &str)] = &[
    ("rfc0091", include_str!("../../../criteria/rfc0091.yaml")),
    ("rfc0021", include_str!("../../../criteria/rfc0021.yaml")),
];

/// The name a built-in file is shown under (`builtin:rfc0091`).
pub fn display_name(name: &str) -> String {
    format!("builtin:{name}")
}

/// The text of a built-in file, by `rfc0091` or `builtin:rfc0091`.
pub fn text(name: &str) -> Option<&'static str> {
    let bare = name.strip_prefix("builtin:").unwrap_or(name);
    BUILTIN.iter().find(|(n, _)| *n == bare).map(|(_, t)| *t)
}

/// Loads a built-in file; `None` when no built-in has that name.
pub fn load(name: &str) -> Option<Result<LoadedCriteria, Vec<Diagnostic>>> {
    let bare = name.strip_prefix("builtin:").unwrap_or(name);
    text(bare).map(|t| parse(&display_name(bare), t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::suite::builtin_sources;

    /// Every case id a built-in scenario file defines.
    fn builtin_case_ids() -> Vec<String> {
        builtin_sources()
            .iter()
            .flat_map(|s| {
                s.text
                    .lines()
                    .filter_map(|l| l.trim().strip_prefix("- id: "))
                    .map(|id| id.trim().to_string())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn every_builtin_loads_and_names_only_cases_that_exist() {
        let ids = builtin_case_ids();
        assert!(ids.len() > 50, "{}", ids.len());
        for (name, _) in BUILTIN {
            let loaded = load(name).unwrap().unwrap_or_else(|d| {
                panic!(
                    "{name}: {}",
                    d.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                )
            });
            assert!(
                loaded
                    .file
                    .exclude_origins
                    .contains(&"reference".to_string())
            );
            for criterion in &loaded.file.criteria {
                assert!(
                    criterion.from.is_some(),
                    "{name}/{}: quotes its RFC",
                    criterion.id
                );
                let rules = criterion.hosts.iter().flat_map(|h| &h.passes);
                for pattern in rules.flat_map(|r| &r.cases) {
                    // A case id (every expansion), one expansion, or a family.
                    let known = match pattern.split_once('[') {
                        Some((base, _)) => ids.iter().any(|id| id == base),
                        None => ids.iter().any(|id| super::super::wildcard(pattern, id)),
                    };
                    assert!(
                        known,
                        "{name}/{}: `{pattern}` matches no built-in case",
                        criterion.id
                    );
                }
            }
        }
        assert!(load("builtin:rfc0091").is_some());
        assert!(load("rfc9999").is_none());
    }
}
