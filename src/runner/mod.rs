//! Executing a run, for every protocol: the session learns the context and plans
//! ([`session`]), the protocol probes its endpoints, every planned case is settled
//! (`plan::settle`), and the cases that send run concurrently (bounded by `-j`)
//! through the [`ledger`]. Everything observable leaves as [`Event`]s.

pub mod auth;
pub mod cause;
pub mod ledger;
pub mod offline;
pub mod probing;
pub mod require;
pub mod session;
pub mod target;
pub mod unusable;
pub mod verdict;
pub mod witnessed;

use crate::event::{BaselineInfo, DiscoverySnapshot, Event, RunInfo, RunSummary};
use crate::exit::{self, RunFacts};
use crate::http::HttpClient;
use crate::judge::catalog::SchemaCatalog;
use crate::plan::result::{error_unsent, result_without_exchange};
use crate::plan::settle::{self, Settled, Situation};
use crate::protocol::{CaseInput, Probed, ProtocolRun};
use crate::stop::{Stop, StopReason};
use crate::witness::RunningWitness;
use ledger::{Ledger, Tally};
use session::Session;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Where events go; a closed receiver is not an error for the run.
pub type EventSink = mpsc::UnboundedSender<Event>;

/// The target as the runner needs it: a base URL and how to show it.
#[derive(Debug, Clone)]
pub struct ResolvedTarget {
    pub base_url: String,
    pub label: String,
}

impl ResolvedTarget {
    /// No target: only offline cases run. Nothing is ever sent to the URL.
    pub fn offline(label: Option<String>) -> ResolvedTarget {
        ResolvedTarget {
            base_url: "http://127.0.0.1:9".into(),
            label: label.unwrap_or_else(|| "offline (no target: only offline cases run)".into()),
        }
    }
}

pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// The variable that fixes the run's nonce (16 hex digits), so that two runs of the same
/// build send byte-identical requests: a developer's aid for comparing `--export-hurl`
/// files across a change that must not alter what is sent. Any other value is ignored.
pub const RUN_NONCE_ENV: &str = "MMCONFORM_RUN_NONCE";

pub fn new_nonce() -> String {
    if let Ok(fixed) = std::env::var(RUN_NONCE_ENV)
        && fixed.len() == 16
        && fixed
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return fixed;
    }
    let mut bytes = [0u8; 8];
    // Falling back to the clock keeps the run going on a machine without an entropy source;
    // the nonce only has to be unlikely to appear in a host's answer by chance.
    if getrandom::fill(&mut bytes).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        bytes = (t.as_nanos() as u64).to_le_bytes();
    }
    crate::digest::hex(&bytes)
}

pub struct RunOutput {
    pub summary: RunSummary,
}

fn run_info(session: &Session, nonce: &str) -> RunInfo {
    let config = &session.config;
    let (protocol_options, protocol_view) = session.protocol.options();
    RunInfo {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        profile: session.protocol_name.into(),
        target: session.target.label.clone(),
        protocol_options,
        strict: config.strict,
        require: config.require,
        opted_out_profiles: config.opted_out_profiles.clone(),
        filters: config.filter_text.clone(),
        concurrency: config.concurrency,
        started_at: now_rfc3339(),
        nonce: nonce.to_string(),
        scenario_set_sha256: session.suite.set_sha256.clone(),
        scenario_files: session.suite.files.clone(),
        baseline: config.baseline.as_ref().map(|b| BaselineInfo {
            file: b.file.clone(),
            sha256: b.sha256.clone(),
            entries: b.entries.len(),
        }),
        declared: session.protocol.declared(),
        warnings: config.warnings.clone(),
        insecure_tls: config.tls.insecure,
        witness: config.witness_url.clone(),
        rerun_base: config.rerun_base.clone(),
        report_file: (config.output.report)
            .as_ref()
            .map(|p| p.display().to_string()),
        protocol_view,
    }
}

/// Everything a case task needs, owned so tasks can be `'static`.
struct Shared {
    protocol: Box<dyn ProtocolRun>,
    client: HttpClient,
    catalog: SchemaCatalog,
    contexts: crate::plan::contexts::Contexts,
    strict: bool,
    /// The run's witness and how long a case waits for its model call.
    witness: Option<(Arc<RunningWitness>, Duration)>,
}

impl Shared {
    fn input<'a>(
        &'a self,
        planned: &'a crate::plan::PlannedCase,
        suite: &'a crate::scenario::suite::Suite,
    ) -> CaseInput<'a> {
        CaseInput {
            planned,
            case: &suite.cases[planned.case],
            client: &self.client,
            catalog: &self.catalog,
            context: self.contexts.of(&suite.cases[planned.case]),
            nonce: &planned.nonce,
        }
    }
}

