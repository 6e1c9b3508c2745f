//! Executing a run: discovery, planning, the seam probe, the cases (concurrently,
//! bounded by `-j`), and the summary. Everything observable leaves as [`Event`]s.

pub mod case;
pub mod discovery;
pub mod http;
pub mod judge;
pub mod schemas;

use crate::config::RunConfig;
use crate::event::{Event, RunInfo, RunSummary};
use crate::exit::{self, RunFacts};
use crate::outcome::{CaseResult, Outcome};
use crate::plan::{self, Disposition};
use crate::profile::openwop::{self, part::PartInputs};
use crate::redact::Redactor;
use crate::scenario::suite::Suite;
use case::{CaseEnv, result_without_exchange};
use http::{HttpClient, HttpSettings};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;
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
    if conformance_profile.is_some_and(|p| config.opted_out_profiles.iter().any(|o| o == p)) {
        result.notes.push(format!(
            "profile {} is opted out, so --require does not apply",
            conformance_profile.unwrap_or("")
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
    emit(Event::RunStarted(RunInfo {
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
        nonce: nonce.clone(),
        scenario_set_sha256: suite.set_sha256.clone(),
        scenario_files: suite.files.iter().map(|(n, _)| n.clone()).collect(),
    }));

    let redactor = Redactor::new(config.token.iter().map(|t| t.value.clone()));
    let settings = HttpSettings {
        base_url: target.base_url.clone(),
        token: config.token.as_ref().map(|t| t.value.clone()),
        headers: config.headers.clone(),
        timeout: config.timeout,
        max_response_bytes: config.max_response_bytes,
    };
    let mut counts: BTreeMap<Outcome, usize> = BTreeMap::new();
    let client = match HttpClient::new(settings, redactor) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            let facts = RunFacts {
                discovery_problem: Some(e),
                interrupted: false,
            };
            return finish(&sink, BTreeMap::new(), &facts, started, false);
        }
    };

    let disc = discovery::fetch(&client, &config, &target).await;
    emit(Event::Discovery(disc.snapshot.clone()));
    let context = disc.context.clone();
    let planned = plan::plan(&suite, &context, &config.filters, &nonce);
    emit(Event::Planned {
        total: planned.len(),
    });

    let (ai_path, ai_header) = openwop::ai_call_seam(config.openwop_major);
    let needs_seam = planned.iter().any(|p| {
        p.disposition == Disposition::Run && suite.cases[p.case].spec.request.endpoint == "ai-call"
    });
    let seam_blocked = if needs_seam && disc.problem.is_none() {
        discovery::probe_seam(&client, ai_path, ai_header).await
    } else {
        None
    };

    let part_inputs = PartInputs {
        dialect: config.dialect,
        nonce: &nonce,
        media_base_url: config.media_base_url.as_deref(),
        media_refs: &config.media_refs,
    };
    let env = Arc::new(OwnedEnv {
        client: client.clone(),
        context: context.clone(),
        nonce: nonce.clone(),
        strict: config.strict,
        ai_path: ai_path.to_string(),
        ai_headers: ai_header
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        dialect: part_inputs.dialect,
        media_base_url: config.media_base_url.clone(),
        media_refs: config.media_refs.clone(),
    });
    let semaphore = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    let mut interrupted = false;

    for p in planned.iter().cloned() {
        let case = &suite.cases[p.case];
        let immediate = match &p.disposition {
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
            Disposition::Run if case.spec.request.endpoint == "discovery" => Some(
                discovery::judge_cached(&p, case, &env.borrow(&part_inputs), &disc),
            ),
            Disposition::Run => match (&disc.problem, &seam_blocked) {
                (Some(problem), _) => Some(result_without_exchange(
                    &p,
                    case,
                    Outcome::Blocked,
                    Some(format!("discovery unusable: {problem}")),
                )),
                (None, Some(reason)) => Some(result_without_exchange(
                    &p,
                    case,
                    Outcome::Blocked,
                    Some(reason.clone()),
                )),
                (None, None) => None,
            },
        };
        if let Some(mut result) = immediate {
            apply_require(&mut result, &config, case.conformance_profile.as_deref());
            *counts.entry(result.outcome).or_default() += 1;
            emit(Event::CaseFinished {
                index: p.index,
                result: Box::new(result),
            });
            continue;
        }
        let (env, suite, semaphore) = (env.clone(), suite.clone(), semaphore.clone());
        tasks.spawn(async move {
            let _permit = semaphore.acquire_owned().await;
            let case = &suite.cases[p.case];
            let inputs = env.part_inputs();
            let result = case::run_seam_case(&p, case, &env.borrow(&inputs)).await;
            (p.index, p.case, result)
        });
    }

    loop {
        tokio::select! {
            joined = tasks.join_next() => {
                let Some(joined) = joined else { break };
                match joined {
                    Ok((index, case_index, mut result)) => {
                        apply_require(&mut result, &config, suite.cases[case_index].conformance_profile.as_deref());
                        *counts.entry(result.outcome).or_default() += 1;
                        emit(Event::CaseFinished { index, result: Box::new(result) });
                    }
                    Err(e) => {
                        // A panicking case task is a tool defect; count it so the run exits 70.
                        *counts.entry(Outcome::Error).or_default() += 1;
                        eprintln!("mmconform: internal error in a case task: {e}");
                    }
                }
            }
            _ = tokio::signal::ctrl_c() => {
                interrupted = true;
                tasks.abort_all();
                break;
            }
        }
    }

    let facts = RunFacts {
        discovery_problem: disc.problem.clone(),
        interrupted,
    };
    finish(&sink, counts, &facts, started, interrupted)
}

fn finish(
    sink: &EventSink,
    counts: BTreeMap<Outcome, usize>,
    facts: &RunFacts,
    started: Instant,
    incomplete: bool,
) -> RunOutput {
    let decision = exit::decide(&counts, facts);
    let summary = RunSummary {
        counts,
        exit_code: decision.code,
        verdict: decision.verdict.to_string(),
        explanation: decision.explanation,
        duration_ms: started.elapsed().as_millis() as u64,
        finished_at: now_rfc3339(),
        incomplete,
    };
    let _ = sink.send(Event::RunFinished(summary.clone()));
    RunOutput { summary }
}

/// The shared, owned half of [`CaseEnv`], so case tasks can be `'static`.
struct OwnedEnv {
    client: Arc<HttpClient>,
    context: serde_json::Value,
    nonce: String,
    strict: bool,
    ai_path: String,
    ai_headers: Vec<(String, String)>,
    dialect: openwop::Dialect,
    media_base_url: Option<String>,
    media_refs: BTreeMap<String, String>,
}

impl OwnedEnv {
    fn part_inputs(&self) -> PartInputs<'_> {
        PartInputs {
            dialect: self.dialect,
            nonce: &self.nonce,
            media_base_url: self.media_base_url.as_deref(),
            media_refs: &self.media_refs,
        }
    }

    fn borrow<'a>(&'a self, inputs: &PartInputs<'a>) -> CaseEnv<'a> {
        CaseEnv {
            client: &self.client,
            context: &self.context,
            nonce: &self.nonce,
            strict: self.strict,
            part_inputs: inputs.clone(),
            ai_call_path: &self.ai_path,
            ai_call_headers: self.ai_headers.clone(),
        }
    }
}
