//! Planning: expanding cases, applying `--filter` (every one of them), and deciding from the discovery
//! context which cases run and which are skipped (with the fact that decided it).

pub mod contexts;
pub mod filter;
pub mod predicate;
pub mod result;
pub mod settle;
pub mod skip_cause;

use crate::scenario::suite::{Suite, SuiteCase};
use crate::scenario::{path, template};
use filter::Filter;
use serde_json::Value;
pub use skip_cause::SkipCause;

#[derive(Debug, Clone, PartialEq)]
pub enum Disposition {
    Run,
    Skip(String),
    Excluded(String),
    /// A scenario defect found while planning (a template that cannot render).
    Error(String),
}

#[derive(Debug, Clone)]
pub struct PlannedCase {
    /// Position in plan order.
    pub index: usize,
    /// Index into `Suite::cases`.
    pub case: usize,
    /// `case-id` or `case-id[v1,v2]` for an expansion.
    pub id: String,
    pub title: String,
    pub bindings: Vec<(String, String)>,
    pub disposition: Disposition,
    pub decided_on: Vec<String>,
    /// Why a skipped case did not apply, as `--require` weighs it.
    pub skip_cause: Option<SkipCause>,
    /// The case's own nonce ([`case_nonce`]): what `{nonce}` renders and its media are
    /// stamped with, so a witness can tell which case a model call came from.
    pub nonce: String,
}

/// A case's nonce: the run's followed by `-c<plan index>`. A witness names a stamp by
/// its nonce or the nonce followed by `-`, so case 1's nonce never names case 10's.
pub fn case_nonce(run_nonce: &str, index: usize) -> String {
    format!("{run_nonce}-c{index}")
}

/// Answers placeholders for one expanded case: its bindings, the built-ins, then
/// paths into the context. `{uid}` is unique per expanded case and run (fresh envelope
/// and correlation ids), `{nonce}` per case (see [`case_nonce`]).
pub fn resolver<'a>(
    bindings: &'a [(String, String)],
    context: &'a Value,
    nonce: &'a str,
    case_id: &'a str,
    index: usize,
) -> impl Fn(&str) -> Option<Value> + 'a {
    move |name: &str| {
        if let Some((_, v)) = bindings.iter().find(|(k, _)| k == name) {
            return Some(Value::String(v.clone()));
        }
        match name {
            "nonce" => Some(Value::String(nonce.to_string())),
            "case_id" => Some(Value::String(case_id.to_string())),
            "uid" => Some(Value::String(format!("{nonce}-{index}"))),
            _ => path::lookup(context, name)
                .filter(|v| !v.is_null())
                .cloned(),
        }
    }
}

/// `case-id[v1,v2]`: the values of the naming variables (`id_from`, or every binding
/// in file order when it is absent).
impl PlannedCase {
    /// The placeholder resolver for this expanded case (see `resolver`).
    pub fn resolver<'a>(
        &'a self,
        context: &'a Value,
        nonce: &'a str,
        case_id: &'a str,
    ) -> impl Fn(&str) -> Option<Value> + 'a {
        resolver(&self.bindings, context, nonce, case_id, self.index)
    }
}

pub use crate::scenario::id::expanded_id;

fn decide(
    case: &SuiteCase,
    bindings: &[(String, String)],
    context: &Value,
    nonce: &str,
    index: usize,
) -> Decided {
    let resolve = resolver(bindings, context, nonce, &case.spec.id, index);
    let title = template::render_text(&case.spec.title, &resolve)
        .unwrap_or_else(|_| case.spec.title.clone());
    match predicate::evaluate_all(&case.spec.applies, context, &resolve) {
        Err(e) => Decided {
            title,
            disposition: Disposition::Error(format!("applicability could not be evaluated: {e}")),
            facts: Vec::new(),
            skip_cause: None,
        },
        Ok(v) if v.holds => Decided {
            title,
            disposition: Disposition::Run,
            facts: v.facts,
            skip_cause: None,
        },
        Ok(v) => Decided {
            title,
            disposition: Disposition::Skip(v.explanation),
            facts: v.facts,
            skip_cause: skip_cause::first_unmet(&case.spec.applies, context, &resolve),
        },
    }
}

