//! One openwop run: discovery fetched once (and kept for the discovery cases), each
//! seam the selected cases could need probed once while discovery is in flight, then
//! every case sent to its seam.

use super::discovery::{self, DiscoveryResult};
use super::part::PartInputs;
use super::seam_case::{self, CaseEnv};
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::outcome::{CaseResult, EvidenceView, Outcome};
use crate::plan::result::result_without_exchange;
use crate::protocol::{CaseInput, Discovered, Foreseen, Probed, ProtocolRun};
use crate::scenario::suite::SuiteCase;
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub struct OpenwopRun {
    config: Arc<RunConfig>,
    /// The discovery answer, judged again by every discovery case (never refetched).
    discovery: Option<DiscoveryResult>,
    /// The seams probed while discovery was in flight: why each one's cases are
    /// blocked, `None` when it is there.
    early_probes: SeamProbes,
}

/// Seam endpoint -> why its cases cannot run (`None`: the seam answered).
type SeamProbes = BTreeMap<String, Option<String>>;

/// Probes every seam of `endpoints` at the same time (discovery is not a seam): on a
/// slow host one round trip, not one per seam. Each probe is numbered in endpoint
/// order as it starts.
async fn probe_seams(client: &HttpClient, major: u8, endpoints: &BTreeSet<String>) -> SeamProbes {
    let probes = endpoints
        .iter()
        .filter(|e| *e != "discovery")
        .map(|endpoint| async move {
            let blocked = match super::seam(endpoint, major) {
                Some(seam) => discovery::probe_seam(client, &seam).await,
                None => Some(format!("unknown endpoint `{endpoint}`")),
            };
            (endpoint.clone(), blocked)
        });
    futures_util::future::join_all(probes)
        .await
        .into_iter()
        .collect()
}

impl OpenwopRun {
    pub fn new(config: Arc<RunConfig>) -> OpenwopRun {
        OpenwopRun {
            config,
            discovery: None,
            early_probes: SeamProbes::new(),
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

    fn discover<'a>(
        &'a mut self,
        client: Option<&'a HttpClient>,
        foreseen: Foreseen<'a>,
    ) -> BoxFuture<'a, Discovered> {
        async move {
            let Some(client) = client else {
                return Discovered {
                    context: object(discovery::context(None, &self.config)),
                    snapshot: None,
                    problem: None,
                };
            };
            // The seams do not depend on the discovery document (their paths are the
            // spec's), so they are probed while it is in flight. Discovery is polled
            // first and keeps request number 1.
            let major = self.config.openwop_major;
            let (fetched, early) = futures_util::join!(
                discovery::fetch(client, &self.config),
                probe_seams(client, major, foreseen.endpoints)
            );
            let found = Discovered {
                context: object(fetched.context.clone()),
                snapshot: Some(fetched.snapshot.clone()),
                problem: fetched.problem.clone(),
            };
            self.discovery = Some(fetched);
            self.early_probes = early;
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
            // Discovery cases are judged on the document itself, usable or not; a seam
            // probed early is not probed again. With the document unusable every seam
            // case is blocked for that reason, whatever its probe found.
            let late: BTreeSet<String> = match problem {
                Some(_) => BTreeSet::new(),
                None => endpoints
                    .iter()
                    .filter(|e| !self.early_probes.contains_key(*e))
                    .cloned()
                    .collect(),
            };
            let late = probe_seams(client, self.config.openwop_major, &late).await;
            let mut probed = Probed::default();
            for endpoint in endpoints.iter().filter(|e| *e != "discovery") {
                let blocked = match problem {
                    Some(problem) => Some(format!("discovery unusable: {problem}")),
                    None => self
                        .early_probes
                        .get(endpoint)
                        .or_else(|| late.get(endpoint))
                        .cloned()
                        .flatten(),
                };
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
            seam_case::run_seam_case(input.planned, input.case, &env).await
        }
        .boxed()
    }
}
