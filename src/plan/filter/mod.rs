//! `--filter`: an expression over cases in the spirit of cargo-nextest's filtersets.
//!
//! Terms: `id(...)`, `level(MUST)`, `source(...)`, `profile(...)`, `outcome(...)`
//! (against a saved report: `--rerun-failed`, `--from-report`); `and` / `&`, `or` /
//! `|`, `not` / `!`, parentheses. A string argument takes a matcher prefix: `=` exact,
//! `~` substring, `#` glob (`*` any run of characters, `?` one; brackets are literal,
//! as case ids hold them). Today's forms are terms too: a bare word is `id(word)`,
//! `level:MUST`, `source:"RFC 0091 §A"` and `id:word` are `level(..)`, `source(..)`
//! and `id(..)`.
//!
//! `id(word)` (and a bare word) without a prefix: exact when `word` is the id of a case
//! (so `openwop.rfc0021.accept.payload-invalid` does not also select the
//! `payload-invalid-twin[...]` cases), a glob when it holds `*` or `?`, else a
//! substring. An exact id names an expanded case (`case[image]`) or every expansion of
//! a case (`case`). `source(..)` defaults to a case-insensitive substring.
//!
//! Several `--filter` flags select what all of them select (see docs/decisions.md).

mod closest;
mod parse;

pub use closest::closest_ids;

use crate::outcome::{Level, Outcome};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// One `--filter` expression, as the user wrote it and as parsed.
#[derive(Debug, Clone)]
pub struct Filter {
    text: String,
    expr: Expr,
    /// The outcomes of a saved report, by case id, for `outcome(..)`.
    outcomes: Option<Arc<HashMap<String, Outcome>>>,
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Id(Matcher),
    Level(Level),
    Source(Matcher),
    Profile(Matcher),
    Outcome(Outcome),
}

/// How a string term matches a field.
#[derive(Debug, Clone, PartialEq)]
enum Matcher {
    Exact(String),
    Contains(String),
    Glob(String),
    /// No prefix, on an id: exact when it is a known id, else glob or substring.
    Auto(String),
}

/// What a filter looks at in one expanded case.
pub struct Subject<'a> {
    /// The expanded id (`case[image]`).
    pub id: &'a str,
    /// The id before expansion.
    pub case_id: &'a str,
    pub level: Level,
    pub source: &'a str,
    /// The `profile:` of the case's file, when known.
    pub profile: Option<&'a str>,
}

impl std::fmt::Display for Filter {
    /// As the user wrote it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl Filter {
    /// Parses one expression; the error names the column and shows it.
    pub fn parse(text: &str) -> Result<Filter, String> {
        let expr = match parse::parse(text) {
            Ok(expr) => expr,
            // Today's `source:RFC 0091 §A`, unquoted: the whole text was the value.
            Err(e) => parse::whole_text_term(text).ok_or_else(|| e.render("--filter", text))?,
        };
        Ok(Filter {
            text: text.to_string(),
            expr,
            outcomes: None,
        })
    }

    /// Whether the expression asks for `outcome(..)`, which needs a saved report.
    pub fn uses_outcome(&self) -> bool {
        self.expr.any(&|e| matches!(e, Expr::Outcome(_)))
    }

    /// The same filter judging `outcome(..)` on a saved report's outcomes.
    pub fn with_outcomes(mut self, outcomes: Arc<HashMap<String, Outcome>>) -> Filter {
        self.outcomes = Some(outcomes);
        self
    }

    /// Whether the case matches. `known`: every id of the suite (expanded and before
    /// expansion), which makes a bare id exact; without it, a bare word is a glob or
    /// substring as before (and still matches its own id exactly).
    pub fn matches(&self, subject: &Subject, known: Option<&HashSet<String>>) -> bool {
        self.expr.eval(subject, known, self.outcomes.as_deref())
    }

    /// The words of the id terms, for suggesting ids close to them.
    pub fn id_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        self.expr.collect_ids(&mut words);
        words
    }
}

impl Expr {
    fn any(&self, p: &dyn Fn(&Expr) -> bool) -> bool {
        p(self)
            || match self {
                Expr::And(a, b) | Expr::Or(a, b) => a.any(p) || b.any(p),
                Expr::Not(a) => a.any(p),
                _ => false,
            }
    }

    fn collect_ids(&self, into: &mut Vec<String>) {
        match self {
            Expr::And(a, b) | Expr::Or(a, b) => {
                a.collect_ids(into);
                b.collect_ids(into);
            }
            Expr::Not(a) => a.collect_ids(into),
            Expr::Id(m) => into.push(m.word().to_string()),
            _ => {}
        }
    }

    fn eval(
        &self,
        s: &Subject,
        known: Option<&HashSet<String>>,
        outcomes: Option<&HashMap<String, Outcome>>,
    ) -> bool {
        match self {
            Expr::And(a, b) => a.eval(s, known, outcomes) && b.eval(s, known, outcomes),
            Expr::Or(a, b) => a.eval(s, known, outcomes) || b.eval(s, known, outcomes),
            Expr::Not(a) => !a.eval(s, known, outcomes),
            Expr::Id(m) => m.matches_id(s.id, s.case_id, known),
            Expr::Level(level) => *level == s.level,
            Expr::Source(m) => m.matches_text(s.source),
            Expr::Profile(m) => s.profile.is_some_and(|p| m.matches_text(p)),
            Expr::Outcome(wanted) => outcomes
                .and_then(|o| o.get(s.id))
                .is_some_and(|o| o == wanted),
        }
    }
}

impl Matcher {
    fn word(&self) -> &str {
        match self {
            Matcher::Exact(w) | Matcher::Contains(w) | Matcher::Glob(w) | Matcher::Auto(w) => w,
        }
    }

    fn matches_id(&self, id: &str, case_id: &str, known: Option<&HashSet<String>>) -> bool {
        match self {
            Matcher::Exact(w) => id == w || case_id == w,
            Matcher::Contains(w) => id.contains(w.as_str()),
            Matcher::Glob(w) => glob(w, id) || glob(w, case_id),
            Matcher::Auto(w) => {
                if id == w || case_id == w {
                    true
                } else if known.is_some_and(|k| k.contains(w)) {
                    false
                } else if w.contains(['*', '?']) {
                    glob(w, id) || glob(w, case_id)
                } else {
                    id.contains(w.as_str())
                }
            }
        }
    }

    /// Requirement sources and profiles: case-insensitive.
    fn matches_text(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        match self {
            Matcher::Exact(w) => text == w.to_lowercase(),
            Matcher::Glob(w) => glob(&w.to_lowercase(), &text),
            Matcher::Contains(w) | Matcher::Auto(w) => text.contains(&w.to_lowercase()),
        }
    }
}

/// `*` any run of characters, `?` any one; every other character is itself.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // The classic two-pointer match with backtracking to the last `*`.
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

/// Refuses `outcome(..)` where no saved report can be given (`list`, `calibrate`).
pub fn without_outcome(filters: &[Filter], command: &str) -> Result<(), String> {
    match filters.iter().find(|f| f.uses_outcome()) {
        Some(f) => Err(format!(
            "--filter `{f}`: outcome(..) is judged on a saved report, which `{command}` does not read (`run --from-report REPORT` does)"
        )),
        None => Ok(()),
    }
}

/// Whether `filters` (all of them) select the case.
pub fn selects(filters: &[Filter], subject: &Subject, known: Option<&HashSet<String>>) -> bool {
    filters.iter().all(|f| f.matches(subject, known))
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
