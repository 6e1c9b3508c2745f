//! One host's result for one case: what the matrix shows and the criteria judge.
//!
//! Cells are built from the report JSON rather than the runner's types, so a report
//! written by another mmconform version is read by what it says. Two readings keep
//! the evidence honest:
//! - `--require` turns a skip or blocked case into `fail` with the reason
//!   `--require: case was skip: ...`. For the host, nothing was exercised, so the cell
//!   shows the original outcome and marks it (`under_require`).
//! - An offline case (schema checks: decided without any exchange with the host) judges
//!   schema files, not the host, and is marked `offline`; it is never host evidence.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A cell's outcome: the report's outcomes, plus `absent` when the host's reports do
/// not list the case (another scenario set, a `--filter`, an interrupted run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellOutcome {
    Pass,
    Fail,
    Warn,
    Skip,
    Excluded,
    Blocked,
    Error,
    Xfail,
    Absent,
}

impl CellOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            CellOutcome::Pass => "pass",
            CellOutcome::Fail => "fail",
            CellOutcome::Warn => "warn",
            CellOutcome::Skip => "skip",
            CellOutcome::Excluded => "excluded",
            CellOutcome::Blocked => "blocked",
            CellOutcome::Error => "error",
            CellOutcome::Xfail => "xfail",
            CellOutcome::Absent => "absent",
        }
    }

    /// The host answered and was judged (whatever the verdict).
    pub fn observed(self) -> bool {
        matches!(
            self,
            CellOutcome::Pass
                | CellOutcome::Fail
                | CellOutcome::Warn
                | CellOutcome::Xfail
                | CellOutcome::Error
        )
    }

    /// Which of two reports' outcomes a merged cell shows: an observation beats no
    /// observation, and among observations (or non-observations) the worse one wins.
    fn rank(self) -> (bool, u8) {
        let severity = match self {
            CellOutcome::Error => 5,
            CellOutcome::Fail => 4,
            CellOutcome::Xfail => 3,
            CellOutcome::Warn | CellOutcome::Blocked => 2,
            CellOutcome::Pass | CellOutcome::Skip => 1,
            CellOutcome::Excluded | CellOutcome::Absent => 0,
        };
        (self.observed(), severity)
    }
}

/// One report's reading of a case, kept in the cell's detail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seen {
    /// The input report (`#n`).
    pub report: usize,
    pub outcome: CellOutcome,
    pub assertions_executed: usize,
}

/// A host's result for one case, over all of its reports that list the case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cell {
    pub outcome: CellOutcome,
    pub assertions_executed: usize,
    pub assertions_failed: usize,
    /// Why it was skipped, blocked or failed (the discovery fact for a skip).
    pub reason: Option<String>,
    /// `check: expected X; got Y` for each failed assertion.
    pub failed: Vec<String>,
    /// The discovery facts applicability was decided on.
    pub decided_on: Vec<String>,
    /// A skip or blocked case that `--require` had turned into a failure.
    pub under_require: bool,
    /// Decided without any exchange with the host: judges schema files, not the host.
    pub offline: bool,
    /// The host's reports observed different outcomes for this case.
    pub conflict: bool,
    /// A witnessed run (`run --witness`) recorded model calls carrying the case's nonce
    /// and judged them (every `witness.*` assertion held): what the case sent reached
    /// the host's model.
    pub reached_model: bool,
    /// What became of each part that arrived other than intact (`witness.bytes` with a
    /// `delivery`): `transformed: image/gif 695 B -> image/png 947 B, same picture (...)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deliveries: Vec<String>,
    pub seen: Vec<Seen>,
}

impl Cell {
    /// The cell of a host whose reports do not list the case.
    pub fn absent() -> Cell {
        Cell {
            outcome: CellOutcome::Absent,
            assertions_executed: 0,
            assertions_failed: 0,
            reason: None,
            failed: Vec::new(),
            decided_on: Vec::new(),
            under_require: false,
            offline: false,
            conflict: false,
            reached_model: false,
            deliveries: Vec::new(),
            seen: Vec::new(),
        }
    }

    /// A pass with at least one assertion run against the host itself: evidence.
    pub fn non_vacuous_pass(&self) -> bool {
        self.outcome == CellOutcome::Pass && self.assertions_executed > 0 && !self.offline
    }

    /// A non-vacuous pass whose parts the witness saw reach the model.
    pub fn reached_pass(&self) -> bool {
        self.non_vacuous_pass() && self.reached_model
    }

