//! From observed runs to the calibration matrix: which variant each case caught, which
//! cases never fail (vacuous), which faults nobody notices (blind spots), and whether
//! the faithful host itself passes. Pure data in, data out, so it is tested without
//! starting a host.

use super::variant::Detection;
use crate::outcome::{CaseResult, Outcome};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What calibration keeps of one decided case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseObservation {
    pub outcome: Outcome,
    /// At least one assertion ran and did not hold.
    pub failed_assertion: bool,
    /// The reason or first failed assertion, for problem reports.
    pub summary: Option<String>,
    /// Its `expect.witness` was judged (a `witness.*` assertion ran).
    pub witness_judged: bool,
    /// A `witness.*` assertion ran and did not hold.
    pub witness_failed: bool,
    /// A part arrived transformed and that was accepted (`witness.bytes` passed).
    pub transformed: bool,
}

fn is_witness_check(check: &str) -> bool {
    check.starts_with("witness.")
}

impl From<&CaseResult> for CaseObservation {
    fn from(result: &CaseResult) -> Self {
        CaseObservation {
            outcome: result.outcome,
            failed_assertion: result.assertions_failed().next().is_some(),
            summary: crate::report::evidence::failure_summary(result),
            witness_judged: result.assertions.iter().any(|a| is_witness_check(&a.check)),
            witness_failed: result
                .assertions_failed()
                .any(|a| is_witness_check(&a.check)),
            transformed: result.assertions.iter().any(|a| {
                a.passed
                    && a.delivery.as_ref().map(|d| d.outcome)
                        == Some(crate::outcome::DeliveryOutcome::Transformed)
            }),
        }
    }
}

/// One run of the whole suite against one host.
#[derive(Debug, Clone, Default)]
pub struct RunObservation {
    /// Keyed by expanded case id.
    pub cases: BTreeMap<String, CaseObservation>,
    pub exit_code: i32,
}

/// A variant as the matrix needs it.
#[derive(Debug, Clone)]
pub struct VariantInfo {
    pub name: String,
    pub description: String,
    pub kind: &'static str,
    pub detection: Detection,
}

/// A case noticing a variant in one setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sighting {
    pub case: String,
    pub setup: String,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, Serialize)]
pub struct VariantRow {
    pub name: String,
    pub description: String,
    pub kind: &'static str,
    pub detection: Detection,
    pub setups: Vec<String>,
    /// Cases with a failed assertion they do not have against the faithful host.
    pub caught_by: Vec<Sighting>,
    /// Cases that pass against the faithful host and are blocked here.
    pub blocked: Vec<Sighting>,
    /// A tolerated variant: cases whose witness accepted a part as transformed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub noted_by: Vec<Sighting>,
    /// Caught, or for a tolerated variant: failed by no case and noted by some.
    pub caught: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CaseRow {
    pub id: String,
    /// Setups whose faithful host the case passed against.
    pub passed_in: Vec<String>,
    /// Variant names that made it fail an assertion.
    pub caught: Vec<String>,
    /// Variant names that made its `expect.witness` fail (empty for cases without one).
    pub witness_caught: Vec<String>,
}

/// The faithful host did not pass a case that applied to it.
#[derive(Debug, Clone, Serialize)]
pub struct ReferenceProblem {
    pub setup: String,
    pub case: String,
    pub outcome: Outcome,
    pub reason: Option<String>,
}

/// A case ended as `error` against some host: a tool or scenario defect.
#[derive(Debug, Clone, Serialize)]
pub struct CaseError {
    pub setup: String,
    pub variant: String,
    pub case: String,
    pub reason: Option<String>,
}

/// How the faithful host fared in one setup.
#[derive(Debug, Clone, Serialize)]
pub struct SetupRow {
    pub name: String,
    pub passed: usize,
    pub skipped: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    pub setups: Vec<SetupRow>,
    pub variants: Vec<VariantRow>,
    pub cases: Vec<CaseRow>,
    pub reference_problems: Vec<ReferenceProblem>,
    pub errors: Vec<CaseError>,
    /// Ran against some faithful host but no variant made them fail an assertion.
    pub vacuous: Vec<String>,
    /// Their `expect.witness` was judged against a faithful host, but no variant made
    /// it fail (the case may fail on other assertions: the witness check is unproven).
    pub witness_unproven: Vec<String>,
    /// Selected, but applicable to no calibration setup, so never shown able to fail.
    pub never_ran: Vec<String>,
    /// Variants no case noticed (a tolerated one: no case noted its transformation).
    pub blind_spots: Vec<String>,
    /// Tolerated variants (faithful transformations) some case failed against.
    pub false_failures: Vec<String>,
    /// Blind spots count only when the whole built-in suite was calibrated: a steward's
    /// single new case is not expected to catch every fault of the catalogue.
    pub blind_spots_checked: bool,
}

impl Matrix {
    pub fn calibrated(&self) -> bool {
        self.reference_problems.is_empty()
            && self.errors.is_empty()
            && self.vacuous.is_empty()
            && self.witness_unproven.is_empty()
            && self.never_ran.is_empty()
            && self.false_failures.is_empty()
            && (self.blind_spots.is_empty() || !self.blind_spots_checked)
    }
}

/// One variant run: which variant (index into the variant list) in which setup.
pub struct VariantRun {
    pub variant: usize,
    pub setup: String,
    pub observation: RunObservation,
}

fn is_failure(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Fail | Outcome::Warn | Outcome::Blocked | Outcome::Error
    )
}

