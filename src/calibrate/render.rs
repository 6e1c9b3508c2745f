//! The calibration matrix for a terminal and as JSON.

use super::matrix::{Matrix, Sighting, VariantRow};
use super::setup::Setup;
use serde_json::{Value, json};

/// Case ids shown per fault before "+N more" (the JSON has them all).
const SHOWN_PER_ROW: usize = 3;

fn sightings(list: &[Sighting], limit: usize) -> String {
    let mut shown: Vec<String> = list
        .iter()
        .take(limit)
        .map(|s| format!("{} ({}, {})", s.case, s.setup, s.outcome))
        .collect();
    if list.len() > limit {
        shown.push(format!("+{} more", list.len() - limit));
    }
    shown.join(", ")
}

fn variant_line(row: &VariantRow, verbose: bool, blind_spots_checked: bool) -> String {
    let limit = if verbose { usize::MAX } else { SHOWN_PER_ROW };
    let tolerated = row.detection == super::variant::Detection::Tolerated;
    let what = if tolerated && !row.caught_by.is_empty() {
        format!(
            "a faithful transformation, yet {} case(s) failed: {}",
            row.caught_by.len(),
            sightings(&row.caught_by, limit)
        )
    } else if tolerated && row.caught {
        format!(
            "tolerated (a faithful transformation): no case failed, {} noted it as transformed: {}",
            row.noted_by.len(),
            sightings(&row.noted_by, limit)
        )
    } else if tolerated {
        format!(
            "tolerated, but no case noted a transformed part ({})",
            row.description
        )
    } else if !row.caught_by.is_empty() {
        format!(
            "caught by {}: {}",
            row.caught_by.len(),
            sightings(&row.caught_by, limit)
        )
    } else if row.caught {
        format!(
            "blocks {} case(s) and the run never exits 0: {}",
            row.blocked.len(),
            sightings(&row.blocked, limit)
        )
    } else {
        format!("caught by no case ({})", row.description)
    };
    let tag = match (row.caught, blind_spots_checked) {
        (true, _) => "",
        (false, true) => "BLIND ",
        (false, false) => "unseen ",
    };
    format!("  {tag}{:<40} {what}", row.name)
}

/// One sentence: what the verdict rests on.
pub fn verdict(matrix: &Matrix) -> String {
    if matrix.calibrated() {
        let faults = if matrix.blind_spots_checked {
            format!(
                "each of {} fault(s) and mutant(s) was caught",
                matrix.variants.len()
            )
        } else {
            format!(
                "{} of {} fault(s) and mutant(s) caught (a partial suite is not expected to catch them all)",
                matrix.variants.len() - matrix.blind_spots.len(),
                matrix.variants.len()
            )
        };
        let witnessed = matrix
            .cases
            .iter()
            .filter(|c| !c.witness_caught.is_empty())
            .count();
        let witness = match witnessed {
            0 => String::new(),
            n => format!(
                "; each of {n} expect.witness judgement(s) failed against a forwarding host"
            ),
        };
        return format!(
            "calibrated: each of {} case(s) failed against at least one broken host; {faults}{witness}",
            matrix.cases.len()
        );
    }
    let mut problems = Vec::new();
    let mut add = |n: usize, what: &str| {
        if n > 0 {
            problems.push(format!("{n} {what}"));
        }
    };
    add(matrix.vacuous.len(), "vacuous case(s)");
    add(
        matrix.witness_unproven.len(),
        "case(s) whose expect.witness no variant made fail",
    );
    add(matrix.never_ran.len(), "case(s) that ran in no setup");
    if matrix.blind_spots_checked {
        add(matrix.blind_spots.len(), "blind spot(s)");
    }
    add(
        matrix.false_failures.len(),
        "faithful transformation(s) some case failed",
    );
    add(
        matrix.reference_problems.len(),
        "case(s) the faithful host does not pass",
    );
    add(matrix.errors.len(), "case error(s)");
    format!("not calibrated: {}", problems.join(", "))
}

pub fn human(matrix: &Matrix, setups: &[Setup], verbose: bool) -> String {
    let mut out = header(matrix, setups);
    out.push_str(&variant_sections(matrix, verbose));
    if verbose {
        out.push_str("\ncases (case -> variants that made it fail)\n");
        for case in &matrix.cases {
            out.push_str(&format!("  {:<60} {}\n", case.id, case.caught.join(", ")));
        }
    }
    let problems = problem_lines(matrix);
    if !problems.is_empty() {
        out.push_str("\nproblems\n");
        out.push_str(&problems);
    }
    out.push_str(&format!("\nverdict: {}\n", verdict(matrix)));
    out
}

