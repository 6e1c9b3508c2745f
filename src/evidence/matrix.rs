//! The matrix: requirements and their cases as rows, hosts as columns, and per
//! requirement which hosts pass it non-vacuously and which never exercised it.

use super::cases::{CaseInfo, Requirement, merged_cells};
use super::cell::{Cell, CellOutcome};
use super::hosts::Host;
use super::input::InputReport;
use serde::Serialize;
use std::collections::HashMap;

/// One host's standing on one requirement, over the requirement's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequirementStatus {
    /// At least one case passed with assertions run against the host, and none of its
    /// cases failed, warned or was blocked.
    Pass,
    /// A case failed (or was an expected failure under a baseline).
    Fail,
    /// A SHOULD/MAY case was not met, and none failed.
    Warn,
    /// A case could not be observed; never counted as a pass.
    Blocked,
    /// A case hit a defect in mmconform or a scenario file.
    Error,
    /// Every case was skipped or absent: a coverage gap.
    NotExercised,
    /// Only offline cases (schema files, not the host).
    Offline,
}

impl RequirementStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RequirementStatus::Pass => "pass",
            RequirementStatus::Fail => "fail",
            RequirementStatus::Warn => "warn",
            RequirementStatus::Blocked => "blocked",
            RequirementStatus::Error => "error",
            RequirementStatus::NotExercised => "not-exercised",
            RequirementStatus::Offline => "offline",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct HostCell {
    pub host: String,
    #[serde(flatten)]
    pub cell: Cell,
}

#[derive(Debug, Clone, Serialize)]
pub struct CaseRow {
    pub id: String,
    pub case_id: String,
    pub title: String,
    /// One per host, in host order.
    pub cells: Vec<HostCell>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HostStatus {
    pub host: String,
    pub status: RequirementStatus,
}

#[derive(Debug, Clone, Serialize)]
pub struct RequirementRow {
    #[serde(flatten)]
    pub requirement: Requirement,
    pub cases: Vec<CaseRow>,
    /// One per host, in host order.
    pub statuses: Vec<HostStatus>,
    /// Hosts that pass it non-vacuously (each counted once however many reports).
    pub passing_hosts: Vec<String>,
    /// Hosts whose reports never observed any of its cases (skipped, blocked, absent).
    pub gap_hosts: Vec<String>,
}

/// The rows, and how many cases every report excluded (`--filter`): those carry no
/// evidence about any host and are left out.
#[derive(Debug, Clone)]
pub struct Matrix {
    pub requirements: Vec<RequirementRow>,
    pub excluded_everywhere: usize,
}

/// Builds the matrix over every input, hosts in the given order.
pub fn build(inputs: &[InputReport], hosts: &[Host]) -> Matrix {
    let per_host: Vec<HashMap<(String, Requirement), Cell>> = hosts
        .iter()
        .map(|host| {
            let reports: Vec<&InputReport> = inputs
                .iter()
                .filter(|i| host.reports.contains(&i.index))
                .collect();
            merged_cells(&reports)
                .into_iter()
                .map(|(info, cell)| ((info.id, info.requirement), cell))
                .collect()
        })
        .collect();
    let all: Vec<&InputReport> = inputs.iter().collect();
    let mut rows: Vec<RequirementRow> = Vec::new();
    let mut excluded_everywhere = 0;
    for (info, _) in merged_cells(&all) {
        let case = case_row(&info, hosts, &per_host);
        let nowhere =
            |c: &HostCell| matches!(c.cell.outcome, CellOutcome::Excluded | CellOutcome::Absent);
        if case.cells.iter().all(nowhere) {
            excluded_everywhere += 1;
            continue;
        }
        let row = match rows.iter().position(|r| r.requirement == info.requirement) {
            Some(i) => &mut rows[i],
            None => {
                rows.push(RequirementRow {
                    requirement: info.requirement.clone(),
                    cases: Vec::new(),
                    statuses: Vec::new(),
                    passing_hosts: Vec::new(),
                    gap_hosts: Vec::new(),
                });
                rows.last_mut().expect("just pushed")
            }
        };
        row.cases.push(case);
    }
    for row in &mut rows {
        summarise(row, hosts);
    }
    Matrix {
        requirements: rows,
        excluded_everywhere,
    }
}

fn case_row(
    info: &CaseInfo,
    hosts: &[Host],
    per_host: &[HashMap<(String, Requirement), Cell>],
) -> CaseRow {
    let key = (info.id.clone(), info.requirement.clone());
    CaseRow {
        id: info.id.clone(),
        case_id: info.case_id.clone(),
        title: info.title.clone(),
        cells: hosts
            .iter()
            .zip(per_host)
            .map(|(host, cells)| HostCell {
                host: host.id.clone(),
                cell: cells.get(&key).cloned().unwrap_or_else(Cell::absent),
            })
            .collect(),
    }
}

/// A host's standing on a requirement, from its cells for the requirement's cases.
pub fn status_of<'a>(cells: impl IntoIterator<Item = &'a Cell>) -> RequirementStatus {
    let cells: Vec<&Cell> = cells.into_iter().collect();
    let host_cells: Vec<&&Cell> = cells.iter().filter(|c| !c.offline).collect();
    let any = |o: &[CellOutcome]| host_cells.iter().any(|c| o.contains(&c.outcome));
    if host_cells.is_empty() && !cells.is_empty() {
        RequirementStatus::Offline
    } else if any(&[CellOutcome::Fail, CellOutcome::Xfail]) {
        RequirementStatus::Fail
    } else if any(&[CellOutcome::Error]) {
        RequirementStatus::Error
    } else if any(&[CellOutcome::Warn]) {
        RequirementStatus::Warn
    } else if any(&[CellOutcome::Blocked]) {
        RequirementStatus::Blocked
    } else if host_cells.iter().any(|c| c.non_vacuous_pass()) {
        RequirementStatus::Pass
    } else {
        RequirementStatus::NotExercised
    }
}

