//! Promotion criteria: declarative statements of the evidence an RFC needs before it
//! moves from Active to Accepted (`schemas/criteria.schema.json`).
//!
//! A criterion counts either **hosts** or **reports**:
//! - `hosts`: at least N hosts (outside `exclude_origins`) each of which has reports
//!   satisfying `where` (predicates over the report: `run.*`, `discovery.*`,
//!   `summary.*`, the same predicate language as scenario files) and, over those
//!   reports, `passes` every case group listed;
//! - `reports`: at least N reports (of hosts outside `exclude_origins`) satisfying
//!   `where` ("at least one run used the witness": `{path: run.witness, exists: true}`);
//!   a fact no report carries is simply never met, and the verdict names it.
//!
//! A case group with `reached: true` counts only the passes a witnessed run saw reach
//! the host's model (`Cell::reached_model`).

pub mod builtin;
pub mod load;

use crate::scenario::model::Predicate;
use serde::Deserialize;

/// A criteria file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriteriaFile {
    /// The format's version: required, so a file without it is no criteria file.
    #[expect(
        dead_code,
        reason = "required by the format; one version so far, none to tell apart"
    )]
    pub mmconform_criteria: u32,
    /// What the criteria promote, e.g. `RFC 0091 Active → Accepted`.
    pub title: String,
    /// Origins whose hosts never count: the steward's own, the embedded reference host.
    #[serde(default)]
    pub exclude_origins: Vec<String>,
    /// Said once above the verdict (what the criteria leave out, and why).
    #[serde(default)]
    pub notes: Vec<String>,
    pub criteria: Vec<Criterion>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Criterion {
    /// Stable id, e.g. `gated-scenario`.
    pub id: String,
    /// What must hold, in one sentence.
    pub text: String,
    /// The RFC sentence(s) this criterion encodes, quoted.
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub hosts: Option<HostsRule>,
    #[serde(default)]
    pub reports: Option<ReportsRule>,
}

/// What is counted toward `at_least` hosts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CountBy {
    /// Hosts: origin and advertisement digest (the default).
    #[default]
    Hosts,
    /// Distinct origins: several shapes of one deployment count once.
    Origins,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostsRule {
    pub at_least: usize,
    #[serde(default)]
    pub count: CountBy,
    /// Which of a host's reports are evidence for this criterion.
    #[serde(default, rename = "where")]
    pub where_: Vec<Predicate>,
    /// Case groups each counted host must pass, over those reports.
    #[serde(default)]
    pub passes: Vec<PassRule>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportsRule {
    pub at_least: usize,
    #[serde(rename = "where")]
    pub where_: Vec<Predicate>,
}

/// A group of cases a host must pass: every selected case the host ran passed (skips
/// allowed, never counted), and at least `at_least` passed non-vacuously.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PassRule {
    /// Case ids: an expanded id (`x[image]`), a case id (every expansion), or a pattern
    /// where `*` stands for any text (brackets are literal).
    #[serde(default)]
    pub cases: Vec<String>,
    /// The requirement source, exactly (`RFC 0091 §A`).
    #[serde(default)]
    pub source: Option<String>,
    /// MUST, SHOULD or MAY.
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default = "one")]
    pub at_least: usize,
    /// Count only the passes of witnessed runs whose parts the witness saw reach the
    /// host's model (`model_calls`, every `witness.*` assertion held).
    #[serde(default)]
    pub reached: bool,
}

fn one() -> usize {
    1
}

impl PassRule {
    /// Whether a case is in this group.
    pub fn selects(&self, id: &str, case_id: &str, source: &str, level: &str) -> bool {
        let by_id = self.cases.is_empty()
            || self
                .cases
                .iter()
                .any(|p| wildcard(p, id) || wildcard(p, case_id));
        by_id
            && self.source.as_deref().is_none_or(|s| s == source)
            && self.level.as_deref().is_none_or(|l| l == level)
    }

    /// `cases [a, b], source "RFC 0091 §A", level MUST`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.cases.is_empty() {
            parts.push(format!("cases [{}]", self.cases.join(", ")));
        }
        if let Some(s) = &self.source {
            parts.push(format!("source \"{s}\""));
        }
        if let Some(l) = &self.level {
            parts.push(format!("level {l}"));
        }
        if self.reached {
            parts.push("reached the model (witnessed)".into());
        }
        parts.join(", ")
    }
}

/// `*` matches any run of characters; everything else is literal.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_take_brackets_literally() {
        assert!(wildcard("a.b[image]", "a.b[image]"));
        assert!(!wildcard("a.b[image]", "a.b[i]"));
        assert!(wildcard("a.*", "a.b[audio]"));
        assert!(wildcard("a.*[image]", "a.b[image]"));
        assert!(!wildcard("a.*[image]", "a.b[audio]"));
        assert!(wildcard("*", ""));
        assert!(wildcard("a*b*c", "abc") && wildcard("a*b*c", "a-b-c"));
        assert!(!wildcard("a*bc", "abc-"));
        assert!(!wildcard("ab*b", "ab"));
    }

    #[test]
    fn a_group_selects_by_id_source_and_level_together() {
        let rule = PassRule {
            cases: vec!["openwop.rfc0091.unadvertised-rejected".into()],
            source: Some("RFC 0091 §A".into()),
            level: Some("MUST".into()),
            at_least: 1,
            reached: false,
        };
        let id = "openwop.rfc0091.unadvertised-rejected[audio]";
        assert!(rule.selects(
            id,
            "openwop.rfc0091.unadvertised-rejected",
            "RFC 0091 §A",
            "MUST"
        ));
        assert!(!rule.selects(
            id,
            "openwop.rfc0091.unadvertised-rejected",
            "RFC 0091 §B",
            "MUST"
        ));
        assert!(!rule.selects("x", "x", "RFC 0091 §A", "MUST"));
        assert_eq!(
            rule.describe(),
            "cases [openwop.rfc0091.unadvertised-rejected], source \"RFC 0091 §A\", level MUST"
        );
    }
}
