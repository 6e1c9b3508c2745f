//! `--filter` terms: a case-id glob or substring, `level:MUST`, `source:"RFC 0091 §A"`.
//! Several terms select the union of what each selects.

use crate::outcome::Level;

/// How the user wrote the term, for exclusion reasons.
impl std::fmt::Display for FilterTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FilterTerm::Id { raw, .. } => f.write_str(raw),
            FilterTerm::Level(level) => write!(f, "level:{level}"),
            FilterTerm::Source(source) => write!(f, "source:\"{source}\""),
        }
    }
}

#[derive(Debug, Clone)]
pub enum FilterTerm {
    /// A glob (`openwop.rfc0091.*[image]`) when it holds `*`, `?` or `[`, else a substring.
    Id {
        raw: String,
        glob: Option<glob::Pattern>,
    },
    Level(Level),
    /// Case-insensitive substring of the requirement source.
    Source(String),
}

impl FilterTerm {
    pub fn parse(raw: &str) -> Result<FilterTerm, String> {
        if let Some((key, value)) = raw.split_once(':') {
            let value = value.trim().trim_matches('"');
            return match key.trim() {
                "level" => match value.to_ascii_uppercase().as_str() {
                    "MUST" => Ok(FilterTerm::Level(Level::Must)),
                    "SHOULD" => Ok(FilterTerm::Level(Level::Should)),
                    "MAY" => Ok(FilterTerm::Level(Level::May)),
                    other => Err(format!(
                        "unknown level `{other}` in --filter (use MUST, SHOULD or MAY){}",
                        crate::suggest::hint(other, ["MUST", "SHOULD", "MAY"])
                    )),
                },
                "source" => Ok(FilterTerm::Source(value.to_lowercase())),
                "id" => FilterTerm::id(value),
                other => Err(format!(
                    "unknown --filter key `{other}` (known: id, level, source){}",
                    crate::suggest::hint(other, ["id", "level", "source"])
                )),
            };
        }
        FilterTerm::id(raw)
    }

    fn id(raw: &str) -> Result<FilterTerm, String> {
        let glob = if raw.contains(['*', '?', '[']) {
            // Ids hold literal brackets (`case[image]`): a pattern that is not a valid glob is
            // taken as a substring rather than refused.
            glob::Pattern::new(raw).ok()
        } else {
            None
        };
        Ok(FilterTerm::Id {
            raw: raw.to_string(),
            glob,
        })
    }

    pub fn matches(&self, expanded_id: &str, case_id: &str, level: Level, source: &str) -> bool {
        match self {
            FilterTerm::Id { raw, glob: Some(g) } => {
                g.matches(expanded_id) || g.matches(case_id) || expanded_id.contains(raw.as_str())
            }
            FilterTerm::Id { raw, glob: None } => expanded_id.contains(raw.as_str()),
            FilterTerm::Level(l) => *l == level,
            FilterTerm::Source(s) => source.to_lowercase().contains(s.as_str()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_matches_terms() {
        let glob = FilterTerm::parse("openwop.rfc0091.*").unwrap();
        assert!(glob.matches(
            "openwop.rfc0091.x[image]",
            "openwop.rfc0091.x",
            Level::Must,
            "RFC 0091 §A"
        ));
        assert!(!glob.matches(
            "openwop.discovery.document",
            "openwop.discovery.document",
            Level::Must,
            "x"
        ));
        let sub = FilterTerm::parse("unadvertised").unwrap();
        assert!(sub.matches(
            "a.unadvertised-rejected[audio]",
            "a.unadvertised-rejected",
            Level::Must,
            ""
        ));
        let exact = FilterTerm::parse("case[image]").unwrap();
        assert!(exact.matches("case[image]", "case", Level::Must, ""));
        assert!(!exact.matches("case[audio]", "case", Level::Must, ""));
        assert!(
            FilterTerm::parse("level:should")
                .unwrap()
                .matches("x", "x", Level::Should, "")
        );
        assert!(
            FilterTerm::parse("source:\"RFC 0091 §A\"")
                .unwrap()
                .matches("x", "x", Level::Must, "RFC 0091 §A")
        );
        assert_eq!(
            FilterTerm::parse("level:should").unwrap().to_string(),
            "level:SHOULD"
        );
        assert_eq!(glob.to_string(), "openwop.rfc0091.*");
        assert!(
            FilterTerm::parse("colour:red")
                .unwrap_err()
                .contains("unknown --filter key")
        );
    }
}
