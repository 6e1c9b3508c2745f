//! Executing an AG-UI run. There is no discovery: the declaration (`--accepts`,
//! `--claims`, or the reference agent's own) is the planning context (`agui.*`). The
//! endpoint is probed once with a plain-text run; then every case is POSTed as its own
//! run, its stream read within bounds, and judged.

pub mod case;
pub mod judge;

use super::http::{HttpClient, HttpSettings};
use super::ledger::{Ledger, Tally};
use super::schemas::SchemaCatalog;
use super::sse;
use super::stop::Stop;
use super::{EventSink, ResolvedTarget, RunOutput, finish, new_nonce, run_info};
use crate::config::RunConfig;
use crate::event::Event;
use crate::exit::RunFacts;
use crate::outcome::Outcome;
use crate::plan::{self, Disposition};
use crate::profile::agui::part::PartInputs;
use crate::profile::agui::run_input::run_input;
use crate::profile::agui::{self, Declaration};
use crate::scenario::suite::Suite;
use case::AguiEnv;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long to wait after the terminal event for events that would break the stream.
const AFTER_TERMINAL_GRACE: Duration = Duration::from_millis(500);

/// The planning context of an agui run: the declared facts and the run's own. The media
/// base URL and file ids are the run's (`--media-base-url`, `--media-ref KIND=ID`, or
/// what the embedded agent offers, filled in by whoever started it).
pub fn context(declaration: &Declaration, config: &RunConfig) -> Value {
    json!({
        "agui": declaration.facts(),
        "run": {
            "tokenConfigured": config.token.is_some(),
            "mediaBaseUrl": config.media_base_url,
            "mediaRefs": config.media_refs,
            "dialect": config.dialect.as_str(),
            "openwopMajor": config.openwop_major,
        },
    })
}

/// What the one plain-text probe run says about the endpoint.
enum Probe {
    Reachable,
    /// Every case would be blocked, with this reason (404/405: not the run endpoint).
    Blocked(String),
    /// The agent cannot be reached at all (exit 4).
    Unreachable(String),
}

async fn probe(client: &HttpClient, grace: Duration, nonce: &str) -> Probe {
    let body = json!({"messages": [{"role": "user", "content": "mmconform endpoint probe"}]});
    let input = run_input(body, &format!("{nonce}-probe"));
    let answer = sse::post_run(client, &input, true, grace).await;
    let url = client.url("");
    match answer.evidence {
        Err(e) => Probe::Unreachable(format!("POST {url} got no answer: {e}")),
        Ok(e) if matches!(e.status, 404 | 405) => Probe::Blocked(format!(
            "POST {url} answered {}: is --target the agent's run endpoint?",
            e.status
        )),
        Ok(_) => Probe::Reachable,
    }
}

/// Runs the agui cases of `suite` against the agent at `target`.
pub async fn execute(
    config: Arc<RunConfig>,
    suite: Arc<Suite>,
    target: ResolvedTarget,
    sink: EventSink,
    stop: Stop,
) -> RunOutput {
    let started = Instant::now();
    let nonce = new_nonce();
    let emit = |e: Event| {
        let _ = sink.send(e);
    };
    emit(Event::RunStarted(Box::new(run_info(
        &config, &suite, &target, &nonce,
    ))));
    let declaration = match config.profile.declaration() {
        Some(d) => d.clone(),
        None => {
            let facts = RunFacts {
                discovery_problem: Some("an agui run needs a declaration".into()),
                ..RunFacts::default()
            };
            return finish(&sink, Tally::default(), &facts, started, None);
        }
    };
    let suite = Arc::new(suite.for_profile(agui::PROFILE));
    let settings = HttpSettings::for_run(&config, &target.base_url);
    let client = match HttpClient::new(settings, config.redactor(), stop.clone()) {
        Ok(c) => c,
        Err(e) => {
            let facts = RunFacts {
                discovery_problem: Some(e),
                ..RunFacts::default()
            };
            return finish(&sink, Tally::default(), &facts, started, None);
        }
    };
    let grace = AFTER_TERMINAL_GRACE.min(config.timeout);
    let context = context(&declaration, &config);
    let planned = plan::plan(&suite, &context, &config.filters, &nonce);
    emit(Event::Planned {
        total: planned.len(),
    });

    let any_runnable = planned.iter().any(|p| p.disposition == Disposition::Run);
    let (blocked, problem) = if any_runnable {
        match probe(&client, grace, &nonce).await {
            Probe::Reachable => (None, None),
            Probe::Blocked(reason) => (Some(reason), None),
            Probe::Unreachable(reason) => (Some(reason.clone()), Some(reason)),
        }
    } else {
        (None, None)
    };

    let shared = Arc::new(Shared {
        client,
        grace,
        catalog: SchemaCatalog::new(config.schemas_dir.clone()),
        context,
        nonce,
        declaration,
        config: config.clone(),
    });
    let mut ledger = Ledger::new(&config, &suite, &sink);

    for p in planned.iter().cloned() {
        let case = &suite.cases[p.case];
        let immediate = match (&p.disposition, &blocked) {
            (Disposition::Excluded(r), _) => Some((Outcome::Excluded, r.clone())),
            (Disposition::Skip(r), _) => Some((Outcome::Skip, r.clone())),
            (Disposition::Error(r), _) => Some((Outcome::Error, r.clone())),
            (Disposition::Run, Some(reason)) => Some((Outcome::Blocked, reason.clone())),
            (Disposition::Run, None) if case.spec.endpoint() != Some(agui::ENDPOINT) => Some((
                Outcome::Error,
                format!(
                    "an agui run cannot send to `{}`",
                    case.spec.endpoint().unwrap_or("(none)")
                ),
            )),
            (Disposition::Run, None) => None,
        };
        if let Some((outcome, reason)) = immediate {
            let result = super::case::result_without_exchange(&p, case, outcome, Some(reason));
            ledger.decide(result, p.index, p.case);
            continue;
        }
        let (shared, suite, planned) = (shared.clone(), suite.clone(), p.clone());
        ledger.spawn(p, async move {
            case::run_case(&planned, &suite.cases[planned.case], &shared.env()).await
        });
    }
    ledger.conclude(problem, &stop, started).await
}

/// Everything a case task needs, owned so tasks can be `'static`.
struct Shared {
    client: HttpClient,
    grace: Duration,
    catalog: SchemaCatalog,
    context: Value,
    nonce: String,
    declaration: Declaration,
    config: Arc<RunConfig>,
}

impl Shared {
    fn env(&self) -> AguiEnv<'_> {
        AguiEnv {
            client: &self.client,
            grace: self.grace,
            catalog: &self.catalog,
            context: &self.context,
            nonce: &self.nonce,
            strict: self.config.strict,
            declaration: &self.declaration,
            part_inputs: PartInputs {
                nonce: &self.nonce,
                media_base_url: self.config.media_base_url.as_deref(),
                file_ids: &self.config.media_refs,
            },
        }
    }
}
