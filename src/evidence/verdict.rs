//! Judging promotion criteria over the merged evidence: per criterion, the hosts that
//! satisfy it, and when it is not met, what is missing.
//!
//! Only a case that passed with at least one assertion run against the host counts.
//! A skip is allowed inside a case group (the host does not claim that modality) but
//! never counted; fail, warn, xfail, blocked and error break the group.

use super::cases::{CaseInfo, merged_cells};
use super::cell::{Cell, CellOutcome};
use super::criteria::load::LoadedCriteria;
use super::criteria::{CountBy, Criterion, HostsRule, PassRule, ReportsRule};
use super::hosts::Host;
use super::identity::normalise_origin;
use super::input::InputReport;
use crate::plan::predicate::evaluate_all;
use crate::scenario::model::Predicate;
use serde::Serialize;
use std::collections::BTreeSet;

/// How many failing cases a sentence names before "and N more".
const NAMED: usize = 3;

#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    /// `builtin:rfc0091` or the criteria file as given.
    pub criteria: String,
    pub sha256: String,
    pub title: String,
    pub exclude_origins: Vec<String>,
    pub notes: Vec<String>,
    pub met: bool,
    pub results: Vec<CriterionResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CriterionResult {
    pub id: String,
    pub text: String,
    pub from: Option<String>,
    /// `hosts`, `origins` or `reports`: what `at_least` counts.
    pub counts: &'static str,
    pub at_least: usize,
    pub met: bool,
    /// Hosts counted toward `at_least`.
    pub satisfied_by: Vec<String>,
    /// Hosts that satisfy it but whose origin is excluded.
    pub excluded_satisfying: Vec<String>,
    /// The reports the counted hosts' evidence comes from.
    pub reports: Vec<usize>,
    /// When not met: what is missing, in one sentence.
    pub missing: Option<String>,
    pub hosts: Vec<HostJudgement>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HostJudgement {
    pub host: String,
    pub excluded: bool,
    pub satisfied: bool,
    /// Its reports that satisfy the criterion's `where`.
    pub reports: Vec<usize>,
    /// What held (satisfied) or what did not (not satisfied).
    pub why: Vec<String>,
}

/// Judges every criterion. `extra_excludes` come from `--exclude-origin`.
pub fn judge(
    criteria: &LoadedCriteria,
    extra_excludes: &[String],
    inputs: &[InputReport],
    hosts: &[Host],
) -> Verdict {
    let mut excluded: Vec<String> = Vec::new();
    for origin in criteria.file.exclude_origins.iter().chain(extra_excludes) {
        let origin = normalise_origin(origin);
        if !excluded.contains(&origin) {
            excluded.push(origin);
        }
    }
    let results: Vec<CriterionResult> = criteria
        .file
        .criteria
        .iter()
        .map(|c| judge_criterion(c, &excluded, inputs, hosts))
        .collect();
    Verdict {
        criteria: criteria.name.clone(),
        sha256: criteria.sha256.clone(),
        title: criteria.file.title.clone(),
        met: results.iter().all(|r| r.met),
        exclude_origins: excluded,
        notes: criteria.file.notes.clone(),
        results,
    }
}

fn judge_criterion(
    criterion: &Criterion,
    excluded: &[String],
    inputs: &[InputReport],
    hosts: &[Host],
) -> CriterionResult {
    let (counts, at_least, judgements) = match (&criterion.hosts, &criterion.reports) {
        (Some(rule), _) => (
            match rule.count {
                CountBy::Hosts => "hosts",
                CountBy::Origins => "origins",
            },
            rule.at_least,
            hosts
                .iter()
                .map(|h| judge_host(rule, h, excluded, inputs))
                .collect::<Vec<_>>(),
        ),
        (None, Some(rule)) => (
            "reports",
            rule.at_least,
            hosts
                .iter()
                .map(|h| judge_reports(rule, h, excluded, inputs))
                .collect(),
        ),
        (None, None) => ("hosts", 1, Vec::new()),
    };
    let counted: Vec<&HostJudgement> = judgements
        .iter()
        .filter(|j| j.satisfied && !j.excluded)
        .collect();
    let count = match counts {
        "origins" => counted
            .iter()
            .filter_map(|j| hosts.iter().find(|h| h.id == j.host))
            .map(|h| h.origin.as_str())
            .collect::<BTreeSet<_>>()
            .len(),
        "reports" => counted.iter().map(|j| j.reports.len()).sum(),
        _ => counted.len(),
    };
    let met = count >= at_least;
    let excluded_satisfying: Vec<String> = judgements
        .iter()
        .filter(|j| j.satisfied && j.excluded)
        .map(|j| j.host.clone())
        .collect();
    let missing = (!met).then(|| missing(counts, at_least, count, excluded, &excluded_satisfying));
    CriterionResult {
        id: criterion.id.clone(),
        text: criterion.text.clone(),
        from: criterion.from.clone(),
        counts,
        at_least,
        met,
        satisfied_by: counted.iter().map(|j| j.host.clone()).collect(),
        excluded_satisfying,
        reports: counted.iter().flat_map(|j| j.reports.clone()).collect(),
        missing,
        hosts: judgements,
    }
}

fn missing(
    counts: &str,
    at_least: usize,
    count: usize,
    excluded: &[String],
    excluded_satisfying: &[String],
) -> String {
    let outside = if excluded.is_empty() {
        String::new()
    } else {
        format!(" outside the excluded origins ({})", excluded.join(", "))
    };
    let unit = if at_least == 1 {
        counts.trim_end_matches('s')
    } else {
        counts
    };
    let mut sentence = format!("needs {at_least} {unit}{outside}, found {count}");
    match excluded_satisfying {
        [] => {}
        [one] => sentence.push_str(&format!(" ({one} satisfies it but is excluded)")),
        many => sentence.push_str(&format!(
            " ({} satisfy it but are excluded)",
            many.join(", ")
        )),
    }
    sentence
}

/// The host's reports that satisfy `where`, and why the others do not.
fn qualifying<'a>(
    predicates: &[Predicate],
    host: &Host,
    inputs: &'a [InputReport],
) -> (Vec<&'a InputReport>, Vec<String>) {
    let mut good = Vec::new();
    let mut why_not = Vec::new();
    for input in inputs.iter().filter(|i| host.reports.contains(&i.index)) {
        match evaluate_all(predicates, &input.report, &|_| None) {
            Ok(v) if v.holds => good.push(input),
            Ok(v) => why_not.push(format!("#{}: {}", input.index, v.explanation)),
            Err(e) => why_not.push(format!("#{}: {e}", input.index)),
        }
    }
    (good, why_not)
}