    /// One report's case, as the report lists it.
    pub fn from_case(case: &Value, report: usize) -> Cell {
        let mut outcome: CellOutcome =
            serde_json::from_value(case["outcome"].clone()).unwrap_or(CellOutcome::Error);
        let mut reason = case["reason"].as_str().map(str::to_string);
        let mut under_require = false;
        if outcome == CellOutcome::Fail
            && let Some(text) = reason.clone()
        {
            for (was, original) in [
                ("skip", CellOutcome::Skip),
                ("blocked", CellOutcome::Blocked),
            ] {
                if let Some(rest) = text.strip_prefix(&format!("--require: case was {was}: ")) {
                    outcome = original;
                    reason = Some(rest.to_string());
                    under_require = true;
                }
            }
        }
        let assertions = case["assertions"].as_array().cloned().unwrap_or_default();
        let failed: Vec<String> = assertions
            .iter()
            .filter(|a| a["passed"] == false)
            .map(|a| {
                format!(
                    "{}: expected {}; got {}",
                    a["check"].as_str().unwrap_or("?"),
                    a["expected"].as_str().unwrap_or("?"),
                    a["actual"].as_str().unwrap_or("?")
                )
            })
            .collect();
        let executed = assertions.len();
        let no_exchange = case["exchanges"].as_array().is_none_or(Vec::is_empty);
        let calls = case["model_calls"].as_array().map_or(0, Vec::len);
        let witness_checks: Vec<&Value> = assertions
            .iter()
            .filter(|a| {
                a["check"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("witness."))
            })
            .collect();
        let reached_model = calls > 0
            && !witness_checks.is_empty()
            && witness_checks.iter().all(|a| a["passed"] == true);
        let deliveries = assertions
            .iter()
            .filter(|a| {
                a["delivery"]["outcome"]
                    .as_str()
                    .is_some_and(|o| o != "intact")
            })
            .filter_map(|a| a["actual"].as_str().map(str::to_string))
            .collect();
        Cell {
            outcome,
            assertions_executed: executed,
            assertions_failed: failed.len(),
            reason,
            failed,
            decided_on: strings(&case["decided_on"]),
            under_require,
            // A self-check says so; a report older than that mark is read by its shape.
            offline: case["self_check"] == true || (outcome.observed() && no_exchange),
            conflict: false,
            reached_model,
            deliveries,
            seen: vec![Seen {
                report,
                outcome,
                assertions_executed: executed,
            }],
        }
    }

    /// Folds another report's reading of the same case into this cell.
    pub fn absorb(&mut self, other: Cell) {
        let mut seen = std::mem::take(&mut self.seen);
        seen.extend(other.seen.iter().cloned());
        // One witnessed report is enough to have seen the parts arrive.
        let reached = self.reached_model || other.reached_model;
        if other.outcome.rank() > self.outcome.rank() {
            let conflict = self.conflict;
            *self = other;
            self.conflict = conflict;
        }
        let mut observed: Vec<CellOutcome> = seen
            .iter()
            .map(|s| s.outcome)
            .filter(|o| o.observed())
            .collect();
        observed.sort();
        observed.dedup();
        self.conflict = observed.len() > 1;
        self.reached_model = reached;
        self.seen = seen;
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case(outcome: &str, reason: Option<&str>, passed: &[bool], exchanges: usize) -> Value {
        json!({
            "outcome": outcome,
            "reason": reason,
            "assertions": passed.iter().map(|p| json!({"check": "status", "expected": "200",
                "actual": if *p { "200" } else { "400" }, "passed": p})).collect::<Vec<_>>(),
            "exchanges": vec![json!({}); exchanges],
            "decided_on": ["openwop.modalities = [\"text\"]"],
        })
    }

    #[test]
    fn a_skip_failed_by_require_is_shown_as_the_skip_it_was() {
        let cell = Cell::from_case(
            &case(
                "fail",
                Some("--require: case was skip: aiProviders.input.modalities lacks audio"),
                &[],
                0,
            ),
            1,
        );
        assert_eq!(cell.outcome, CellOutcome::Skip);
        assert!(cell.under_require && !cell.non_vacuous_pass());
        assert_eq!(
            cell.reason.as_deref(),
            Some("aiProviders.input.modalities lacks audio")
        );
        let blocked = Cell::from_case(
            &case(
                "fail",
                Some("--require: case was blocked: seam 404"),
                &[],
                1,
            ),
            1,
        );
        assert_eq!(blocked.outcome, CellOutcome::Blocked);
        let real = Cell::from_case(&case("fail", None, &[true, false], 1), 1);
        assert_eq!(
            (real.outcome, real.assertions_failed),
            (CellOutcome::Fail, 1)
        );
        assert_eq!(real.failed, vec!["status: expected 200; got 400"]);
    }

    #[test]
    fn offline_passes_are_not_host_evidence() {
        let offline = Cell::from_case(&case("pass", None, &[true], 0), 1);
        assert!(offline.offline && !offline.non_vacuous_pass());
        let online = Cell::from_case(&case("pass", None, &[true], 1), 1);
        assert!(online.non_vacuous_pass());
        let skip = Cell::from_case(&case("skip", Some("lacks audio"), &[], 0), 1);
        assert!(!skip.offline, "a skip is not an offline case");
    }

    #[test]
    fn merging_prefers_observations_and_the_worse_of_two_and_flags_conflicts() {
        let mut cell = Cell::from_case(&case("pass", None, &[true], 1), 1);
        cell.absorb(Cell::from_case(
            &case("blocked", Some("seam 404"), &[], 1),
            2,
        ));
        assert_eq!(cell.outcome, CellOutcome::Pass);
        assert!(!cell.conflict);
        cell.absorb(Cell::from_case(&case("fail", None, &[false], 1), 3));
        assert_eq!(cell.outcome, CellOutcome::Fail);
        assert!(cell.conflict);
        assert_eq!(
            cell.seen.iter().map(|s| s.report).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        let mut skipped = Cell::from_case(&case("skip", Some("lacks audio"), &[], 0), 1);
        skipped.absorb(Cell::from_case(&case("blocked", Some("404"), &[], 1), 2));
        assert_eq!(skipped.outcome, CellOutcome::Blocked);
        assert!(!skipped.conflict);
    }
}
