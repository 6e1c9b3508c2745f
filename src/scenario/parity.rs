//! Malformation parity (`scenarios/malformations.toml`): one table of malformation
//! classes against every door, so that the same malformed input gets the same verdict
//! wherever it is sent. For each class a door names its pair of cases (a `no-crash` case
//! at MUST that, with the witness, never lets the input reach the model as malformed;
//! a `refused` case at SHOULD or stronger expecting a refusal) or says why it cannot
//! express the class.
//!
//! [`problems`] checks the table against the built-in packs; `parity_page.rs` renders
//! it into the guide. Nothing here names a door: the table does.

use crate::outcome::Level;
use crate::scenario::model::{CaseSpec, StatusExpectation, StatusPattern, WitnessExpectation};
use crate::scenario::stream::StreamClass;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The table as shipped.
pub const TABLE: &str = include_str!("../../scenarios/malformations.toml");

/// The whole table: its classes (rows) and doors (columns), in file order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    #[serde(rename = "class")]
    pub classes: Vec<Class>,
    #[serde(rename = "door")]
    pub doors: Vec<Door>,
}

/// One malformation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    pub id: String,
    pub title: String,
}

/// One door: a profile and what it says for every class.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Door {
    /// The `profile:` of its packs.
    pub profile: String,
    /// Its column heading.
    pub name: String,
    /// Globs over its case ids: every case they match is in a cell or in `others`.
    #[serde(default)]
    pub covers: Vec<String>,
    /// Cases the globs match that judge no class, each with why.
    #[serde(default)]
    pub others: BTreeMap<String, String>,
    /// Class id -> the door's cell.
    pub cells: BTreeMap<String, Cell>,
}

/// What a door says about one class: its pair, or why it has none.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    #[serde(rename = "no-crash", default)]
    pub no_crash: Option<Ids>,
    #[serde(default)]
    pub refused: Option<Ids>,
    #[serde(default)]
    pub cannot: Option<String>,
    /// Why the no-crash case cannot be witnessed (no part of such a request can carry
    /// the case's nonce, so no model call of it can be told apart): it then judges the
    /// answer only.
    #[serde(default)]
    pub unwitnessed: Option<String>,
}

/// One case id or several.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Ids {
    One(String),
    Many(Vec<String>),
}

impl Ids {
    pub fn list(&self) -> Vec<&str> {
        match self {
            Ids::One(id) => vec![id.as_str()],
            Ids::Many(ids) => ids.iter().map(String::as_str).collect(),
        }
    }
}

/// Parses the shipped table.
pub fn table() -> Result<Table, String> {
    toml::from_str(TABLE).map_err(|e| format!("scenarios/malformations.toml: {e}"))
}

/// A case of the packs as the table sees it: its id, profile and spec.
pub struct Known<'a> {
    pub profile: &'a str,
    pub spec: &'a CaseSpec,
}

/// Everything wrong with `table` against the packs' cases (`cases`, by id): a class a
/// door says nothing about, half a pair, a reason beside a pair, a case that is not the
/// door's or does not do its role, a covered case in no cell.
pub fn problems(table: &Table, cases: &BTreeMap<&str, Known>) -> Vec<String> {
    let mut out = Vec::new();
    let classes: Vec<&str> = table.classes.iter().map(|c| c.id.as_str()).collect();
    for door in &table.doors {
        let name = &door.profile;
        for unknown in door.cells.keys().filter(|k| !classes.contains(&k.as_str())) {
            out.push(format!("{name}: `{unknown}` is not a class of the table"));
        }
        for class in &classes {
            match door.cells.get(*class) {
                None => out.push(format!(
                    "{name}: says nothing about `{class}` (name its pair, or why it cannot express it)"
                )),
                Some(cell) => out.extend(
                    cell_problems(cell, cases, name)
                        .into_iter()
                        .map(|p| format!("{name} `{class}`: {p}")),
                ),
            }
        }
        out.extend(uncovered(door, cases));
    }
    out
}

