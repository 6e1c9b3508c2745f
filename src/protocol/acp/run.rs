//! One acp run: the agent started and initialized once in `discover` (its
//! `promptCapabilities` are the planning context; an agent that cannot be started is
//! the run's problem, exit 4), the `initialize` case decided on that answer, every
//! prompt case a fresh session on the same agent (`case.rs`), one at a time, and the
//! agent ended at the end of the run. An agent that died during a case is started
//! again for the next one, so one crash fails one case, not the rest.

use super::agent::{Agent, Live};
use super::connection::{Exchange, Unanswered};
use super::declaration::{self, Declared};
use crate::http::HttpClient;
use crate::observation::Observation;
use crate::outcome::{AssertionResult, CaseResult, EvidenceView, ProtocolEvidence};
use crate::plan::result::record_of;
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use tokio::sync::Mutex;

pub struct AcpRun {
    pub(super) agent: Agent,
    pub(super) declared: Declared,
    /// The first `initialize` (and `authenticate`), what the `initialize` case judges.
    handshake: Option<(Exchange, Option<Exchange>, String)>,
    /// The agent the cases share, one at a time.
    pub(super) live: Mutex<Option<Live>>,
}

impl AcpRun {
    pub fn new(agent: Agent) -> AcpRun {
        AcpRun {
            agent,
            declared: Declared::default(),
            handshake: None,
            live: Mutex::new(None),
        }
    }

    pub(super) fn shown(&self) -> String {
        self.agent.command.shown()
    }
}

impl ProtocolRun for AcpRun {
    fn options(&self) -> (Map<String, Value>, EvidenceView) {
        let shown = self.shown();
        let mut options = Map::new();
        options.insert("command".into(), json!(shown));
        options.insert("witness".into(), json!(self.agent.witness_url));
        options.insert("environment".into(), self.agent.settings.record());
        options.insert("auth".into(), json!(self.agent.auth));
        let mut properties = vec![("acp.command".into(), shown.clone())];
        for (name, _) in &self.agent.settings.env {
            properties.push(("acp.env".into(), format!("{name}=<redacted>")));
        }
        for name in &self.agent.settings.unset {
            properties.push(("acp.unset".into(), name.clone()));
        }
        let view = EvidenceView {
            summary: format!("ACP agent {shown}"),
            properties,
            lines: Vec::new(),
        };
        (options, view)
    }

    fn declared(&self) -> Option<ProtocolEvidence> {
        Some(ProtocolEvidence {
            record: json!({"declaredBy": "initialize (agentCapabilities.promptCapabilities)"}),
            view: EvidenceView {
                summary:
                    "promptCapabilities from the agent's initialize (its answer: acp.initialize)"
                        .into(),
                properties: Vec::new(),
                lines: Vec::new(),
            },
        })
    }

    fn discover<'a>(&'a mut self, client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        async move {
            let mut problem = None;
            if let Some(client) = client {
                match self.agent.start(client.stop()).await {
                    Ok(live) => {
                        self.declared = Declared::of(live.initialize.result());
                        let stderr = live.connection.peer.stderr().shown();
                        self.handshake =
                            Some((live.initialize.clone(), live.authenticate.clone(), stderr));
                        *self.live.get_mut() = Some(live);
                    }
                    Err(e) => problem = Some(format!("the agent cannot be started: {e}")),
                }
            }
            let mut context = Map::new();
            let witness = self.agent.witness_url.is_some();
            context.insert(super::PROFILE.into(), self.declared.facts(witness));
            Discovered {
                context,
                snapshot: None,
                problem,
                variants: Vec::new(),
            }
        }
        .boxed()
    }

    fn probe<'a>(
        &'a self,
        _client: &'a HttpClient,
        endpoints: &'a BTreeSet<String>,
        _nonce: &'a str,
    ) -> BoxFuture<'a, Probed> {
        // initialize was the probe.
        let mut probed = Probed::default();
        crate::protocol::refuse_other_endpoints(
            &mut probed,
            endpoints,
            &super::ENDPOINTS,
            super::PROFILE,
        );
        std::future::ready(probed).boxed()
    }

    fn on_hand(&self, case: &crate::scenario::suite::SuiteCase) -> bool {
        case.spec.endpoint() == Some(super::INITIALIZE)
    }

    fn observe_on_hand(&self, input: &CaseInput) -> Option<Observation> {
        let mut result = record_of(input.planned, input.case);
        let Some((initialize, authenticate, stderr)) = &self.handshake else {
            return Some(Observation::blocked(result, "the agent was not started"));
        };
        match &initialize.unanswered {
            Some(Unanswered::Stopped(why)) => {
                let why = format!("the run stopped during initialize ({why})");
                return Some(Observation::blocked(result, why));
            }
            Some(Unanswered::Unread(why)) => {
                return Some(Observation::blocked(result, format!("initialize: {why}")));
            }
            _ => {}
        }
        let mut exchanges = vec![initialize];
        exchanges.extend(authenticate.iter());
        result.duration_ms = initialize.elapsed.as_millis() as u64;
        result.stream = Some(super::evidence::of_exchange(
            &self.shown(),
            &exchanges,
            stderr,
        ));
        let problems = match initialize.result() {
            Some(answer) => declaration::problems(answer),
            None => vec![format!(
                "initialize: {}",
                super::judge::answered(initialize)
            )],
        };
        result.assertions = vec![AssertionResult::new(
            "acp.initialize",
            "initialize answered with a well-formed InitializeResponse (protocolVersion 1)".into(),
            if problems.is_empty() {
                self.declared.summary()
            } else {
                crate::quoted::list(problems.iter().cloned(), "; ")
            },
            problems.is_empty(),
        )];
        if let (Some(method), Some(listing)) = (&self.agent.auth, initialize.result())
            && let Some(note) =
                super::gateway::note(method, listing, self.agent.witness_url.as_deref())
        {
            result.notes.push(note);
        }
        if !self.declared.auth_methods.is_empty() {
            result.notes.push(format!(
                "authentication methods listed: {} (--acp-auth METHOD selects one)",
                self.declared.auth_methods_quoted()
            ));
        }
        Some(Observation::judged(result))
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation> {
        super::case::run_case(self, input).boxed()
    }

    fn after_witness(&self, record: &CaseResult, witness: &mut [AssertionResult]) {
        super::unadvertised::name(record, witness);
    }

    fn finish(&self) -> BoxFuture<'_, ()> {
        async move {
            if let Some(live) = self.live.lock().await.take() {
                live.connection.peer.close(self.agent.grace).await;
            }
        }
        .boxed()
    }
}
