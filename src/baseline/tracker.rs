//! Applying a baseline during a run: matching failures become `xfail`, and every entry
//! remembers what it saw, so stale, unmatched and expired entries can be named at the
//! end (baseline drift, exit 5).

use super::{Baseline, Entry};
use crate::outcome::{CaseResult, ExpectedFailure, Outcome};

/// What one entry saw during the run.
#[derive(Debug, Clone, Default)]
struct Seen {
    /// Cases that were selected and decided (excluded ones are not counted).
    decided: usize,
    /// Cases excluded by --filter: the entry could not be checked there.
    excluded: usize,
    /// Cases still not meeting their requirement (xfail, or warn for a SHOULD).
    still_failing: usize,
    passed: Vec<String>,
}

pub struct BaselineTracker {
    baseline: Baseline,
    /// `YYYY-MM-DD` (UTC) the run judges expiry against.
    today: String,
    seen: Vec<Seen>,
}

impl BaselineTracker {
    pub fn new(baseline: Baseline, today: String) -> Self {
        let seen = vec![Seen::default(); baseline.entries.len()];
        BaselineTracker {
            baseline,
            today,
            seen,
        }
    }

    /// The entry a case belongs to: an entry naming its expansion wins over one naming
    /// the whole case, so each decided case is counted by one entry only.
    fn owner(&self, result: &CaseResult) -> Option<usize> {
        let entries = &self.baseline.entries;
        entries
            .iter()
            .position(|e| e.case == result.id)
            .or_else(|| {
                entries
                    .iter()
                    .position(|e| e.matches(&result.id, &result.case_id))
            })
    }

    fn location(&self, index: usize) -> String {
        format!("{}:{}", self.baseline.file, self.baseline.lines[index])
    }

    /// Turns a listed failure into `xfail` and records what the entry saw.
    pub fn apply(&mut self, result: &mut CaseResult) {
        let Some(index) = self.owner(result) else {
            return;
        };
        let location = self.location(index);
        let entry: &Entry = &self.baseline.entries[index];
        let seen = &mut self.seen[index];
        match result.outcome {
            Outcome::Excluded => {
                seen.excluded += 1;
                return;
            }
            Outcome::Fail => {
                if let Some(was) = result.reason.take() {
                    result.notes.insert(0, format!("baselined failure: {was}"));
                }
                result.outcome = Outcome::Xfail;
                result.reason = Some(format!(
                    "expected failure: {} (baseline {location})",
                    entry.reason
                ));
                result.expected_failure = Some(ExpectedFailure {
                    entry: entry.case.clone(),
                    reason: entry.reason.clone(),
                    expires: entry.expires.clone(),
                });
                seen.still_failing += 1;
            }
            Outcome::Warn => seen.still_failing += 1,
            Outcome::Pass => seen.passed.push(result.id.clone()),
            Outcome::Skip | Outcome::Blocked | Outcome::Error | Outcome::Xfail => {}
        }
        seen.decided += 1;
    }

