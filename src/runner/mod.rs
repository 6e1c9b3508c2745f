//! Executing a run: discovery, planning, the seam probes, the cases (concurrently,
//! bounded by `-j`), and the summary. Everything observable leaves as [`Event`]s.

pub mod case;
pub mod discovery;
pub mod document;
pub mod http;
pub mod judge;
pub mod offline;
pub mod schemas;
pub mod stop;

use crate::config::{RunConfig, Target};
use crate::event::{Event, RunInfo, RunSummary};
use crate::exit::{self, RunFacts};
use crate::outcome::{CaseResult, Outcome};
use crate::plan::{self, Disposition};
use crate::profile::openwop::{self, part::PartInputs};
use crate::scenario::suite::Suite;
use case::{CaseEnv, result_without_exchange};
use http::{HttpClient, HttpSettings};
use schemas::SchemaCatalog;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;
use stop::{Stop, StopReason};
use tokio::sync::{Semaphore, mpsc};

/// Where events go; a closed receiver is not an error for the run.
pub type EventSink = mpsc::UnboundedSender<Event>;

/// The target as the runner needs it: a base URL and how to show it.
#[derive(Debug, Clone)]
pub struct ResolvedTarget {
    pub base_url: String,
    pub label: String,
}

pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

pub fn new_nonce() -> String {
    let mut bytes = [0u8; 8];
    // Falling back to the clock keeps the run going on a machine without an entropy source;
    // the nonce only has to be unlikely to appear in a host's answer by chance.
    if getrandom::fill(&mut bytes).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        bytes = (t.as_nanos() as u64).to_le_bytes();
    }
    crate::scenario::load::hex(&bytes)
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

pub struct RunOutput {
    pub summary: RunSummary,
}

/// Everything a case task needs, owned so tasks can be `'static`.
struct Shared {
    client: Arc<HttpClient>,
    catalog: SchemaCatalog,
    context: serde_json::Value,
    nonce: String,
    config: Arc<RunConfig>,
}

impl Shared {
    fn part_inputs(&self) -> PartInputs<'_> {
        PartInputs {
            dialect: self.config.dialect,
            nonce: &self.nonce,
            media_base_url: self.config.media_base_url.as_deref(),
            media_refs: &self.config.media_refs,
        }
    }

    fn env(&self) -> CaseEnv<'_> {
        CaseEnv {
            client: &self.client,
            catalog: &self.catalog,
            major: self.config.openwop_major,
            context: &self.context,
            nonce: &self.nonce,
            strict: self.config.strict,
            part_inputs: self.part_inputs(),
        }
    }
}

fn run_info(config: &RunConfig, suite: &Suite, target: &ResolvedTarget, nonce: &str) -> RunInfo {
    RunInfo {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        profile: "openwop".into(),
        target: target.label.clone(),
        dialect: config.dialect.as_str().into(),
        openwop_major: config.openwop_major,
        strict: config.strict,
        require: config.require,
        opted_out_profiles: config.opted_out_profiles.clone(),
        filters: config.filter_text.clone(),
        concurrency: config.concurrency,
        started_at: now_rfc3339(),
        nonce: nonce.to_string(),
        scenario_set_sha256: suite.set_sha256.clone(),
        scenario_files: suite.files.iter().map(|(n, _)| n.clone()).collect(),
        warnings: config.warnings.clone(),
        insecure_tls: config.tls.insecure,
    }
}

/// Outcome counts so far, and how many decided cases needed a retry.
#[derive(Debug, Default)]
struct Tally {
    counts: BTreeMap<Outcome, usize>,
    flaky: usize,
}

impl Tally {
    fn add(&mut self, result: &CaseResult) {
        *self.counts.entry(result.outcome).or_default() += 1;
        if result.exchanges.iter().any(|e| e.retries > 0) {
            self.flaky += 1;
        }
    }
}