fn judge_host(
    rule: &HostsRule,
    host: &Host,
    excluded: &[String],
    inputs: &[InputReport],
) -> HostJudgement {
    let (reports, why_not) = qualifying(&rule.where_, host, inputs);
    let mut judgement = HostJudgement {
        host: host.id.clone(),
        excluded: excluded.contains(&host.origin),
        satisfied: false,
        reports: reports.iter().map(|r| r.index).collect(),
        why: Vec::new(),
    };
    if reports.is_empty() {
        judgement.why = why_not;
        return judgement;
    }
    let cells = merged_cells(&reports);
    let mut held = Vec::new();
    let mut failed = Vec::new();
    for group in &rule.passes {
        match judge_group(group, &cells) {
            Ok(s) => held.push(format!("{}: {s}", group.describe())),
            Err(e) => failed.push(format!("{}: {e}", group.describe())),
        }
    }
    judgement.satisfied = failed.is_empty();
    judgement.why = if judgement.satisfied {
        if held.is_empty() {
            vec!["its reports satisfy every condition".into()]
        } else {
            held
        }
    } else {
        failed
    };
    judgement
}

fn judge_reports(
    rule: &ReportsRule,
    host: &Host,
    excluded: &[String],
    inputs: &[InputReport],
) -> HostJudgement {
    let (reports, why_not) = qualifying(&rule.where_, host, inputs);
    HostJudgement {
        host: host.id.clone(),
        excluded: excluded.contains(&host.origin),
        satisfied: !reports.is_empty(),
        why: if reports.is_empty() {
            why_not
        } else {
            vec![format!(
                "{} report(s) satisfy every condition",
                reports.len()
            )]
        },
        reports: reports.iter().map(|r| r.index).collect(),
    }
}

fn case_detail(info: &CaseInfo, cell: &Cell) -> String {
    if cell.offline {
        return format!("{} (offline: judges schema files, not the host)", info.id);
    }
    let why = cell
        .failed
        .first()
        .cloned()
        .or_else(|| cell.reason.clone())
        .map(|w| format!(" ({w})"))
        .unwrap_or_default();
    format!("{} {}{why}", info.id, cell.outcome.as_str())
}

fn named(items: &[String]) -> String {
    let more = items.len().saturating_sub(NAMED);
    let mut text = items
        .iter()
        .take(NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if more > 0 {
        text.push_str(&format!("; and {more} more"));
    }
    text
}

/// A case group over one host's cells: `Ok` says what passed, `Err` what is missing.
pub fn judge_group(group: &PassRule, cells: &[(CaseInfo, Cell)]) -> Result<String, String> {
    let selected: Vec<&(CaseInfo, Cell)> = cells
        .iter()
        .filter(|(i, _)| {
            group.selects(
                &i.id,
                &i.case_id,
                &i.requirement.source,
                &i.requirement.level,
            )
        })
        .collect();
    if selected.is_empty() {
        return Err("no such case in the host's reports".into());
    }
    let against: Vec<String> = selected
        .iter()
        .filter(|(_, c)| {
            matches!(
                c.outcome,
                CellOutcome::Fail
                    | CellOutcome::Warn
                    | CellOutcome::Xfail
                    | CellOutcome::Error
                    | CellOutcome::Blocked
            )
        })
        .map(|(i, c)| case_detail(i, c))
        .collect();
    if !against.is_empty() {
        return Err(named(&against));
    }
    let counts = |c: &Cell| {
        if group.reached {
            c.reached_pass()
        } else {
            c.non_vacuous_pass()
        }
    };
    let passed: Vec<&&(CaseInfo, Cell)> = selected.iter().filter(|(_, c)| counts(c)).collect();
    if passed.len() < group.at_least {
        let skipped: Vec<String> = selected
            .iter()
            .filter(|(_, c)| !counts(c))
            .map(|(i, c)| match c.non_vacuous_pass() {
                true => format!("{} pass, not witnessed reaching the model", i.id),
                false => case_detail(i, c),
            })
            .collect();
        let what = if group.reached {
            "non-vacuous pass(es) the witness saw reach the model"
        } else {
            "non-vacuous pass(es)"
        };
        return Err(format!(
            "{} {what}, {} needed; not exercised: {}",
            passed.len(),
            group.at_least,
            named(&skipped)
        ));
    }
    let assertions: usize = passed.iter().map(|(_, c)| c.assertions_executed).sum();
    Ok(format!(
        "{} case(s) passed non-vacuously ({assertions} assertion(s))",
        passed.len()
    ))
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;