/// Runs the session's plan against its target and emits events to `sink`. `stop` ends
/// the run early (`--deadline`, Ctrl-C): see [`stop`].
pub async fn execute(mut session: Session, sink: EventSink, stop: Stop) -> RunOutput {
    let started = Instant::now();
    let nonce = new_nonce();
    let emit = |e: Event| {
        let _ = sink.send(e);
    };
    emit(Event::RunStarted(Box::new(run_info(&session, &nonce))));
    let client = match session.client(stop.clone()) {
        Ok(c) => c,
        Err(e) => return no_client(&sink, &session.target, e, started),
    };
    let offline = session.offline();
    let planned = session.plan((!offline).then_some(&client), &nonce).await;
    if let Some(snapshot) = &planned.snapshot {
        emit(Event::Discovery(snapshot.clone()));
    }
    emit(Event::Planned {
        total: planned.cases.len(),
    });
    if stop.reason() == Some(StopReason::Interrupted) {
        return interrupted(&session, &sink, &planned.cases, &stop, &client, started).await;
    }
    let unusable = planned
        .problem
        .as_ref()
        .map(|p| format!("discovery unusable: {p}"));
    let endpoints = settle::endpoints(&planned.cases, &session.suite);
    // With a usable description and a protocol that allows it, the cases do not wait
    // for the probes (see `probing`).
    let send_early = !offline
        && unusable.is_none()
        && !endpoints.is_empty()
        && session.protocol.send_while_probing();
    let probe_first = !send_early;
    let found = probe_and_settle(
        &session,
        &client,
        &planned,
        &endpoints,
        &nonce,
        unusable.as_deref(),
        probe_first,
    );
    let (settled, unreachable) = match found.await {
        Some(found) => found,
        None => {
            return interrupted(&session, &sink, &planned.cases, &stop, &client, started).await;
        }
    };
    if let Some(reason) = unusable.clone().or(unreachable.clone()) {
        let proxy = session.config.proxy.as_deref();
        let hint = unusable::hint(&reason, &session.target, proxy);
        emit(Event::TargetUnusable { reason, hint });
    }
    let problem = planned.problem.clone().or(unreachable);
    let target = session.target.clone();
    let proxy = session.config.proxy.clone();
    let Session {
        config,
        suite,
        protocol,
        witness,
        ..
    } = session;
    let shared = Arc::new(Shared {
        protocol,
        client,
        catalog: SchemaCatalog::new(config.schemas_dir.clone()),
        contexts: planned.contexts,
        strict: config.strict,
        witness: witness.map(|w| (w, config.witness_wait)),
    });
    let mut ledger = Ledger::new(&config, &suite, &sink);
    ledger.expect(&planned.cases);
    let gate = send_early.then(probing::ProbeGate::default);
    dispatch(
        &mut ledger,
        &shared,
        &suite,
        planned.cases,
        settled,
        gate.as_ref(),
    );
    let problem = match gate {
        Some(gate) => {
            let (protocol, client) = (shared.protocol.as_ref(), &shared.client);
            let unreachable =
                probing::probe_and_open(gate, protocol, client, &endpoints, &nonce).await;
            if let Some(reason) = unreachable.clone() {
                let hint = unusable::hint(&reason, &target, proxy.as_deref());
                emit(Event::TargetUnusable { reason, hint });
            }
            problem.or(unreachable)
        }
        None => problem,
    };
    let output = ledger
        .conclude(problem, &stop, started, &shared.client)
        .await;
    // A protocol with a process of its own (ACP's agent) ends it now, politely.
    shared.protocol.finish().await;
    output
}

/// Hands every settled case to the ledger. The cases that send go first, so the host
/// is busy while the rest are decided here (offline validations compile schemas,
/// discovery cases judge the document); with a `gate`, each sent case then waits for
/// the probes' findings.
fn dispatch(
    ledger: &mut Ledger,
    shared: &Arc<Shared>,
    suite: &Arc<crate::scenario::suite::Suite>,
    cases: Vec<crate::plan::PlannedCase>,
    settled: Vec<Settled>,
    gate: Option<&probing::ProbeGate>,
) {
    let (sending, decided): (Vec<_>, Vec<_>) = cases
        .into_iter()
        .zip(settled)
        .partition(|(p, s)| *s == Settled::Send && !shared.protocol.on_hand(&suite.cases[p.case]));
    for (p, _) in sending {
        let (shared, suite, planned) = (shared.clone(), suite.clone(), p.clone());
        let wait = gate.map(probing::ProbeGate::wait);
        ledger.spawn(p, async move {
            let mut findings = send_case(&shared, &planned, &suite).await;
            if let Some(wait) = wait {
                let endpoint = suite.cases[planned.case].spec.endpoint();
                findings.probe_unusable = probing::probe_finding(wait, endpoint).await;
            }
            verdict::decide(findings, shared.strict)
        });
    }
    let decide =
        |observation| verdict::decide(verdict::Findings::observed(observation), shared.strict);
    for (p, settled) in decided {
        let case = &suite.cases[p.case];
        let input = shared.input(&p, suite);
        let result = match settled {
            // Planning decided it (not applicable, excluded, its endpoint unusable).
            Settled::Decided(outcome, reason) => {
                result_without_exchange(&p, case, outcome, Some(reason))
            }
            Settled::Validate => decide(offline::run_validate_case(&input)),
            Settled::Send => decide(shared.protocol.observe_on_hand(&input).unwrap_or_else(|| {
                let why = "the protocol said it judges this case on hand, then did not";
                error_unsent(&p, case, why.into())
            })),
        };
        ledger.decide(result, p.index, p.case);
    }
}