/// Why a planned case cannot run now, if it cannot: unusable discovery, missing seam.
fn not_runnable(
    endpoint: Option<&str>,
    discovery_problem: Option<&String>,
    seams: &BTreeMap<String, Option<String>>,
) -> Option<(Outcome, String)> {
    let endpoint = endpoint?;
    if endpoint == "discovery" {
        return None;
    }
    if let Some(problem) = discovery_problem {
        return Some((Outcome::Blocked, format!("discovery unusable: {problem}")));
    }
    seams
        .get(endpoint)
        .cloned()
        .flatten()
        .map(|reason| (Outcome::Blocked, reason))
}

/// Runs the whole suite against the target and emits events to `sink`.
pub async fn execute(
    config: Arc<RunConfig>,
    suite: Arc<Suite>,
    target: ResolvedTarget,
    sink: EventSink,
) -> RunOutput {
    let started = Instant::now();
    let nonce = new_nonce();
    let emit = |e: Event| {
        let _ = sink.send(e);
    };
    emit(Event::RunStarted(run_info(
        &config, &suite, &target, &nonce,
    )));
    let offline = matches!(config.target, Target::Offline);

    let stop = Stop::watch(
        config
            .deadline
            .map(|d| tokio::time::Instant::from_std(started) + d),
    );
    let settings = HttpSettings::for_run(&config, &target.base_url);
    let client = match HttpClient::new(settings, config.redactor(), stop.clone()) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            let facts = RunFacts {
                discovery_problem: Some(e),
                interrupted: false,
            };
            return finish(&sink, Tally::default(), &facts, started, None);
        }
    };
    let interrupted_early = |stop: &Stop| {
        (stop.reason() == Some(StopReason::Interrupted)).then(|| {
            let facts = RunFacts {
                discovery_problem: None,
                interrupted: true,
            };
            finish(
                &sink,
                Tally::default(),
                &facts,
                started,
                Some(StopReason::Interrupted),
            )
        })
    };

    let disc = if offline {
        None
    } else {
        Some(discovery::fetch(&client, &config).await)
    };
    if let Some(output) = interrupted_early(&stop) {
        return output;
    }
    if let Some(d) = &disc {
        emit(Event::Discovery(d.snapshot.clone()));
    }
    let context = match &disc {
        Some(d) => d.context.clone(),
        None => discovery::context(None, &config),
    };
    let discovery_problem = disc.as_ref().and_then(|d| d.problem.clone());
    let planned = plan::plan(&suite, &context, &config.filters, &nonce);
    emit(Event::Planned {
        total: planned.len(),
    });

    // Probe each seam the runnable cases need, once.
    let endpoints: BTreeSet<&str> = planned
        .iter()
        .filter(|p| p.disposition == Disposition::Run)
        .filter_map(|p| suite.cases[p.case].spec.endpoint())
        .filter(|e| *e != "discovery")
        .collect();
    let mut seams: BTreeMap<String, Option<String>> = BTreeMap::new();
    if !offline && discovery_problem.is_none() {
        for endpoint in endpoints {
            let blocked = match openwop::seam(endpoint, config.openwop_major) {
                Some(seam) => discovery::probe_seam(&client, &seam).await,
                None => Some(format!("unknown endpoint `{endpoint}`")),
            };
            seams.insert(endpoint.to_string(), blocked);
        }
    }
    if let Some(output) = interrupted_early(&stop) {
        return output;
    }

    let shared = Arc::new(Shared {
        client,
        catalog: SchemaCatalog::new(config.schemas_dir.clone()),
        context,
        nonce,
        config: config.clone(),
    });
    let semaphore = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut tally = Tally::default();
    // Cases handed to a task and not decided yet, for the deadline to block.
    let mut undecided: BTreeMap<usize, plan::PlannedCase> = BTreeMap::new();
    let decided = |mut result: CaseResult, index: usize, case: usize, tally: &mut Tally| {
        apply_require(
            &mut result,
            &config,
            suite.cases[case].conformance_profile.as_deref(),
        );
        tally.add(&result);
        emit(Event::CaseFinished {
            index,
            result: Box::new(result),
        });
    };

    for p in planned.iter().cloned() {
        let case = &suite.cases[p.case];
        let endpoint = case.spec.endpoint();
        // Offline, a case that needs a target is not evaluated at all: its applicability
        // would be judged against a discovery document that does not exist.
        let disposition = match (&p.disposition, offline && endpoint.is_some()) {
            (Disposition::Excluded(_), _) | (_, false) => p.disposition.clone(),
            (_, true) => Disposition::Excluded("needs a target: this is an --offline run".into()),
        };
        let immediate = match &disposition {
            Disposition::Excluded(r) => Some(result_without_exchange(
                &p,
                case,
                Outcome::Excluded,
                Some(r.clone()),
            )),
            Disposition::Skip(r) => Some(result_without_exchange(
                &p,
                case,
                Outcome::Skip,
                Some(r.clone()),
            )),
            Disposition::Error(r) => Some(result_without_exchange(
                &p,
                case,
                Outcome::Error,
                Some(r.clone()),
            )),
            Disposition::Run => match not_runnable(endpoint, discovery_problem.as_ref(), &seams) {
                Some((outcome, reason)) => {
                    Some(result_without_exchange(&p, case, outcome, Some(reason)))
                }
                None if endpoint.is_none() => {
                    Some(offline::run_validate_case(&p, case, &shared.env()))
                }
                None if endpoint == Some("discovery") => match &disc {
                    Some(d) => Some(discovery::judge_cached(&p, case, &shared.env(), d)),
                    None => Some(result_without_exchange(
                        &p,
                        case,
                        Outcome::Blocked,
                        Some("no discovery".into()),
                    )),
                },
                None => None,
            },
        };
        if let Some(result) = immediate {
            decided(result, p.index, p.case, &mut tally);
            continue;
        }
        undecided.insert(p.index, p.clone());
        let (shared, suite, semaphore) = (shared.clone(), suite.clone(), semaphore.clone());
        tasks.spawn(async move {
            let _permit = semaphore.acquire_owned().await;
            let result = case::run_seam_case(&p, &suite.cases[p.case], &shared.env()).await;
            (p, result)
        });
    }

    let mut stopped = stop.reason();
    while stopped.is_none() {
        tokio::select! {
            joined = tasks.join_next() => {
                let Some(joined) = joined else { break };
                match joined {
                    Ok((p, result)) => {
                        undecided.remove(&p.index);
                        decided(result, p.index, p.case, &mut tally);
                    }
                    Err(e) => {
                        // A panicking case task is a tool defect; count it so the run exits 70.
                        *tally.counts.entry(Outcome::Error).or_default() += 1;
                        eprintln!("mmconform: internal error in a case task: {e}");
                    }
                }
            }
            reason = stop.wait() => stopped = Some(reason),
        }
    }
    if stopped.is_some() {
        tasks.abort_all();
    }
    if stopped == Some(StopReason::Deadline) {
        // Every case still in flight or waiting for its turn is decided now: the
        // deadline is a bound on the run, not a verdict on the host.
        for p in std::mem::take(&mut undecided).into_values() {
            let case = &suite.cases[p.case];
            let reason = "deadline reached (--deadline) before the case was decided".to_string();
            let result = result_without_exchange(&p, case, Outcome::Blocked, Some(reason));
            decided(result, p.index, p.case, &mut tally);
        }
    }

    let facts = RunFacts {
        discovery_problem,
        interrupted: stopped == Some(StopReason::Interrupted),
    };
    finish(&sink, tally, &facts, started, stopped)
}

fn finish(
    sink: &EventSink,
    tally: Tally,
    facts: &RunFacts,
    started: Instant,
    stopped: Option<StopReason>,
) -> RunOutput {
    let decision = exit::decide(&tally.counts, facts);
    let summary = RunSummary {
        counts: tally.counts,
        exit_code: decision.code,
        verdict: decision.verdict.to_string(),
        explanation: decision.explanation,
        duration_ms: started.elapsed().as_millis() as u64,
        finished_at: now_rfc3339(),
        incomplete: stopped == Some(StopReason::Interrupted),
        flaky: tally.flaky,
        deadline_reached: stopped == Some(StopReason::Deadline),
    };
    let _ = sink.send(Event::RunFinished(summary.clone()));
    RunOutput { summary }
}
