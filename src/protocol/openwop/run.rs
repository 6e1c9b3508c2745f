//! One openwop run: discovery fetched once (and kept for the discovery cases), each
//! seam the runnable cases need probed once, then every case sent to its seam.

use super::discovery::{self, DiscoveryResult};
use super::options::{OpenwopMajor, OpenwopOptions};
use super::part::PartInputs;
use super::seam_case::{self, CaseEnv};
use super::self_hosted_case::SelfHostedEnv;
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::observation::Observation;
use crate::outcome::{EvidenceView, Outcome};
use crate::plan::contexts::VariantContext;
use crate::plan::result::blocked_unsent;
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun};
use crate::scenario::suite::{Suite, SuiteCase};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct OpenwopRun {
    config: Arc<RunConfig>,
    /// Its own options, read when the run opened.
    options: OpenwopOptions,
    /// The discovery answer, judged again by every discovery case (never refetched).
    discovery: Option<DiscoveryResult>,
    /// An auto run's second answer, the v2 root, for the cases of the `v2` variant.
    discovery_v2: Option<DiscoveryResult>,
}

/// What an auto run says once about a host that lists no 2.x version.
pub const V1_ONLY_NOTE: &str = "the host lists no 2.x version in protocolVersions: it does not speak openwop 2, so only the v1 suite ran (not a failure; --openwop-major 2 asks for v2)";

impl OpenwopRun {
    pub fn new(config: Arc<RunConfig>, options: OpenwopOptions) -> OpenwopRun {
        OpenwopRun {
            config,
            options,
            discovery: None,
            discovery_v2: None,
        }
    }

    /// The major a case is judged at: its context's (an auto run's `v2` cases are
    /// planned from the v2 root), else the one the run targets.
    fn major_of(&self, context: &Value) -> u8 {
        super::major::of_context(context).unwrap_or(self.options.major.first())
    }

    /// The discovery answer a case of `variant` was planned from.
    fn discovery_for(&self, variant: Option<&str>) -> Option<&DiscoveryResult> {
        match variant {
            Some(_) => self.discovery_v2.as_ref(),
            None => self.discovery.as_ref(),
        }
    }

    fn env<'a>(&'a self, input: &CaseInput<'a>) -> CaseEnv<'a> {
        CaseEnv {
            client: input.client,
            catalog: input.catalog,
            major: self.major_of(input.context),
            context: input.context,
            nonce: input.nonce,
            part_inputs: PartInputs {
                dialect: self.options.dialect,
                nonce: input.nonce,
                media_base_url: self.config.media_base_url.as_deref(),
                media_refs: &self.config.media_refs,
            },
            provider: self.config.model_provider.as_deref(),
            self_hosted: SelfHostedEnv {
                endpoint: self.options.compat_endpoint.as_deref(),
                discovery: [
                    ("discovery", &self.discovery),
                    ("discovery@v2", &self.discovery_v2),
                ]
                .into_iter()
                .filter_map(|(name, d)| Some((name.to_string(), d.as_ref()?.answer()?)))
                .collect(),
            },
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
        super::evidence::run_options(self.options.dialect, self.options.major)
    }

    /// `run.dialect` and `run.openwopMajor`: the part spelling and the major judged.
    fn run_facts(&self) -> Map<String, Value> {
        let mut facts = Map::new();
        facts.insert("dialect".into(), Value::from(self.options.dialect.as_str()));
        facts.insert("openwopMajor".into(), self.options.major.as_json());
        facts
    }

    fn arrange(&self, suite: &Suite, variants: &[String]) -> Option<Suite> {
        let auto = self.options.major == OpenwopMajor::Auto;
        (auto && variants.iter().any(|v| v == super::major::V2))
            .then(|| super::major::arrange(suite))
    }

    fn discover<'a>(&'a mut self, client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        async move {
            let Some(client) = client else {
                let major = self.options.major.first();
                return Discovered {
                    context: object(discovery::context(None, major, &self.config, &self.options)),
                    snapshot: None,
                    problem: None,
                    variants: Vec::new(),
                };
            };
            let major = self.options.major.first();
            let fetched =
                discovery::fetch(client, &self.config, &self.options, major, "discovery").await;
            let mut found = Discovered {
                context: object(fetched.context.clone()),
                snapshot: Some(fetched.snapshot.clone()),
                problem: fetched.problem.clone(),
                variants: Vec::new(),
            };
            let auto = self.options.major == OpenwopMajor::Auto;
            let lists_v2 = fetched.context.pointer("/openwop/listsV2") == Some(&Value::Bool(true));
            if auto && fetched.problem.is_none() {
                if lists_v2 {
                    let tag = super::major::V2;
                    let v2 = discovery::fetch(
                        client,
                        &self.config,
                        &self.options,
                        2,
                        &format!("discovery@{tag}"),
                    )
                    .await;
                    if let Some(snapshot) = &mut found.snapshot {
                        snapshot.variants.insert(tag.into(), v2.snapshot.clone());
                    }
                    let context = VariantContext {
                        context: v2.context.clone(),
                        problem: v2.problem.clone(),
                    };
                    found.variants.push((tag.to_string(), context));
                    self.discovery_v2 = Some(v2);
                } else if let Some(snapshot) = &mut found.snapshot {
                    snapshot.notes.push(V1_ONLY_NOTE.to_string());
                }
            }
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
            let problem_of = |endpoint: &str| {
                let tagged = super::major::split_endpoint(endpoint).1.is_some();
                self.discovery_for(tagged.then_some(super::major::V2))
                    .and_then(|d| d.problem.as_ref())
            };
            // Discovery cases are judged on the document itself, usable or not. The
            // seams are probed at the same time: on a slow host one round trip, not
            // one per seam (each probe is numbered in endpoint order as it starts).
            let probes = endpoints
                .iter()
                // The negotiation cases refetch discovery itself: nothing to probe.
                .filter(|e| {
                    let base = super::major::split_endpoint(e).0;
                    base != "discovery" && !super::negotiation::is_negotiation(base)
                })
                .map(|endpoint| async move {
                    let major = self.options.major.first();
                    let blocked = match (problem_of(endpoint), super::seam(endpoint, major)) {
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
        let auto = self.options.major == OpenwopMajor::Auto;
        super::major::excludes(&case.spec, self.major_of(context), auto, context)
    }

    fn on_hand(&self, case: &SuiteCase) -> bool {
        case.spec
            .endpoint()
            .is_some_and(|e| super::major::split_endpoint(e).0 == "discovery")
    }

    fn observe_on_hand(&self, input: &CaseInput) -> Option<Observation> {
        if !self.on_hand(input.case) {
            return None;
        }
        let env = self.env(input);
        Some(match self.discovery_for(input.case.variant.as_deref()) {
            Some(d) => discovery::judge_cached(input.planned, input.case, &env, d),
            None => blocked_unsent(input.planned, input.case, "no discovery".into()),
        })
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation> {
        async move {
            let env = self.env(&input);
            let endpoint = input.case.spec.endpoint().unwrap_or_default();
            if super::negotiation::is_negotiation(super::major::split_endpoint(endpoint).0) {
                let discovery = self.discovery.as_ref();
                return super::negotiation::run_case(input.planned, input.case, &env, discovery)
                    .await;
            }
            seam_case::run_seam_case(input.planned, input.case, &env).await
        }
        .boxed()
    }
}