fn count(run: &RunObservation, outcome: Outcome) -> usize {
    run.cases.values().filter(|c| c.outcome == outcome).count()
}

fn collect_errors(setup: &str, variant: &str, run: &RunObservation, out: &mut Vec<CaseError>) {
    for (id, case) in &run.cases {
        if case.outcome == Outcome::Error {
            out.push(CaseError {
                setup: setup.to_string(),
                variant: variant.to_string(),
                case: id.clone(),
                reason: case.summary.clone(),
            });
        }
    }
}

/// What the faithful hosts showed: where each selected case passed, and where the
/// faithful host did not pass a case (a problem of the reference host or the case).
fn faithful_results(
    faithful: &[(String, RunObservation)],
    errors: &mut Vec<CaseError>,
) -> (BTreeMap<String, Vec<String>>, Vec<ReferenceProblem>) {
    let mut reference_problems = Vec::new();
    let mut passed_in: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (setup, run) in faithful {
        collect_errors(setup, "faithful", run, errors);
        for (id, case) in &run.cases {
            if case.outcome == Outcome::Excluded {
                continue;
            }
            let entry = passed_in.entry(id.clone()).or_default();
            match case.outcome {
                Outcome::Pass => entry.push(setup.clone()),
                o if is_failure(o) && o != Outcome::Error => {
                    reference_problems.push(ReferenceProblem {
                        setup: setup.clone(),
                        case: id.clone(),
                        outcome: o,
                        reason: case.summary.clone(),
                    })
                }
                _ => {}
            }
        }
    }
    (passed_in, reference_problems)
}

fn empty_row(v: &VariantInfo) -> VariantRow {
    VariantRow {
        name: v.name.clone(),
        description: v.description.clone(),
        kind: v.kind,
        detection: v.detection,
        setups: Vec::new(),
        caught_by: Vec::new(),
        blocked: Vec::new(),
        noted_by: Vec::new(),
        caught: false,
    }
}

/// The cases that passed against the faithful host in the run's setup and failed a
/// `witness.*` assertion against the variant.
fn witness_sightings<'r>(
    run: &'r VariantRun,
    baseline: &RunObservation,
) -> impl Iterator<Item = &'r String> {
    run.observation.cases.iter().filter_map(move |(id, case)| {
        let passed_before = baseline
            .cases
            .get(id)
            .is_some_and(|b| b.outcome == Outcome::Pass);
        (passed_before && case.witness_failed).then_some(id)
    })
}

/// Records, in `row`, which cases that passed against the faithful host in the same
/// setup failed an assertion (or became blocked) against the variant; returns the ids
/// of the cases that caught it.
fn sightings(row: &mut VariantRow, run: &VariantRun, baseline: &RunObservation) -> Vec<String> {
    let mut caught = Vec::new();
    for (id, case) in &run.observation.cases {
        let passed_before = baseline
            .cases
            .get(id)
            .is_some_and(|b| b.outcome == Outcome::Pass);
        if !passed_before {
            continue;
        }
        let sighting = Sighting {
            case: id.clone(),
            setup: run.setup.clone(),
            outcome: case.outcome,
        };
        if case.failed_assertion {
            caught.push(id.clone());
            row.caught_by.push(sighting);
        } else if case.outcome == Outcome::Blocked {
            row.blocked.push(sighting);
        }
    }
    caught
}

/// The cases of `run` whose witness accepted a part as transformed.
fn noted(run: &VariantRun) -> Vec<Sighting> {
    run.observation
        .cases
        .iter()
        .filter(|(_, c)| c.transformed && c.outcome == Outcome::Pass)
        .map(|(id, c)| Sighting {
            case: id.clone(),
            setup: run.setup.clone(),
            outcome: c.outcome,
        })
        .collect()
}

/// One row per variant: where it ran, the cases that caught it, whether it was caught.
/// Per case, the variants that failed one of its `witness.*` assertions.
type WitnessCaught = BTreeMap<String, BTreeSet<String>>;