/// A selected case's applicability, decided.
struct Decided {
    title: String,
    disposition: Disposition,
    facts: Vec<String>,
    skip_cause: Option<SkipCause>,
}

/// Names the filters that left a case out, as the user wrote them.
fn excluded_reason(filters: &[Filter]) -> String {
    let terms: Vec<String> = filters.iter().map(|f| format!("--filter {f}")).collect();
    format!("not selected by {}", terms.join(" and "))
}

/// When `filters` select none of `suite`'s cases: the ids closest to their id words
/// (possibly none). `None`: something is selected (or nothing is filtered).
pub fn nothing_selected(suite: &Suite, filters: &[Filter]) -> Option<Vec<String>> {
    if filters.is_empty() {
        return None;
    }
    let known = known_ids(suite);
    for case in &suite.cases {
        for bindings in case.spec.binding_rows() {
            let id = expanded_id(&case.spec.id, &bindings, case.spec.id_from.as_deref());
            let req = &case.spec.requirement;
            let subject = filter::Subject {
                id: &id,
                case_id: &case.spec.id,
                level: req.level,
                source: &req.source,
                profile: Some(&case.profile),
            };
            if filter::selects(filters, &subject, Some(&known)) {
                return None;
            }
        }
    }
    let words: Vec<String> = filters.iter().flat_map(Filter::id_words).collect();
    Some(filter::closest_ids(
        &words,
        known.iter().map(String::as_str),
    ))
}

/// Every id of `suite` (expanded, and before expansion): what makes a bare `--filter`
/// word that names one exact.
pub fn known_ids(suite: &Suite) -> std::collections::HashSet<String> {
    let mut known = std::collections::HashSet::new();
    for case in &suite.cases {
        known.insert(case.spec.id.clone());
        for bindings in case.spec.binding_rows() {
            known.insert(expanded_id(
                &case.spec.id,
                &bindings,
                case.spec.id_from.as_deref(),
            ));
        }
    }
    known
}

/// Every expanded case, in suite order, with its disposition and its own nonce, planned
/// against one context.
pub fn plan(
    suite: &Suite,
    context: &Value,
    filters: &[Filter],
    run_nonce: &str,
) -> Vec<PlannedCase> {
    plan_in(suite, &|_| context, filters, run_nonce)
}

/// As [`plan`], each case planned against the context `context_of` gives it (its
/// variant's, see [`contexts::Contexts`]).
pub fn plan_in<'c>(
    suite: &Suite,
    context_of: &dyn Fn(&SuiteCase) -> &'c Value,
    filters: &[Filter],
    run_nonce: &str,
) -> Vec<PlannedCase> {
    let mut planned = Vec::new();
    let known = (!filters.is_empty()).then(|| known_ids(suite));
    for (case_index, case) in suite.cases.iter().enumerate() {
        let context = context_of(case);
        for bindings in case.spec.binding_rows() {
            let id = expanded_id(&case.spec.id, &bindings, case.spec.id_from.as_deref());
            let req = &case.spec.requirement;
            let subject = filter::Subject {
                id: &id,
                case_id: &case.spec.id,
                level: req.level,
                source: &req.source,
                profile: Some(&case.profile),
            };
            let selected = filter::selects(filters, &subject, known.as_ref());
            let index = planned.len();
            let nonce = case_nonce(run_nonce, index);
            let decided = if selected {
                decide(case, &bindings, context, &nonce, index)
            } else {
                Decided {
                    title: case.spec.title.clone(),
                    disposition: Disposition::Excluded(excluded_reason(filters)),
                    facts: Vec::new(),
                    skip_cause: None,
                }
            };
            planned.push(PlannedCase {
                index,
                case: case_index,
                id,
                title: decided.title,
                bindings,
                disposition: decided.disposition,
                decided_on: decided.facts,
                skip_cause: decided.skip_cause,
                nonce,
            });
        }
    }
    planned
}