    /// Every entry that no longer describes the host, one sentence each naming it.
    pub fn drift(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (index, (entry, seen)) in self.baseline.entries.iter().zip(&self.seen).enumerate() {
            let name = format!("baseline entry `{}` ({})", entry.case, self.location(index));
            if entry.expired_on(&self.today) {
                out.push(format!(
                    "{name} expired on {}",
                    entry.expires.as_deref().unwrap_or("?")
                ));
            }
            if seen.decided == 0 && seen.excluded == 0 {
                out.push(format!("{name} matched no case"));
            } else if seen.still_failing == 0 && !seen.passed.is_empty() {
                out.push(format!(
                    "{name} now passes ({}): remove it",
                    seen.passed.join(", ")
                ));
            }
        }
        out
    }
}

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn today_utc() -> String {
    let stamp = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    stamp[..10].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::Level;

    fn baseline(entries: &[(&str, Option<&str>)]) -> Baseline {
        Baseline {
            file: "b.yaml".into(),
            sha256: String::new(),
            entries: entries
                .iter()
                .map(|(case, expires)| Entry {
                    case: case.to_string(),
                    reason: format!("ticket for {case}"),
                    expires: expires.map(str::to_string),
                })
                .collect(),
            lines: (0..entries.len()).map(|i| 3 + 2 * i).collect(),
        }
    }

    fn result(id: &str, case_id: &str, outcome: Outcome) -> CaseResult {
        let mut r = fixtures::case(
            id,
            case_id,
            fixtures::requirement("s", Level::Must, "t"),
            outcome,
        );
        r.reason = Some("expected 400; got 200".into());
        r
    }

    #[test]
    fn a_listed_failure_becomes_xfail_and_keeps_its_evidence() {
        let mut t = BaselineTracker::new(baseline(&[("c", None)]), "2026-11-23".into());
        let mut r = result("c[image]", "c", Outcome::Fail);
        t.apply(&mut r);
        assert_eq!(r.outcome, Outcome::Xfail);
        assert_eq!(
            r.reason.as_deref(),
            Some("expected failure: ticket for c (baseline b.yaml:3)")
        );
        assert_eq!(r.notes, vec!["baselined failure: expected 400; got 200"]);
        assert_eq!(r.expected_failure.as_ref().unwrap().entry, "c");
        assert!(t.drift().is_empty());
        let mut other = result("d", "d", Outcome::Fail);
        t.apply(&mut other);
        assert_eq!(
            other.outcome,
            Outcome::Fail,
            "unlisted failures stay failures"
        );
    }

    #[test]
    fn the_three_kinds_of_drift_name_their_entry() {
        let mut t = BaselineTracker::new(
            baseline(&[
                ("fixed", None),
                ("typo[imgae]", None),
                ("old", Some("2026-01-01")),
                ("filtered", None),
            ]),
            "2026-11-23".into(),
        );
        for (id, case, outcome) in [
            ("fixed[image]", "fixed", Outcome::Pass),
            ("fixed[audio]", "fixed", Outcome::Pass),
            ("old", "old", Outcome::Fail),
            ("filtered", "filtered", Outcome::Excluded),
        ] {
            t.apply(&mut result(id, case, outcome));
        }
        let drift = t.drift();
        assert_eq!(drift.len(), 3, "{drift:?}");
        assert_eq!(
            drift[0],
            "baseline entry `fixed` (b.yaml:3) now passes (fixed[image], fixed[audio]): remove it"
        );
        assert_eq!(
            drift[1],
            "baseline entry `typo[imgae]` (b.yaml:5) matched no case"
        );
        assert_eq!(
            drift[2],
            "baseline entry `old` (b.yaml:7) expired on 2026-01-01"
        );
    }

    #[test]
    fn a_partly_fixed_case_or_a_skipped_one_is_not_drift() {
        let mut t =
            BaselineTracker::new(baseline(&[("c", None), ("s", None)]), "2026-11-23".into());
        t.apply(&mut result("c[image]", "c", Outcome::Pass));
        t.apply(&mut result("c[audio]", "c", Outcome::Fail));
        t.apply(&mut result("s", "s", Outcome::Skip));
        assert!(t.drift().is_empty(), "{:?}", t.drift());
    }

    #[test]
    fn an_expanded_entry_owns_its_case_before_a_whole_case_entry() {
        let mut t = BaselineTracker::new(
            baseline(&[("c", None), ("c[image]", None)]),
            "2026-11-23".into(),
        );
        let mut r = result("c[image]", "c", Outcome::Fail);
        t.apply(&mut r);
        assert_eq!(r.expected_failure.unwrap().entry, "c[image]");
        // `c` saw nothing: it is named as matching no case.
        assert_eq!(
            t.drift(),
            vec!["baseline entry `c` (b.yaml:3) matched no case"]
        );
    }
}
