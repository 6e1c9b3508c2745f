//! The driver of the fault tables ("every fault fails its case"), one table per profile:
//! `<profile>/faults.rs` (a profile of the registry without one fails
//! `src/registry_docs_tests.rs`).
//!
//! A row is `(fault, setup arguments, the case that must catch it, its level)`. Rows of
//! one fault and setup share their runs:
//! - without `--strict`, a MUST row's case fails and a SHOULD row's case warns; the run
//!   exits 1 when the fault has a MUST row there, 0 when it only breaks SHOULDs;
//! - with `--strict` (only when the fault has a SHOULD row there), every row's case
//!   fails and the run exits 1.
//!
//! Only the lenient run of a fault that breaks nothing but SHOULDs runs the whole suite:
//! its exit 0 says that no other case fails. Every other run is narrowed to the rows'
//! cases (`--filter 'id(=case) | ...'`, with any filter of the setup): its exit 1 follows
//! from a row's case failing, and the rows' outcomes are what it checks, so running the
//! other cases too would only cost time.
//!
//! [`check_every_row`] runs every row and reports every wrong one at once;
//! [`check_coverage`] fails while a fault `--list-faults` names has no row (or is not
//! listed as covered by a test of its own); [`check_ignored_auth`] is that test for
//! each profile's `ignores-auth`, which needs a token.

use crate::common::{self, RunResult};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Must,
    Should,
}

pub const MUST: Level = Level::Must;
pub const SHOULD: Level = Level::Should;

/// (fault, setup arguments, the case that must catch it, the level of its requirement)
pub type Row = (&'static str, &'static [&'static str], &'static str, Level);

pub struct Table {
    /// The `--profile` whose reference host or agent has these faults.
    pub profile: &'static str,
    /// The arguments before `--reference-fault` (profile and target).
    pub base: &'static [&'static str],
    pub rows: &'static [Row],
    /// Listed faults with no row because a test of their own checks them; each entry
    /// names that test in a comment.
    pub elsewhere: &'static [&'static str],
}

/// The rows of one fault with one setup: they share a lenient and a strict run.
struct Group<'t> {
    fault: &'static str,
    setup: &'static [&'static str],
    rows: Vec<&'t Row>,
}

impl Group<'_> {
    fn has(&self, level: Level) -> bool {
        self.rows.iter().any(|row| row.3 == level)
    }
}

fn groups(rows: &[Row]) -> Vec<Group<'_>> {
    let mut groups: Vec<Group> = Vec::new();
    for row in rows {
        match groups
            .iter_mut()
            .find(|g| g.fault == row.0 && g.setup == row.1)
        {
            Some(group) => group.rows.push(row),
            None => groups.push(Group {
                fault: row.0,
                setup: row.1,
                rows: vec![row],
            }),
        }
    }
    groups
}

/// Runs every row of `table` and asserts once, listing every row that went wrong.
pub fn check_every_row(table: &Table) {
    let groups = groups(table.rows);
    // Each group's runs mostly wait on the reference host and the witness.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let problems: Vec<String> = common::parallel::in_parallel(&groups, workers, |group| {
        let mut problems = Vec::new();
        problems.extend(judge(table, group, false));
        if group.has(SHOULD) {
            problems.extend(judge(table, group, true));
        }
        problems
    })
    .concat();
    assert!(
        problems.is_empty(),
        "{} run(s) of {} fault setups went wrong:\n{}",
        problems.len(),
        groups.len(),
        problems.join("\n----\n")
    );
}

/// One run of `group`'s fault: what is wrong about it, if anything.
fn judge(table: &Table, group: &Group, strict: bool) -> Option<String> {
    let r = fault_run(table, group, strict);
    let want_code = if strict || group.has(MUST) { 1 } else { 0 };
    let mut wrong = Vec::new();
    if r.code != want_code {
        wrong.push(format!("exit {} (want {want_code})", r.code));
    }
    for (_, _, case, level) in &group.rows {
        let want = if strict || *level == MUST {
            "fail"
        } else {
            "warn"
        };
        let got = r.outcome_of(case).unwrap_or_else(|| "absent".into());
        if got != want {
            wrong.push(format!("{case} ({level:?}) is {got} (want {want})"));
        }
    }
    let mode = if strict { " --strict" } else { "" };
    (!wrong.is_empty()).then(|| {
        format!(
            "{} {:?}{mode}: {}\n{}",
            group.fault,
            group.setup,
            wrong.join("; "),
            r.context()
        )
    })
}