/// Sends one case through its protocol, then records what reached the model when the
/// run has a witness: what the case's verdict rests on.
async fn send_case(
    shared: &Shared,
    planned: &crate::plan::PlannedCase,
    suite: &crate::scenario::suite::Suite,
) -> verdict::Findings {
    let mut observation = shared.protocol.run_case(shared.input(planned, suite)).await;
    let spec = &suite.cases[planned.case].spec;
    let context = shared.contexts.of(&suite.cases[planned.case]);
    let resolve = planned.resolver(context, &planned.nonce, &spec.id);
    let witness = match (&shared.witness, spec.expect.witness) {
        (Some((witness, wait)), _) => {
            let case = witnessed::Witnessed {
                witness,
                wait: *wait,
                nonce: &planned.nonce,
                spec,
                resolve: &resolve,
            };
            let observed = verdict::observed_outcome(&observation, shared.strict);
            let record = &mut observation.record;
            let mut finding = witnessed::record(&case, record, observed).await;
            if let verdict::WitnessFinding::Judged(assertions) = &mut finding {
                shared.protocol.after_witness(record, assertions);
            }
            finding
        }
        // A process run (acp, agentruntime) has no HTTP exchange: its evidence says it ran.
        (None, Some(expect))
            if !observation.record.exchanges.is_empty() || observation.record.stream.is_some() =>
        {
            verdict::WitnessFinding::NotJudged(witnessed::not_evaluated(expect))
        }
        (None, _) => verdict::WitnessFinding::Nothing,
    };
    let sent_credentials = spec.request.as_ref().is_none_or(|r| r.auth);
    let auth_refused = sent_credentials
        .then(|| auth::refusal(&observation.record.exchanges))
        .flatten();
    let hint = spec
        .hint
        .as_ref()
        .and_then(|hint| crate::scenario::template::render_text(hint, &resolve).ok());
    verdict::Findings {
        observation,
        witness,
        auth_refused,
        hint,
        probe_unusable: None,
    }
}

/// Probes the endpoints the runnable cases need (unless `probe_first` is off: the
/// cases are then sent while the probes are in flight, see [`probing`]) and settles
/// every planned case; the target being unreachable comes back as the problem. `None`:
/// interrupted meanwhile.
async fn probe_and_settle(
    session: &Session,
    client: &HttpClient,
    planned: &session::Planned,
    endpoints: &std::collections::BTreeSet<String>,
    nonce: &str,
    unusable: Option<&str>,
    probe_first: bool,
) -> Option<(Vec<Settled>, Option<String>)> {
    let probed = if !probe_first || session.offline() || endpoints.is_empty() {
        Probed::default()
    } else {
        session.protocol.probe(client, endpoints, nonce).await
    };
    if client.stop().reason() == Some(StopReason::Interrupted) {
        return None;
    }
    let settled = planned
        .cases
        .iter()
        .map(|p| {
            // A variant's own description, unusable, blocks its cases only.
            let case = &session.suite.cases[p.case];
            let situation = Situation {
                offline: session.offline(),
                probed: &probed,
                unusable: unusable.or(planned.contexts.problem(case)),
            };
            settle::settle(p, &session.suite, &situation)
        })
        .collect();
    Some((settled, probed.problem))
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
        variants: Default::default(),
        notes: Vec::new(),
    }));
    let facts = RunFacts {
        discovery_problem: Some(e),
        ..RunFacts::default()
    };
    finish(sink, Tally::default(), &facts, started, None)
}

/// Ctrl-C before any case was handed out: the run ends now, reports marked incomplete,
/// every planned case in them as blocked (it never ran).
async fn interrupted(
    session: &Session,
    sink: &EventSink,
    cases: &[crate::plan::PlannedCase],
    stop: &Stop,
    client: &HttpClient,
    started: Instant,
) -> RunOutput {
    let mut ledger = Ledger::new(&session.config, &session.suite, sink);
    ledger.block_all(cases, StopReason::Interrupted);
    ledger.conclude(None, stop, started, client).await
}

pub(crate) fn finish(
    sink: &EventSink,
    tally: Tally,
    facts: &RunFacts,
    started: Instant,
    stopped: Option<StopReason>,
) -> RunOutput {
    let decision = exit::decide(
        &exit::deciding_counts(&tally.counts, &tally.self_checks),
        facts,
    );
    let summary = RunSummary {
        counts: tally.counts,
        self_checks: tally.self_checks,
        exit_code: decision.code,
        verdict: decision.verdict.to_string(),
        explanation: decision.explanation,
        duration_ms: started.elapsed().as_millis() as u64,
        finished_at: now_rfc3339(),
        incomplete: stopped == Some(StopReason::Interrupted),
        baseline_drift: facts.baseline_drift.clone(),
        flaky: tally.flaky,
        deadline_reached: stopped == Some(StopReason::Deadline),
        advice: tally.advice,
    };
    let _ = sink.send(Event::RunFinished(summary.clone()));
    RunOutput { summary }
}
