//! Where every decided case goes, whatever the profile: `--require` is applied, the
//! baseline turns known failures into `xfail`, the outcome (and any retry, a flake) is
//! counted and the case is emitted. Also the loop that collects case tasks until they
//! finish or the run is stopped (`--deadline`, Ctrl-C). The executor uses these, so a
//! run decides cases the same way everywhere.

use super::{EventSink, RunOutput, finish};
use crate::baseline::tracker::{BaselineTracker, today_utc};
use crate::config::RunConfig;
use crate::event::Event;
use crate::exit::RunFacts;
use crate::outcome::{CaseResult, Outcome};
use crate::plan::PlannedCase;
use crate::plan::result::result_without_exchange;
use crate::scenario::suite::Suite;
use crate::stop::{Stop, StopReason};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// Outcome counts, and how many decided cases needed a retry.
#[derive(Debug, Default)]
pub struct Tally {
    pub counts: BTreeMap<Outcome, usize>,
    pub flaky: usize,
}

pub struct Ledger<'a> {
    config: &'a RunConfig,
    suite: &'a Suite,
    sink: &'a EventSink,
    tally: Tally,
    baseline: Option<BaselineTracker>,
    /// Cases handed to a task and not decided yet, for the deadline to block.
    undecided: BTreeMap<usize, PlannedCase>,
    tasks: JoinSet<(PlannedCase, CaseResult)>,
    /// `-j`: case tasks that may be sending at once.
    slots: Arc<Semaphore>,
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
            tally: Tally::default(),
            undecided: BTreeMap::new(),
            tasks: JoinSet::new(),
            slots: Arc::new(Semaphore::new(config.concurrency.max(1))),
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
        self.undecided.remove(&index);
        *self.tally.counts.entry(result.outcome).or_default() += 1;
        // Flaky: a retry was needed and an answer came in the end. Retries that never
        // got one (a refused connection) are an unreachable host, not a flaky one.
        if result
            .exchanges
            .iter()
            .any(|e| e.retries > 0 && e.response.is_some())
        {
            self.tally.flaky += 1;
        }
        let _ = self.sink.send(Event::CaseFinished {
            index,
            result: Box::new(result),
        });
    }

    /// Runs `case` as a task once one of the `-j` slots is free; the deadline can still
    /// decide it while it waits or runs.
    pub fn spawn<F>(&mut self, planned: PlannedCase, case: F)
    where
        F: Future<Output = CaseResult> + Send + 'static,
    {
        self.undecided.insert(planned.index, planned.clone());
        let slots = self.slots.clone();
        self.tasks.spawn(async move {
            let _slot = slots.acquire_owned().await;
            (planned, case.await)
        });
    }

    /// Waits for every case task (or the stop signal) and ends the run: the summary
    /// with the exit code decided on the tally and these facts.
    pub async fn conclude(
        mut self,
        discovery_problem: Option<String>,
        stop: &Stop,
        started: Instant,
        client: &crate::http::HttpClient,
    ) -> RunOutput {
        let stopped = self.drain(stop).await;
        let sink = self.sink;
        // Every request is done (or abandoned) now: the list is complete.
        let _ = sink.send(Event::Wire(client.wire()));
        let (tally, facts) = self.close(discovery_problem, stopped);
        finish(sink, tally, &facts, started, stopped)
    }

    /// Collects case tasks as they finish, until all have or `stop` fires; returns why
    /// the run stopped early, if it did. On the deadline every case not decided yet is
    /// `blocked`: the deadline bounds the run, it is not a verdict on the host.
    async fn drain(&mut self, stop: &Stop) -> Option<StopReason> {
        let mut stopped = stop.reason();
        while stopped.is_none() {
            tokio::select! {
                joined = self.tasks.join_next() => {
                    let Some(joined) = joined else { break };
                    match joined {
                        Ok((p, result)) => self.decide(result, p.index, p.case),
                        Err(e) => {
                            // A panicking case task is a tool defect; count it so the run exits 70.
                            *self.tally.counts.entry(Outcome::Error).or_default() += 1;
                            eprintln!("mmconform: internal error in a case task: {e}");
                        }
                    }
                }
                reason = stop.wait() => stopped = Some(reason),
            }
        }
        if stopped.is_some() {
            self.tasks.abort_all();
        }
        if stopped == Some(StopReason::Deadline) {
            for p in std::mem::take(&mut self.undecided).into_values() {
                let case = &self.suite.cases[p.case];
                let reason = format!("{} before the case was decided", StopReason::Deadline);
                let result = result_without_exchange(&p, case, Outcome::Blocked, Some(reason));
                self.decide(result, p.index, p.case);
            }
        }
        stopped
    }

    /// The tally, and the facts the exit code is decided on.
    fn close(
        self,
        discovery_problem: Option<String>,
        stopped: Option<StopReason>,
    ) -> (Tally, RunFacts) {
        let interrupted = stopped == Some(StopReason::Interrupted);
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
        (self.tally, facts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Target;
    use crate::event_fixtures as fixtures;
    use crate::outcome::Level;

    fn result(outcome: Outcome) -> CaseResult {
        let mut r = fixtures::case(
            "c",
            "c",
            fixtures::requirement("s", Level::Must, "t"),
            outcome,
        );
        r.reason = Some("aiProviders.input.modalities lacks audio".into());
        r
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
