//! Where every decided case goes, whatever the profile: `--require` is applied, the
//! baseline turns known failures into `xfail`, the outcome (and any retry, a flake) is
//! counted and the case is emitted. Also the loop that collects case tasks until they
//! finish or the run is stopped (`--deadline`, Ctrl-C). The executor uses these, so a
//! run decides cases the same way everywhere.

use super::require::{Held, RequireBook};
use super::{EventSink, RunOutput, finish};
use crate::baseline::tracker::{BaselineTracker, today_utc};
use crate::config::RunConfig;
use crate::event::Event;
use crate::exit::RunFacts;
use crate::outcome::{CaseResult, Outcome};
use crate::plan::result::result_without_exchange;
use crate::plan::{PlannedCase, SkipCause};
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
    /// The host's cases per outcome.
    pub counts: BTreeMap<Outcome, usize>,
    /// The self-checks per outcome (`CaseResult::self_check`), counted apart.
    pub self_checks: BTreeMap<Outcome, usize>,
    pub flaky: usize,
    /// Cases blocked by an authentication answer (see `runner::auth`).
    pub auth_refused: usize,
    /// Passes that expected their parts to reach the model, run without a witness.
    pub reach_unseen: usize,
    /// The run's advice lines (`RunSummary::advice`).
    pub advice: Vec<String>,
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
    /// Skipped and blocked cases `--require` weighs at the end of the run.
    require: RequireBook,
    /// Why each skipped case did not apply, by plan index.
    skip_causes: BTreeMap<usize, SkipCause>,
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
            require: RequireBook::default(),
            skip_causes: BTreeMap::new(),
            slots: Arc::new(Semaphore::new(config.concurrency.max(1))),
            baseline: config
                .baseline
                .clone()
                .map(|b| BaselineTracker::new(b, today_utc())),
        }
    }

    /// Notes why the plan's skipped cases did not apply, for `--require`.
    pub fn expect(&mut self, cases: &[PlannedCase]) {
        self.skip_causes
            .extend(cases.iter().filter_map(|p| Some((p.index, p.skip_cause?))));
    }

    /// Records one decided case (`case` indexes `suite.cases`) and emits it, unless
    /// `--require` has to weigh it at the end of the run (see `runner::require`).
    pub fn decide(&mut self, result: CaseResult, index: usize, case: usize) {
        self.undecided.remove(&index);
        let held = Held {
            result,
            index,
            cause: self.skip_causes.get(&index).copied(),
        };
        let profile = self.suite.cases[case].conformance_profile.as_deref();
        if let Some(held) = self.require.offer(self.config, profile, held) {
            self.record(held.result, held.index);
        }
    }

    /// Counts one case whose outcome is final and emits it.
    fn record(&mut self, mut result: CaseResult, index: usize) {
        if let Some(tracker) = &mut self.baseline {
            tracker.apply(&mut result);
        }
        let auth = super::cause::AuthFix {
            variable: &self.config.token_env,
            token_given: self.config.token.is_some(),
        };
        result.cause = super::cause::systematic(&result, &auth);
        let counts = if result.self_check {
            &mut self.tally.self_checks
        } else {
            &mut self.tally.counts
        };
        *counts.entry(result.outcome).or_default() += 1;
        if super::auth::is_refused(&result) {
            self.tally.auth_refused += 1;
        }
        if result.outcome == Outcome::Pass
            && result
                .notes
                .iter()
                .any(|n| n == super::witnessed::REACH_UNSEEN)
        {
            self.tally.reach_unseen += 1;
        }
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
        for held in std::mem::take(&mut self.require).settle(self.config) {
            self.record(held.result, held.index);
        }
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
        // Every planned case appears in every report: one the stop left undecided is
        // blocked (the deadline bounds the run, Ctrl-C ends it: neither is a verdict),
        // so a CI viewer never counts fewer cases than were planned.
        if let Some(reason) = stopped {
            let undecided: Vec<PlannedCase> =
                std::mem::take(&mut self.undecided).into_values().collect();
            self.block_all(&undecided, reason);
        }
        stopped
    }

    /// Decides each of `cases` as blocked by `reason` (`--deadline`, Ctrl-C).
    pub fn block_all(&mut self, cases: &[PlannedCase], reason: StopReason) {
        let why = match reason {
            StopReason::Deadline => format!("{reason} before the case was decided"),
            StopReason::Interrupted => crate::stop::NEVER_RAN.to_string(),
        };
        for p in cases {
            let case = &self.suite.cases[p.case];
            let result = result_without_exchange(p, case, Outcome::Blocked, Some(why.clone()));
            self.decide(result, p.index, p.case);
        }
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
            selection: crate::exit::Selection {
                profile: self.config.protocol.unwrap_or_default().to_string(),
                filtered: !self.config.filters.is_empty(),
                other_profiles: self.suite.left_out.clone(),
            },
        };
        let mut tally = self.tally;
        let config = self.config;
        tally.advice.extend(super::auth::advice(
            tally.auth_refused,
            &config.token_env,
            config.token.is_some(),
        ));
        // Once per run, not a note on every line: the cure is the same for all of them.
        if tally.reach_unseen > 0 {
            tally.advice.push(format!(
                "{} pass(es) could not see whether the media reached the model: run with --witness to see what the host's model receives",
                tally.reach_unseen
            ));
        }
        (tally, facts)
    }
}
