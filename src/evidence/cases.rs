//! The cases of a set of reports, keyed by case id and requirement text, each with the
//! cell merged over every report that lists it.
//!
//! Reports of different mmconform versions or scenario sets are compared this way: a
//! case id whose requirement sentence differs between reports is two rows, never one
//! cell that mixes two requirements (the differences are listed, see [`super::compat`]).

use super::cell::Cell;
use super::input::InputReport;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;

/// A requirement as a case cites it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Requirement {
    pub source: String,
    pub level: String,
    pub text: String,
}

impl Requirement {
    pub fn of(case: &Value) -> Requirement {
        let field = |k: &str| {
            case["requirement"][k]
                .as_str()
                .unwrap_or_default()
                .to_string()
        };
        Requirement {
            source: field("source"),
            level: field("level"),
            text: field("text"),
        }
    }
}

/// What identifies a case across reports.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct CaseInfo {
    /// The expanded id (`openwop.rfc0091.unadvertised-rejected[audio]`).
    pub id: String,
    /// The id before expansion.
    pub case_id: String,
    pub title: String,
    pub requirement: Requirement,
}

impl CaseInfo {
    pub fn of(case: &Value) -> CaseInfo {
        let text = |k: &str| case[k].as_str().unwrap_or_default().to_string();
        CaseInfo {
            id: text("id"),
            case_id: text("case_id"),
            title: text("title"),
            requirement: Requirement::of(case),
        }
    }

    fn key(&self) -> (String, Requirement) {
        (self.id.clone(), self.requirement.clone())
    }
}

/// Every case of `reports`, in the order first seen, with its merged cell.
pub fn merged_cells(reports: &[&InputReport]) -> Vec<(CaseInfo, Cell)> {
    let mut out: Vec<(CaseInfo, Cell)> = Vec::new();
    let mut at: HashMap<(String, Requirement), usize> = HashMap::new();
    for input in reports {
        let cases = input.report["cases"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for case in cases {
            let info = CaseInfo::of(case);
            let cell = Cell::from_case(case, input.index);
            match at.get(&info.key()) {
                Some(&i) => out[i].1.absorb(cell),
                None => {
                    at.insert(info.key(), out.len());
                    out.push((info, cell));
                }
            }
        }
    }
    out
}
