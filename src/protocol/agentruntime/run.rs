//! One agentruntime run: `describe` once (the declaration the run is planned on, unless
//! `--accepts` overrides it), the `capabilities` case decided on that answer, and every
//! `execute` case one bridge process of its own (`case.rs`), run concurrently up to `-j`.

use super::bridge::{self, Bridge};
use super::declaration::Capabilities;
use super::describe::{self, Described};
use super::event::EventReader;
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::observation::Observation;
use crate::outcome::{EvidenceView, Outcome, ProtocolEvidence};
use crate::plan::result::record_of;
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct AgentruntimeRun {
    pub(super) config: Arc<RunConfig>,
    pub(super) bridge: Bridge,
    pub(super) caps: Capabilities,
    described: Option<Described>,
}

impl AgentruntimeRun {
    pub fn new(config: Arc<RunConfig>, bridge: Bridge) -> AgentruntimeRun {
        AgentruntimeRun {
            caps: Capabilities::unknown("not described yet"),
            described: None,
            config,
            bridge,
        }
    }

    fn witness(&self) -> bool {
        self.bridge.witness_url.is_some()
    }

    /// Why the bridge cannot run at all, when describe died before its first line and
    /// a plain execute (a prompt, no media: describe may be all it lacks) does too.
    async fn dies_at_start(&self, client: &HttpClient, nonce: &str) -> Option<String> {
        let described = self.described.as_ref()?;
        super::startup::died_before_first_line(&described.finished)?;
        let plain = json!({"prompt": format!("mmconform probe {nonce}")});
        let line = bridge::execute_line(&plain);
        let stop = client.stop().clone();
        let finished = self
            .bridge
            .call(line, "probe", stop, false, &mut EventReader::default())
            .await
            .ok()?;
        super::startup::died_before_first_line(&finished)
    }

    /// The declaration: describe's, or `--accepts` in its place.
    fn settle_caps(&mut self, described: Capabilities) {
        self.caps = if self.config.claims.accepts.is_empty() {
            described
        } else {
            described.overridden(&self.config.claims.accepts)
        };
    }
}

impl ProtocolRun for AgentruntimeRun {
    fn options(&self) -> (Map<String, Value>, EvidenceView) {
        let shown = self.bridge.command.shown();
        let mut options = Map::new();
        options.insert("command".into(), json!(shown));
        options.insert("witness".into(), json!(self.bridge.witness_url));
        options.insert("environment".into(), self.config.agent.record());
        let view = EvidenceView {
            summary: format!("bridge {shown}"),
            properties: vec![("agentruntime.command".into(), shown)],
            lines: Vec::new(),
        };
        (options, view)
    }

    fn declared(&self) -> Option<ProtocolEvidence> {
        // Reporters ask before discovery: what is known then is where the declaration
        // comes from; describe's own answer is the `agentruntime.describe` case's evidence.
        let accepts = &self.config.claims.accepts;
        let (record, summary) = if accepts.is_empty() {
            (
                json!({"declaredBy": "describe"}),
                "mediaCapabilities from the bridge's describe (its answer: agentruntime.describe)"
                    .to_string(),
            )
        } else {
            (
                json!({"declaredBy": "--accepts (overrides describe)", "acceptsInbound": accepts}),
                format!(
                    "accepts {} (--accepts, overrides describe)",
                    accepts.join(", ")
                ),
            )
        };
        Some(ProtocolEvidence {
            record,
            view: EvidenceView {
                summary,
                properties: Vec::new(),
                lines: Vec::new(),
            },
        })
    }

    fn discover<'a>(&'a mut self, client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        async move {
            let mut problem = None;
            match client {
                None => self.settle_caps(Capabilities::unknown("not described: no bridge run")),
                Some(client) => {
                    let stop = client.stop().clone();
                    let mut reader = EventReader::describing();
                    match self
                        .bridge
                        .call(
                            bridge::describe_line(),
                            "describe",
                            stop,
                            false,
                            &mut reader,
                        )
                        .await
                    {
                        Ok(finished) => {
                            let described = Described::new(finished, reader.first_object);
                            self.settle_caps(described.capabilities());
                            self.described = Some(described);
                        }
                        Err(e) => {
                            problem = Some(format!("the bridge cannot be started: {e}"));
                            self.settle_caps(Capabilities::unknown("the bridge cannot be started"));
                        }
                    }
                }
            }
            let mut context = Map::new();
            let facts = self.caps.facts(self.witness(), self.described.is_some());
            context.insert(super::PROFILE.into(), facts);
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
        client: &'a HttpClient,
        endpoints: &'a BTreeSet<String>,
        nonce: &'a str,
    ) -> BoxFuture<'a, Probed> {
        async move {
            // describe was the probe: a bridge that cannot be spawned is discovery's
            // problem; one that dies before its first line is looked at again here.
            let mut probed = Probed::default();
            if let Some(why) = self.dies_at_start(client, nonce).await {
                probed.problem = Some(why.clone());
                for endpoint in super::ENDPOINTS {
                    (probed.unusable).insert(endpoint.into(), (Outcome::Blocked, why.clone()));
                }
            }
            crate::protocol::refuse_other_endpoints(
                &mut probed,
                endpoints,
                &super::ENDPOINTS,
                super::PROFILE,
            );
            probed
        }
        .boxed()
    }

    fn on_hand(&self, case: &crate::scenario::suite::SuiteCase) -> bool {
        case.spec.endpoint() == Some(super::DESCRIBE)
    }

    fn observe_on_hand(&self, input: &CaseInput) -> Option<Observation> {
        let mut result = record_of(input.planned, input.case);
        let Some(described) = &self.described else {
            return Some(Observation::blocked(result, "describe was not run"));
        };
        result.duration_ms = described.finished.elapsed.as_millis() as u64;
        result.stream = Some(super::evidence::of_run(
            &self.bridge.command.shown(),
            "describe",
            &described.finished,
        ));
        let observed = super::classify::Observed::new(&described.finished);
        if let Some(why) = observed.unfinished() {
            // Our timeout, a bound or the run's stop ended describe: nothing to judge.
            return Some(Observation::blocked(result, why));
        }
        result.assertions = describe::judge(described);
        Some(Observation::judged(result))
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation> {
        super::case::run_case(self, input).boxed()
    }
}
