//! `mmconform evidence`: a steward's promotion report, merging verified JSON reports
//! of many hosts into one matrix and, with criteria, one verdict on an RFC's
//! acceptance criteria.
//!
//! Data flows one way:
//! ```text
//! report files --input (verify each)--> hosts (identity) --matrix--> Merged --render--> md | html | json
//!                                                 criteria file --load--^ verdict
//! ```
//! - [`input`]: every report is verified as `mmconform verify` does; a failing one is
//!   refused, named, and nothing is merged.
//! - [`identity`] / [`hosts`]: a host is its origin and the digest of what it advertised.
//! - [`cell`] / [`cases`] / [`matrix`]: one cell per host and case, requirements as rows.
//! - [`compat`]: what differs between the inputs.
//! - [`criteria`] / [`verdict`]: declarative promotion criteria and their judgement.
//! - [`render`]: Markdown, self-contained HTML and JSON.

pub mod cases;
pub mod cell;
pub mod compat;
pub mod criteria;
pub mod hosts;
pub mod identity;
pub mod input;
pub mod matrix;
pub mod model;
pub mod render;
pub mod verdict;

use criteria::load::LoadedCriteria;
use input::InputReport;
use model::{EVIDENCE_VERSION, InputSummary, Merged};

/// Criteria to judge by, with the origins `--exclude-origin` adds.
pub struct Judging<'a> {
    pub criteria: &'a LoadedCriteria,
    pub extra_excludes: &'a [String],
}

/// Merges verified inputs (see [`input::read_all`]) into the matrix and, when
/// criteria are given, the verdict. `merged_on` is the UTC date to record.
pub fn merge(inputs: &[InputReport], judging: Option<Judging>, merged_on: &str) -> Merged {
    let hosts = hosts::group(inputs);
    let matrix = matrix::build(inputs, &hosts);
    let mut differences = compat::differences(inputs);
    if matrix.excluded_everywhere > 0 {
        differences.push(format!(
            "{} case(s) excluded by --filter in every report are not shown",
            matrix.excluded_everywhere
        ));
    }
    let requirements = matrix.requirements;
    let host_of = |index: usize| {
        hosts
            .iter()
            .find(|h| h.reports.contains(&index))
            .map(|h| h.id.clone())
            .unwrap_or_default()
    };
    let verdict = judging.map(|j| verdict::judge(j.criteria, j.extra_excludes, inputs, &hosts));
    Merged {
        evidence_version: EVIDENCE_VERSION,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        merged_on: merged_on.to_string(),
        inputs: inputs
            .iter()
            .map(|i| InputSummary::of(i, &host_of(i.index)))
            .collect(),
        counted_once: hosts::counted_once(&hosts),
        conflicts: conflicts(&requirements),
        differences,
        hosts,
        requirements,
        verdict,
    }
}

/// One sentence per cell whose reports disagree.
fn conflicts(rows: &[matrix::RequirementRow]) -> Vec<String> {
    let mut out = Vec::new();
    for case in rows.iter().flat_map(|r| &r.cases) {
        for hc in case.cells.iter().filter(|c| c.cell.conflict) {
            let seen: Vec<String> = hc
                .cell
                .seen
                .iter()
                .map(|s| format!("{} in #{}", s.outcome.as_str(), s.report))
                .collect();
            out.push(format!(
                "{} {}: {}; shown as {}",
                hc.host,
                case.id,
                seen.join(", "),
                hc.cell.outcome.as_str()
            ));
        }
    }
    out
}
