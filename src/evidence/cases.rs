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

    /// The case as a run of several variants names it when a report judged every case
    /// at variant `tag` (`ReportReading::variant`: a `--openwop-major 2` report's `v2`):
    /// an id written for no variant becomes its twin `<id>@<tag>` (source marked with
    /// `label`), so the variants of one host stay apart and the reports line up. Cases
    /// written for the variant (`<profile>.<tag>.*`) and ids already marked keep theirs.
    fn judged_at(mut self, profile: &str, tag: &str, label: &str) -> CaseInfo {
        if self.case_id.contains('@') || self.case_id.starts_with(&format!("{profile}.{tag}.")) {
            return self;
        }
        let twin = format!("{}@{tag}", self.case_id);
        self.id = match self.id.strip_prefix(&self.case_id) {
            Some(rest) => format!("{twin}{rest}"),
            None => self.id,
        };
        self.case_id = twin;
        self.requirement.source = format!("{} ({label})", self.requirement.source);
        self
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
        let profile = input.report["run"]["profile"].as_str().unwrap_or_default();
        for case in cases {
            let info = CaseInfo::of(case);
            let info = match &input.reading.variant {
                Some((tag, label)) => info.judged_at(profile, tag, label),
                None => info,
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_report_judged_at_one_variant_names_its_cases_as_the_twins() {
        let case = |id: &str, case_id: &str| {
            CaseInfo::of(&json!({
                "id": id, "case_id": case_id, "title": "t",
                "requirement": {"source": "RFC 0091 §A", "level": "MUST", "text": "x"}
            }))
        };
        let at_v2 = |info: CaseInfo| info.judged_at("openwop", "v2", "openwop 2");
        let twin = at_v2(case("a.b[image]", "a.b"));
        assert_eq!(
            (twin.id.as_str(), twin.case_id.as_str()),
            ("a.b@v2[image]", "a.b@v2")
        );
        assert_eq!(twin.requirement.source, "RFC 0091 §A (openwop 2)");
        let v2 = at_v2(case(
            "openwop.v2.discovery.root",
            "openwop.v2.discovery.root",
        ));
        assert_eq!(v2.id, "openwop.v2.discovery.root");
        let marked = at_v2(case("a.b@v2", "a.b@v2"));
        assert_eq!(marked.id, "a.b@v2");
    }
}
