//! Where every decided case goes, whatever the profile: `--require` is applied, the
//! baseline turns known failures into `xfail`, the outcome is counted and the case is
//! emitted. Also the loop that collects case tasks until they finish or Ctrl-C stops
//! them. Both executors use these, so a run decides cases the same way everywhere.

use super::EventSink;
use crate::baseline::tracker::{BaselineTracker, today_utc};
use crate::config::RunConfig;
use crate::event::Event;
use crate::exit::RunFacts;
use crate::outcome::{CaseResult, Outcome};
use crate::plan::PlannedCase;
use crate::scenario::suite::Suite;
use std::collections::BTreeMap;
use tokio::task::JoinSet;

pub struct Ledger<'a> {
    config: &'a RunConfig,
    suite: &'a Suite,
    sink: &'a EventSink,
    counts: BTreeMap<Outcome, usize>,
    baseline: Option<BaselineTracker>,
}

/// Applies `--require`: skipped and blocked cases fail unless their profile is opted out.
fn apply_require(result: &mut CaseResult, config: &RunConfig, conformance_profile: Option<&str>) {
    if !config.require || !matches!(result.outcome, Outcome::Skip | Outcome::Blocked) {
        return;
    }
    if let Some(profile) =
        conformance_profile.filter(|p| config.opted_out_profiles.iter().any(|o| o == p))
    {
        result.notes.push(format!(
            "profile {profile} is opted out, so --require does not apply"
        ));
        return;
    }
    let was = result.outcome;
    result.outcome = Outcome::Fail;
    result.reason = Some(format!(
        "--require: case was {was}: {}",
        result.reason.clone().unwrap_or_default()
    ));
}

impl<'a> Ledger<'a> {
    pub fn new(config: &'a RunConfig, suite: &'a Suite, sink: &'a EventSink) -> Self {
        Ledger {
            config,
            suite,
            sink,
            counts: BTreeMap::new(),
            baseline: config
                .baseline
                .clone()
                .map(|b| BaselineTracker::new(b, today_utc())),
        }
    }

    /// Records one decided case (`case` indexes `suite.cases`) and emits it.
    pub fn decide(&mut self, mut result: CaseResult, index: usize, case: usize) {
        apply_require(
            &mut result,
            self.config,
            self.suite.cases[case].conformance_profile.as_deref(),
        );
        if let Some(tracker) = &mut self.baseline {
            tracker.apply(&mut result);
        }
        *self.counts.entry(result.outcome).or_default() += 1;
        let _ = self.sink.send(Event::CaseFinished {
            index,
            result: Box::new(result),
        });
    }

    /// Collects case tasks as they finish; `true` when Ctrl-C stopped them first.
    pub async fn drain(&mut self, tasks: &mut JoinSet<(PlannedCase, CaseResult)>) -> bool {
        loop {
            tokio::select! {
                joined = tasks.join_next() => {
                    let Some(joined) = joined else { return false };
                    match joined {
                        Ok((p, result)) => self.decide(result, p.index, p.case),
                        Err(e) => {
                            // A panicking case task is a tool defect; count it so the run exits 70.
                            *self.counts.entry(Outcome::Error).or_default() += 1;
                            eprintln!("mmconform: internal error in a case task: {e}");
                        }
                    }
                }
                _ = tokio::signal::ctrl_c() => {
                    tasks.abort_all();
                    return true;
                }
            }
        }
    }

    /// The counts, and the facts the exit code is decided on.
    pub fn close(
        self,
        discovery_problem: Option<String>,
        interrupted: bool,
    ) -> (BTreeMap<Outcome, usize>, RunFacts) {
        // An interrupted run saw only part of the plan: it cannot tell an entry that
        // matches nothing from one whose case never got its turn.
        let baseline_drift = match (&self.baseline, interrupted) {
            (Some(tracker), false) => tracker.drift(),
            _ => Vec::new(),
        };
        let facts = RunFacts {
            discovery_problem,
            interrupted,
            baseline_drift,
        };
        (self.counts, facts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Target;
    use crate::outcome::{Level, Requirement};

    fn result(outcome: Outcome) -> CaseResult {
        CaseResult {
            id: "c".into(),
            case_id: "c".into(),
            title: String::new(),
            requirement: Requirement {
                source: "s".into(),
                level: Level::Must,
                text: "t".into(),
            },
            scenario_file: String::new(),
            bindings: vec![],
            outcome,
            reason: Some("aiProviders.input.modalities lacks audio".into()),
            notes: vec![],
            assertions: vec![],
            decided_on: vec![],
            duration_ms: 0,
            exchanges: vec![],
            expected_failure: None,
            stream: None,
        }
    }

    #[test]
    fn require_fails_skips_unless_the_profile_is_opted_out() {
        let mut config = RunConfig::new(Target::Offline);
        config.require = true;
        let mut skipped = result(Outcome::Skip);
        apply_require(&mut skipped, &config, Some("p"));
        assert_eq!(skipped.outcome, Outcome::Fail);
        assert!(
            skipped
                .reason
                .unwrap()
                .starts_with("--require: case was skip")
        );
        config.opted_out_profiles = vec!["p".into()];
        let mut spared = result(Outcome::Blocked);
        apply_require(&mut spared, &config, Some("p"));
        assert_eq!(spared.outcome, Outcome::Blocked);
        let mut passed = result(Outcome::Pass);
        apply_require(&mut passed, &config, None);
        assert_eq!(passed.outcome, Outcome::Pass);
    }
}