fn fault_run(table: &Table, group: &Group, strict: bool) -> RunResult {
    let mut args = table.base.to_vec();
    args.extend(["--reference-fault", group.fault]);
    args.extend_from_slice(group.setup);
    if strict {
        args.push("--strict");
    }
    let whole_suite = !strict && !group.has(MUST);
    let rows_only = rows_filter(group);
    if !whole_suite {
        args.extend(["--filter", rows_only.as_str()]);
    }
    common::run(&args)
}

/// `id(=a) | id(=b)`: exactly the cases of `group`'s rows.
fn rows_filter(group: &Group) -> String {
    let cases: BTreeSet<&str> = group.rows.iter().map(|row| row.2).collect();
    cases
        .iter()
        .map(|case| format!("id(={case})"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Every fault `--list-faults` names has a row or is listed as covered elsewhere, and
/// every row and exception names a listed fault.
pub fn check_coverage(table: &Table) {
    // The forwarding faults too: their rows run with `--witness`.
    let listed = common::all_faults(table.profile);
    assert!(!listed.is_empty(), "--list-faults named no fault");
    let rows: BTreeSet<&str> = table.rows.iter().map(|row| row.0).collect();
    let elsewhere: BTreeSet<&str> = table.elsewhere.iter().copied().collect();
    let without_row: Vec<&String> = listed
        .iter()
        .filter(|f| !rows.contains(f.as_str()) && !elsewhere.contains(f.as_str()))
        .collect();
    let unknown: Vec<&&str> = rows
        .union(&elsewhere)
        .filter(|f| !listed.iter().any(|l| l == **f))
        .collect();
    let both: Vec<&&str> = rows.intersection(&elsewhere).collect();
    assert!(
        without_row.is_empty() && unknown.is_empty() && both.is_empty(),
        "{} faults without a row: {without_row:?}\nnot listed by --list-faults: {unknown:?}\n\
         both a row and covered elsewhere: {both:?}",
        table.profile
    );
}

/// A profile's `ignores-auth` fault, which a table cannot hold: it shows only when the
/// run has a token, so that the reference requires one.
pub struct TokenCheck {
    /// The arguments of every run: the profile, its target, the cases run.
    pub args: &'static [&'static str],
    /// The arguments that name the token's variable, given only with the token.
    pub token_args: &'static [&'static str],
    /// The variable the token is read from, and the token (a canary).
    pub token: (&'static str, &'static str),
    /// The case that sends no token and expects 401 or 403.
    pub case: &'static str,
}

/// With the token, the faithful reference requires it: `check.case` passes and the run
/// exits 0; the `ignores-auth` variant fails it (exit 1, with `--strict`). The token
/// shows in neither run's output, report or JUnit file, and without it the case does
/// not apply. Returns the faithful run, for what a profile checks besides.
pub fn check_ignored_auth(check: &TokenCheck) -> RunResult {
    let env = [check.token];
    let with_token = [check.args, check.token_args].concat();
    let ok = common::run_with_env(&with_token, &env);
    assert_eq!(ok.code, 0, "{}", ok.context());
    assert_eq!(ok.outcome(check.case), "pass", "{}", ok.context());
    let mut faulty = with_token.clone();
    faulty.extend(["--reference-fault", "ignores-auth"]);
    if !faulty.contains(&"--strict") {
        faulty.push("--strict");
    }
    let bad = common::run_with_env(&faulty, &env);
    assert_eq!(bad.code, 1, "{}", bad.context());
    assert_eq!(bad.outcome(check.case), "fail", "{}", bad.context());
    let canary = check.token.1;
    for r in [&ok, &bad] {
        let report = r.report.as_ref().map(|v| v.to_string()).unwrap_or_default();
        let junit = r.junit.as_deref().unwrap_or_default();
        for (what, text) in [
            ("stdout", r.stdout.as_str()),
            ("stderr", &r.stderr),
            ("the report", &report),
            ("the JUnit file", junit),
        ] {
            assert!(!text.contains(canary), "the token is in {what}:\n{text}");
        }
    }
    let without = common::run(check.args);
    assert_eq!(without.outcome(check.case), "skip", "{}", without.context());
    ok
}