/// The counts, and the faithful host's results per setup.
fn header(matrix: &Matrix, setups: &[Setup]) -> String {
    let faults = matrix
        .variants
        .iter()
        .filter(|v| v.kind == "host-fault")
        .count();
    let mutants = matrix.variants.len() - faults;
    // A setup of a profile the filters left without a case is not started.
    let started = matrix
        .setups
        .iter()
        .filter(|s| {
            s.passed + s.skipped > 0 || matrix.variants.iter().any(|v| v.setups.contains(&s.name))
        })
        .count();
    let runs: usize = started
        + matrix
            .variants
            .iter()
            .map(|v| v.setups.len())
            .sum::<usize>();
    let mut out = format!(
        "mmconform calibrate: {} case(s), {} setup(s), {faults} host fault(s), {mutants} schema mutant(s), {runs} host run(s)\n\n",
        matrix.cases.len(),
        matrix.setups.len(),
    );
    out.push_str("faithful reference host, per setup\n");
    for row in &matrix.setups {
        let summary = setups
            .iter()
            .find(|s| s.name == row.name)
            .map(|s| s.summary)
            .unwrap_or("");
        out.push_str(&format!(
            "  {:<16} {:>3} pass {:>3} skip   {summary}\n",
            row.name, row.passed, row.skipped
        ));
    }
    out
}

/// Host faults, then schema mutants, each with the cases that caught it.
fn variant_sections(matrix: &Matrix, verbose: bool) -> String {
    // A partial suite is not expected to catch every variant: list only what it
    // caught unless asked for everything.
    let listed = |row: &&VariantRow| row.caught || verbose || matrix.blind_spots_checked;
    let lines = |host_faults: bool| {
        matrix
            .variants
            .iter()
            .filter(|v| (v.kind == "host-fault") == host_faults)
            .filter(listed)
            .map(|row| variant_line(row, verbose, matrix.blind_spots_checked) + "\n")
            .collect::<String>()
    };
    let mutants = matrix
        .variants
        .iter()
        .filter(|v| v.kind != "host-fault")
        .count();
    let caught_mutants = matrix
        .variants
        .iter()
        .filter(|v| v.kind != "host-fault" && v.caught)
        .count();
    let mut out = String::from("\nhost faults (fault -> cases that caught it)\n");
    out.push_str(&lines(true));
    out.push_str(&format!(
        "\nschema mutants (mutant -> cases that caught it): {caught_mutants} of {mutants} caught\n"
    ));
    out.push_str(&lines(false));
    if !matrix.blind_spots_checked {
        out.push_str(&format!(
            "\n{} fault(s) and mutant(s) were caught by none of the selected cases; that is expected \
             of a partial suite (--filter or --no-builtin) and not counted; -v lists them\n",
            matrix.blind_spots.len()
        ));
    }
    out
}

/// One line per reason the suite is not calibrated.
fn problem_lines(matrix: &Matrix) -> String {
    let mut problems = String::new();
    for id in &matrix.vacuous {
        let setups = matrix
            .cases
            .iter()
            .find(|c| &c.id == id)
            .map(|c| c.passed_in.join(", "))
            .unwrap_or_default();
        problems.push_str(&format!(
            "  VACUOUS    {id}: passed against every variant (setups: {setups}); no broken host makes it fail\n"
        ));
    }
    for id in &matrix.witness_unproven {
        problems.push_str(&format!(
            "  UNPROVEN   {id}: its expect.witness passed against every variant; no broken host makes it fail\n"
        ));
    }
    for id in &matrix.never_ran {
        problems.push_str(&format!(
            "  NEVER RAN  {id}: applicable in no calibration setup, so never shown able to fail\n"
        ));
    }
    if matrix.blind_spots_checked {
        for name in &matrix.blind_spots {
            problems.push_str(&format!("  BLIND      {name}: no case caught it\n"));
        }
    }
    for p in &matrix.reference_problems {
        problems.push_str(&format!(
            "  REFERENCE  {} in setup {}: the faithful host got {} ({})\n",
            p.case,
            p.setup,
            p.outcome,
            p.reason.as_deref().unwrap_or("no reason")
        ));
    }
    for e in &matrix.errors {
        problems.push_str(&format!(
            "  ERROR      {} against {} in setup {}: {}\n",
            e.case,
            e.variant,
            e.setup,
            e.reason.as_deref().unwrap_or("no reason")
        ));
    }
    problems
}

pub fn json(matrix: &Matrix, setups: &[Setup]) -> Value {
    let setup_summaries: Vec<Value> = setups
        .iter()
        .map(|s| json!({"name": s.name, "summary": s.summary}))
        .collect();
    json!({
        "tool_version": env!("CARGO_PKG_VERSION"),
        "calibrated": matrix.calibrated(),
        "verdict": verdict(matrix),
        "setup_shapes": setup_summaries,
        "matrix": matrix,
    })
}