fn variant_rows(
    faithful: &[(String, RunObservation)],
    variants: &[VariantInfo],
    runs: &[VariantRun],
    errors: &mut Vec<CaseError>,
) -> (
    Vec<VariantRow>,
    BTreeMap<String, BTreeSet<String>>,
    WitnessCaught,
) {
    let faithful_of: BTreeMap<&str, &RunObservation> =
        faithful.iter().map(|(s, r)| (s.as_str(), r)).collect();
    let mut rows: Vec<VariantRow> = variants.iter().map(empty_row).collect();
    let mut caught_cases: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut witness_caught = WitnessCaught::new();
    let mut exit_codes: Vec<Vec<i32>> = vec![Vec::new(); variants.len()];
    for run in runs {
        exit_codes[run.variant].push(run.observation.exit_code);
        let row = &mut rows[run.variant];
        row.setups.push(run.setup.clone());
        collect_errors(&run.setup, &row.name, &run.observation, errors);
        let Some(baseline) = faithful_of.get(run.setup.as_str()) else {
            continue;
        };
        let caught = sightings(row, run, baseline);
        if row.detection == Detection::Tolerated {
            // A failure here is a false failure, never a proof that a case can fail.
            row.noted_by.extend(noted(run));
            continue;
        }
        for id in caught {
            caught_cases.entry(id).or_default().insert(row.name.clone());
        }
        for id in witness_sightings(run, baseline) {
            let by = witness_caught.entry(id.clone()).or_default();
            by.insert(row.name.clone());
        }
    }
    for (row, exits) in rows.iter_mut().zip(&exit_codes) {
        row.caught = match row.detection {
            Detection::Assertion => !row.caught_by.is_empty(),
            // Blocked cases are only a catch when the verdict reflects them too.
            Detection::Blocked => {
                !row.caught_by.is_empty()
                    || (!row.blocked.is_empty() && exits.iter().all(|c| *c != 0))
            }
            Detection::Tolerated => row.caught_by.is_empty() && !row.noted_by.is_empty(),
        };
    }
    (rows, caught_cases, witness_caught)
}

/// Cases whose `expect.witness` passed against some faithful host and that no variant
/// made fail a `witness.*` assertion.
fn witness_unproven(faithful: &[(String, RunObservation)], caught: &WitnessCaught) -> Vec<String> {
    let judged: BTreeSet<&String> = faithful
        .iter()
        .flat_map(|(_, run)| &run.cases)
        .filter(|(_, c)| c.outcome == Outcome::Pass && c.witness_judged)
        .map(|(id, _)| id)
        .collect();
    judged
        .into_iter()
        .filter(|id| !caught.contains_key(*id))
        .cloned()
        .collect()
}

/// `whole_suite`: every built-in case was selected, so blind spots are meaningful.
pub fn analyze(
    faithful: &[(String, RunObservation)],
    variants: &[VariantInfo],
    runs: &[VariantRun],
    whole_suite: bool,
) -> Matrix {
    let mut errors = Vec::new();
    let (passed_in, reference_problems) = faithful_results(faithful, &mut errors);
    let (rows, caught_cases, witness_caught) = variant_rows(faithful, variants, runs, &mut errors);
    let cases: Vec<CaseRow> = passed_in
        .iter()
        .map(|(id, setups)| CaseRow {
            id: id.clone(),
            passed_in: setups.clone(),
            caught: caught_cases
                .get(id)
                .map(|s| s.iter().cloned().collect())
                .unwrap_or_default(),
            witness_caught: witness_caught
                .get(id)
                .map(|s| s.iter().cloned().collect())
                .unwrap_or_default(),
        })
        .collect();
    let vacuous = cases
        .iter()
        .filter(|c| !c.passed_in.is_empty() && c.caught.is_empty())
        .map(|c| c.id.clone())
        .collect();
    let failed_somewhere: BTreeSet<&str> =
        reference_problems.iter().map(|p| p.case.as_str()).collect();
    let never_ran = cases
        .iter()
        .filter(|c| c.passed_in.is_empty() && !failed_somewhere.contains(c.id.as_str()))
        .map(|c| c.id.clone())
        .collect();
    let falsely_failed =
        |r: &VariantRow| r.detection == Detection::Tolerated && !r.caught_by.is_empty();
    let false_failures = rows
        .iter()
        .filter(|r| falsely_failed(r))
        .map(|r| r.name.clone())
        .collect();
    let blind_spots = rows
        .iter()
        .filter(|r| !r.caught && !falsely_failed(r))
        .map(|r| r.name.clone())
        .collect();
    Matrix {
        setups: faithful
            .iter()
            .map(|(name, run)| SetupRow {
                name: name.clone(),
                passed: count(run, Outcome::Pass),
                skipped: count(run, Outcome::Skip),
            })
            .collect(),
        variants: rows,
        cases,
        reference_problems,
        errors,
        vacuous,
        witness_unproven: witness_unproven(faithful, &witness_caught),
        never_ran,
        blind_spots,
        false_failures,
        blind_spots_checked: whole_suite,
    }
}

#[cfg(test)]
#[path = "matrix_tests.rs"]
mod tests;
