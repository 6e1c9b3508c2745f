//! Cases that share a systematic cause (`CaseResult::cause`, set by the runner), held
//! back by a reporter so that the cause is said once with its fix and its cases are
//! listed compactly, instead of the same line and requirement sentence on every case.
//! A cause shared by fewer than [`GROUP_MIN`] cases is not worth a block: its cases
//! are shown one by one as usual.

use crate::outcome::{CaseResult, Cause, Outcome};

/// The fewest cases a cause needs to be said once for all of them.
pub const GROUP_MIN: usize = 3;

/// Ids shown inline under a cause before "and N more".
pub const IDS_SHOWN: usize = 3;

/// One cause and the cases it decided, in plan order.
#[derive(Debug, Clone)]
pub struct Group {
    pub outcome: Outcome,
    pub cause: Cause,
    /// (plan index, case).
    pub cases: Vec<(usize, CaseResult)>,
}

impl Group {
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.cases.iter().map(|(_, c)| c.id.as_str())
    }

    /// The requirement level and source the cases share, or what they have in common.
    pub fn requirement(&self) -> String {
        let first = &self.cases[0].1.requirement;
        let same = |f: &dyn Fn(&CaseResult) -> String| {
            self.cases.iter().all(|(_, c)| f(c) == f(&self.cases[0].1))
        };
        match (
            same(&|c| c.requirement.level.to_string()),
            same(&|c| c.requirement.source.clone()),
        ) {
            (true, true) => format!("{} {}", first.level, first.source),
            (true, false) => format!("{}, several requirements", first.level),
            _ => "several requirements".to_string(),
        }
    }
}

/// The held cases, grouped by (outcome, cause) in the order each cause first appeared.
#[derive(Debug, Default)]
pub struct CauseGroups {
    groups: Vec<Group>,
}

/// The outcomes a cause is said for: what needs attention.
fn grouped(outcome: Outcome) -> bool {
    matches!(outcome, Outcome::Fail | Outcome::Error | Outcome::Blocked)
}

impl CauseGroups {
    /// Holds `case` when it has a cause and needs attention; false: show it as usual.
    pub fn hold(&mut self, index: usize, case: &CaseResult) -> bool {
        let Some(cause) = case.cause.as_ref().filter(|_| grouped(case.outcome)) else {
            return false;
        };
        let entry = (index, case.clone());
        match (self.groups.iter_mut()).find(|g| g.outcome == case.outcome && g.cause == *cause) {
            Some(group) => group.cases.push(entry),
            None => self.groups.push(Group {
                outcome: case.outcome,
                cause: cause.clone(),
                cases: vec![entry],
            }),
        }
        true
    }

    /// The causes shared by at least [`GROUP_MIN`] cases, and the cases of the others
    /// in plan order (to be shown one by one).
    pub fn split(self) -> (Vec<Group>, Vec<(usize, CaseResult)>) {
        let (big, small): (Vec<Group>, Vec<Group>) =
            (self.groups.into_iter()).partition(|g| g.cases.len() >= GROUP_MIN);
        let mut single: Vec<(usize, CaseResult)> =
            small.into_iter().flat_map(|g| g.cases).collect();
        single.sort_by_key(|(index, _)| *index);
        (big, single)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::Level;

    fn caused(id: &str, outcome: Outcome, what: &str) -> CaseResult {
        let mut r = fixtures::case(
            id,
            id,
            fixtures::requirement("s", Level::Must, "t"),
            outcome,
        );
        r.cause = Some(Cause {
            what: what.into(),
            fix: None,
        });
        r
    }

    #[test]
    fn causes_shared_by_enough_cases_are_grouped_the_rest_come_back_in_plan_order() {
        let mut groups = CauseGroups::default();
        for i in 0..4 {
            assert!(groups.hold(i * 2, &caused(&format!("a{i}"), Outcome::Blocked, "404")));
        }
        assert!(groups.hold(9, &caused("b1", Outcome::Blocked, "needs --witness")));
        assert!(groups.hold(1, &caused("b0", Outcome::Blocked, "needs --witness")));
        // The same words for another outcome are another cause.
        assert!(groups.hold(3, &caused("f0", Outcome::Fail, "404")));
        // Not held: no cause, or an outcome that needs no attention.
        let plain = fixtures::case(
            "p",
            "p",
            fixtures::requirement("s", Level::Must, "t"),
            Outcome::Fail,
        );
        assert!(!groups.hold(5, &plain));
        assert!(!groups.hold(7, &caused("w", Outcome::Warn, "404")));
        let (big, single) = groups.split();
        assert_eq!(big.len(), 1);
        assert_eq!(big[0].ids().collect::<Vec<_>>(), ["a0", "a1", "a2", "a3"]);
        assert_eq!(big[0].requirement(), "MUST s");
        let ids: Vec<&str> = single.iter().map(|(_, c)| c.id.as_str()).collect();
        assert_eq!(ids, ["b0", "f0", "b1"]);
    }
}