fn summarise(row: &mut RequirementRow, hosts: &[Host]) {
    for (i, host) in hosts.iter().enumerate() {
        let cells: Vec<&Cell> = row.cases.iter().map(|c| &c.cells[i].cell).collect();
        let status = status_of(cells.iter().copied());
        if status == RequirementStatus::Pass {
            row.passing_hosts.push(host.id.clone());
        }
        let observed = cells.iter().any(|c| !c.offline && c.outcome.observed());
        if !observed && status != RequirementStatus::Offline {
            row.gap_hosts.push(host.id.clone());
        }
        row.statuses.push(HostStatus {
            host: host.id.clone(),
            status,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cell(outcome: &str, assertions: usize, exchanges: usize) -> Cell {
        Cell::from_case(
            &json!({"outcome": outcome, "reason": null,
                "assertions": vec![json!({"check": "c", "expected": "", "actual": "", "passed": outcome == "pass"}); assertions],
                "exchanges": vec![json!({}); exchanges]}),
            1,
        )
    }

    #[test]
    fn a_requirement_passes_only_on_a_non_vacuous_pass_with_nothing_against_it() {
        use RequirementStatus as S;
        let pass = cell("pass", 2, 1);
        let skip = cell("skip", 0, 0);
        let blocked = cell("blocked", 0, 1);
        let offline = cell("pass", 1, 0);
        assert_eq!(status_of([&pass, &skip]), S::Pass);
        assert_eq!(status_of([&skip, &Cell::absent()]), S::NotExercised);
        assert_eq!(status_of([&pass, &blocked]), S::Blocked);
        assert_eq!(status_of([&pass, &cell("warn", 1, 1)]), S::Warn);
        assert_eq!(status_of([&pass, &cell("fail", 1, 1)]), S::Fail);
        assert_eq!(status_of([&pass, &cell("xfail", 1, 1)]), S::Fail);
        assert_eq!(status_of([&offline]), S::Offline);
        assert_eq!(status_of([&offline, &skip]), S::NotExercised);
        assert_eq!(status_of(std::iter::empty()), S::NotExercised);
    }
}
