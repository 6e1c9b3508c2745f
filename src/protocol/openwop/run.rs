//! One openwop run: discovery fetched once (and kept for the discovery cases), each
//! seam the runnable cases need probed once, then every case sent to its seam.

use super::discovery::{self, DiscoveryResult};
use super::part::PartInputs;
use super::seam_case::{self, CaseEnv};
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::outcome::{CaseResult, EvidenceView, Outcome};
use crate::plan::result::result_without_exchange;
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun};
use crate::scenario::suite::SuiteCase;
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct OpenwopRun {
    config: Arc<RunConfig>,
    /// The discovery answer, judged again by every discovery case (never refetched).
    discovery: Option<DiscoveryResult>,
}

impl OpenwopRun {
    pub fn new(config: Arc<RunConfig>) -> OpenwopRun {
        OpenwopRun {
            config,
            discovery: None,
        }
    }

    fn env<'a>(&'a self, input: &CaseInput<'a>) -> CaseEnv<'a> {
        CaseEnv {
            client: input.client,
            catalog: input.catalog,
            major: self.config.openwop_major,
            context: input.context,
            nonce: input.nonce,
            strict: input.strict,
            part_inputs: PartInputs {
                dialect: self.config.dialect,
                nonce: input.nonce,
                media_base_url: self.config.media_base_url.as_deref(),
                media_refs: &self.config.media_refs,
            },
            provider: self.config.model_provider.as_deref(),
        }
    }
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

impl ProtocolRun for OpenwopRun {
    fn options(&self) -> (Map<String, Value>, EvidenceView) {
        super::evidence::run_options(self.config.dialect, self.config.openwop_major)
    }

    fn discover<'a>(&'a mut self, client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        async move {
            let Some(client) = client else {
                return Discovered {
                    context: object(discovery::context(None, &self.config)),
                    snapshot: None,
                    problem: None,
                };
            };
            let fetched = discovery::fetch(client, &self.config).await;
            let found = Discovered {
                context: object(fetched.context.clone()),
                snapshot: Some(fetched.snapshot.clone()),
                problem: fetched.problem.clone(),
            };
            self.discovery = Some(fetched);
            found
        }
        .boxed()
    }

    fn probe<'a>(
        &'a self,
        client: &'a HttpClient,
        endpoints: &'a BTreeSet<String>,
        _nonce: &'a str,
    ) -> BoxFuture<'a, Probed> {
        async move {
            let problem = self.discovery.as_ref().and_then(|d| d.problem.as_ref());
            // Discovery cases are judged on the document itself, usable or not. The
            // seams are probed at the same time: on a slow host one round trip, not
            // one per seam (each probe is numbered in endpoint order as it starts).
            let probes = endpoints
                .iter()
                // The negotiation cases refetch discovery itself: nothing to probe.
                .filter(|e| *e != "discovery" && !super::negotiation::is_negotiation(e))
                .map(|endpoint| async move {
                    let blocked = match (problem, super::seam(endpoint, self.config.openwop_major))
                    {
                        (Some(problem), _) => Some(format!("discovery unusable: {problem}")),
                        (None, Some(seam)) => discovery::probe_seam(client, &seam).await,
                        (None, None) => Some(format!("unknown endpoint `{endpoint}`")),
                    };
                    (endpoint, blocked)
                });
            let mut probed = Probed::default();
            for (endpoint, blocked) in futures_util::future::join_all(probes).await {
                if let Some(reason) = blocked {
                    probed
                        .unusable
                        .insert(endpoint.clone(), (Outcome::Blocked, reason));
                }
            }
            probed
        }
        .boxed()
    }

    /// The seams are the spec's paths and a probe is a harmless request: the cases need
    /// not wait for it (a case on a seam the probe finds missing is blocked after all).
    fn send_while_probing(&self) -> bool {
        true
    }

    fn excludes(&self, case: &SuiteCase, context: &Value) -> Option<String> {
        super::major::excludes(&case.spec, self.config.openwop_major, context)
    }

    fn on_hand(&self, case: &SuiteCase) -> bool {
        case.spec.endpoint() == Some("discovery")
    }

    fn decide_on_hand(&self, input: &CaseInput) -> Option<CaseResult> {
        if !self.on_hand(input.case) {
            return None;
        }
        let env = self.env(input);
        Some(match &self.discovery {
            Some(d) => discovery::judge_cached(input.planned, input.case, &env, d),
            None => result_without_exchange(
                input.planned,
                input.case,
                Outcome::Blocked,
                Some("no discovery".into()),
            ),
        })
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, CaseResult> {
        async move {
            let env = self.env(&input);
            let endpoint = input.case.spec.endpoint().unwrap_or_default();
            if super::negotiation::is_negotiation(endpoint) {
                let discovery = self.discovery.as_ref();
                return super::negotiation::run_case(input.planned, input.case, &env, discovery)
                    .await;
            }
            seam_case::run_seam_case(input.planned, input.case, &env).await
        }
        .boxed()
    }
}