fn cell_problems(cell: &Cell, cases: &BTreeMap<&str, Known>, profile: &str) -> Vec<String> {
    let mut out = Vec::new();
    match (&cell.no_crash, &cell.refused, &cell.cannot) {
        (None, None, Some(why)) if why.trim().is_empty() => out.push("an empty reason".into()),
        (None, None, Some(_)) if cell.unwitnessed.is_some() => {
            out.push("a reason it is unwitnessed beside a reason it cannot be expressed".into())
        }
        (None, None, Some(_)) => {}
        (_, _, Some(_)) => out.push("both a pair and a reason it cannot be expressed".into()),
        (None, None, None) => out.push("neither a pair nor a reason".into()),
        (None, Some(_), None) => out.push("a refused case but no no-crash twin".into()),
        (Some(_), None, None) => out.push("a no-crash case but no refused twin".into()),
        (Some(no_crash), Some(refused), None) => {
            let role = match &cell.unwitnessed {
                Some(why) if why.trim().is_empty() => {
                    out.push("an empty reason it is unwitnessed".into());
                    Role::Unwitnessed
                }
                Some(_) => Role::Unwitnessed,
                None => Role::NoCrash,
            };
            for id in no_crash.list() {
                out.extend(role_problem(id, cases, profile, role));
            }
            for id in refused.list() {
                out.extend(role_problem(id, cases, profile, Role::Refused));
            }
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Role {
    NoCrash,
    /// A no-crash case the table says the witness cannot see.
    Unwitnessed,
    Refused,
}

/// What is wrong with `id` in `role`, if anything.
fn role_problem(
    id: &str,
    cases: &BTreeMap<&str, Known>,
    profile: &str,
    role: Role,
) -> Option<String> {
    let Some(known) = cases.get(id) else {
        return Some(format!("no case `{id}` in the packs"));
    };
    if known.profile != profile {
        return Some(format!("`{id}` is a {} case", known.profile));
    }
    let spec = known.spec;
    let level = spec.requirement.level;
    let witness = spec.expect.witness.as_ref();
    match role {
        Role::NoCrash | Role::Unwitnessed if level != Level::Must => {
            Some(format!("the no-crash case `{id}` is {level}, not MUST"))
        }
        Role::Unwitnessed if witness.is_some() => Some(format!(
            "the no-crash case `{id}` expects the witness, yet the table says it cannot be witnessed"
        )),
        Role::NoCrash
            if !matches!(
                witness,
                Some(WitnessExpectation::WithheldOrRepaired | WitnessExpectation::Withheld)
            ) =>
        {
            Some(format!(
                "the no-crash case `{id}` does not expect `witness: withheld-or-repaired` (or `withheld`)"
            ))
        }
        Role::NoCrash | Role::Unwitnessed if !excludes_crash(spec) => Some(format!(
            "the no-crash case `{id}` does not rule out a crash (a 5xx, or a crashed or broken answer)"
        )),
        Role::Refused if level == Level::May => Some(format!(
            "the refused case `{id}` is MAY, not SHOULD or MUST"
        )),
        Role::Refused if !expects_refusal(spec) => Some(format!(
            "the refused case `{id}` does not expect a refusal (a 4xx, or a rejected or run-error answer)"
        )),
        _ => None,
    }
}

/// The case fails a 5xx or an answer classified crashed or broken.
fn excludes_crash(spec: &CaseSpec) -> bool {
    let stream_rules_it_out = spec.expect.stream.as_ref().is_some_and(|s| {
        (s.not.contains(&StreamClass::Crashed) && s.not.contains(&StreamClass::Broken))
            || s.classification.as_ref().is_some_and(|c| {
                c.to_vec()
                    .iter()
                    .all(|k| !matches!(k, StreamClass::Crashed | StreamClass::Broken))
            })
    });
    let status_rules_it_out = spec
        .expect
        .status
        .as_ref()
        .is_some_and(|s| patterns(s).iter().all(|p| first_digit(p) != Some(5)));
    stream_rules_it_out || status_rules_it_out
}

/// The case passes only a refusal: every status it allows is a 4xx, or every bucket
/// it allows is `rejected` or `run-error`.
fn expects_refusal(spec: &CaseSpec) -> bool {
    let by_status = spec
        .expect
        .status
        .as_ref()
        .is_some_and(|s| patterns(s).iter().all(|p| first_digit(p) == Some(4)));
    let by_stream = spec.expect.stream.as_ref().is_some_and(|s| {
        s.classification.as_ref().is_some_and(|c| {
            c.to_vec()
                .iter()
                .all(|k| matches!(k, StreamClass::Rejected | StreamClass::RunError))
        })
    });
    by_status || by_stream
}

fn patterns(s: &StatusExpectation) -> Vec<&StatusPattern> {
    match s {
        StatusExpectation::One(p) => vec![p],
        StatusExpectation::Any(list) => list.iter().collect(),
    }
}

fn first_digit(p: &StatusPattern) -> Option<u16> {
    match p {
        StatusPattern::Code(c) => Some(c / 100),
        StatusPattern::Class(c) => c.bytes().next().map(|d| u16::from(d.wrapping_sub(b'0'))),
    }
}

/// The door's cases its `covers` globs match that neither a cell nor `others` names.
fn uncovered(door: &Door, cases: &BTreeMap<&str, Known>) -> Vec<String> {
    let globs: Vec<glob::Pattern> = door
        .covers
        .iter()
        .filter_map(|g| glob::Pattern::new(g).ok())
        .collect();
    if globs.len() != door.covers.len() {
        return vec![format!("{}: a `covers` glob does not parse", door.profile)];
    }
    let named: Vec<&str> = door
        .cells
        .values()
        .flat_map(|c| {
            [&c.no_crash, &c.refused]
                .into_iter()
                .flatten()
                .flat_map(Ids::list)
        })
        .chain(door.others.keys().map(String::as_str))
        .collect();
    cases
        .iter()
        .filter(|(id, known)| {
            known.profile == door.profile
                && globs.iter().any(|g| g.matches(id))
                && !named.contains(id)
        })
        .map(|(id, _)| {
            format!(
                "{}: `{id}` judges a malformation but is in no cell (put it in its class's pair, or in `others` with why)",
                door.profile
            )
        })
        .collect()
}

#[cfg(test)]
#[path = "parity_tests.rs"]
mod tests;
