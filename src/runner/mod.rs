//! Executing a run: discovery, planning, the seam probes, the cases (concurrently,
//! bounded by `-j`), and the summary. Everything observable leaves as [`Event`]s.

pub mod agui;
pub mod case;
pub mod discovery;
pub mod document;
pub mod http;

pub mod ledger;
pub mod offline;

pub mod sse;
pub mod stop;
pub mod target;

use crate::config::{Profile, RunConfig, Target};
use crate::event::{BaselineInfo, DiscoverySnapshot, Event, RunInfo, RunSummary};
use crate::exit::{self, RunFacts};
use crate::judge::catalog::SchemaCatalog;
use crate::outcome::Outcome;
use crate::plan::{self, Disposition};
use crate::profile::openwop::{self, part::PartInputs};
use crate::scenario::suite::Suite;
use case::{CaseEnv, result_without_exchange};
use http::{HttpClient, HttpSettings};
use ledger::{Ledger, Tally};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;
use stop::{Stop, StopReason};
use tokio::sync::mpsc;

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
    let (protocol_options, protocol_view) = match config.profile.declaration() {
        Some(_) => Default::default(),
        None => openwop::evidence::run_options(config.dialect, config.openwop_major),
    };
    RunInfo {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        profile: config.profile.name().into(),
        target: target.label.clone(),
        protocol_options,
        strict: config.strict,
        require: config.require,
        opted_out_profiles: config.opted_out_profiles.clone(),
        filters: config.filter_text.clone(),
        concurrency: config.concurrency,
        started_at: now_rfc3339(),
        nonce: nonce.to_string(),
        scenario_set_sha256: suite.set_sha256.clone(),
        scenario_files: suite.files.clone(),
        baseline: config.baseline.as_ref().map(|b| BaselineInfo {
            file: b.file.clone(),
            sha256: b.sha256.clone(),
            entries: b.entries.len(),
        }),
        declared: config
            .profile
            .declaration()
            .map(crate::profile::agui::evidence::of_declaration),
        warnings: config.warnings.clone(),
        insecure_tls: config.tls.insecure,
        protocol_view,
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

/// Runs the whole suite against the target and emits events to `sink`. `stop` ends
/// the run early (`--deadline`, Ctrl-C): see [`stop`].
pub async fn execute(
    config: Arc<RunConfig>,
    suite: Arc<Suite>,
    target: ResolvedTarget,
    sink: EventSink,
    stop: Stop,
) -> RunOutput {
    if let Profile::Agui(_) = config.profile {
        return agui::execute(config, suite, target, sink, stop).await;
    }
    // A run plans only the cases of its own profile.
    let suite = Arc::new(suite.for_profile(config.profile.name()));
    let started = Instant::now();
    let nonce = new_nonce();
    let emit = |e: Event| {
        let _ = sink.send(e);
    };
    emit(Event::RunStarted(Box::new(run_info(
        &config, &suite, &target, &nonce,
    ))));
    let offline = matches!(config.target, Target::Offline);

    let settings = HttpSettings::for_run(&config, &target.base_url);
    let client = match HttpClient::new(settings, config.redactor(), stop.clone()) {
        Ok(c) => Arc::new(c),
        Err(e) => return no_client(&sink, &target, e, started),
    };

    let disc = if offline {
        None
    } else {
        Some(discovery::fetch(&client, &config).await)
    };
    if let Some(output) = interrupted_early(&sink, &stop, started) {
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
    if let Some(output) = interrupted_early(&sink, &stop, started) {
        return output;
    }

    let shared = Arc::new(Shared {
        client,
        catalog: SchemaCatalog::new(config.schemas_dir.clone()),
        context,
        nonce,
        config: config.clone(),
    });
    let mut ledger = Ledger::new(&config, &suite, &sink);

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
            ledger.decide(result, p.index, p.case);
            continue;
        }
        let (shared, suite, planned) = (shared.clone(), suite.clone(), p.clone());
        ledger.spawn(p, async move {
            case::run_seam_case(&planned, &suite.cases[planned.case], &shared.env()).await
        });
    }
    ledger.conclude(discovery_problem, &stop, started).await
}

/// The HTTP client could not be built (a bad `--cacert`, say): nothing can run. The
/// reason is recorded as discovery's problem, so every report says why.
fn no_client(sink: &EventSink, target: &ResolvedTarget, e: String, started: Instant) -> RunOutput {
    let _ = sink.send(Event::Discovery(DiscoverySnapshot {
        url: target.base_url.clone(),
        status: None,
        document: None,
        canonical_sha256: None,
        problem: Some(e.clone()),
        facts: serde_json::Value::Null,
    }));
    let facts = RunFacts {
        discovery_problem: Some(e),
        ..RunFacts::default()
    };
    finish(sink, Tally::default(), &facts, started, None)
}

/// Ctrl-C before any case was handed out: the run ends now, reports marked incomplete.
fn interrupted_early(sink: &EventSink, stop: &Stop, started: Instant) -> Option<RunOutput> {
    (stop.reason() == Some(StopReason::Interrupted)).then(|| {
        let facts = RunFacts {
            interrupted: true,
            ..RunFacts::default()
        };
        finish(
            sink,
            Tally::default(),
            &facts,
            started,
            Some(StopReason::Interrupted),
        )
    })
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
        baseline_drift: facts.baseline_drift.clone(),
        flaky: tally.flaky,
        deadline_reached: stopped == Some(StopReason::Deadline),
    };
    let _ = sink.send(Event::RunFinished(summary.clone()));
    RunOutput { summary }
}
