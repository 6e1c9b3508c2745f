//! One session, shared by `run`, `list` and `calibrate`: open the protocol on a
//! resolved target, learn its context once, plan; then either hand the plan to a
//! renderer (`list`) or execute it ([`super::execute`]).

use super::ResolvedTarget;
use crate::config::{RunConfig, Target};
use crate::event::DiscoverySnapshot;
use crate::http::replay::ReplayLog;
use crate::http::{HttpClient, HttpSettings, Transports};
use crate::plan::contexts::Contexts;
use crate::plan::{self, PlannedCase};
use crate::protocol::{Protocol, ProtocolRun};
use crate::scenario::suite::{Suite, SuiteCase};
use crate::stop::Stop;
use crate::witness::RunningWitness;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A protocol opened on a target, with the suite of that protocol's cases.
pub struct Session {
    pub config: Arc<RunConfig>,
    /// Only the cases of the session's protocol: a run plans nothing else.
    pub suite: Arc<Suite>,
    pub target: ResolvedTarget,
    /// The protocol's registered name (`profile:` in scenario files).
    pub protocol_name: &'static str,
    /// The header the protocol sends the token in (`None`: a bearer token).
    pub api_key_header: Option<&'static str>,
    pub protocol: Box<dyn ProtocolRun>,
    /// The witness the run started (`run --witness`): after each case the executor
    /// records the model calls carrying the case's nonce. Protocols never see it.
    pub witness: Option<Arc<RunningWitness>>,
    /// Transports shared with other sessions of the process (calibration); `None`
    /// builds the session its own.
    pub transports: Option<Arc<Transports>>,
    /// Where every request is kept for `run --export-hurl`, when it is asked for.
    pub replay: Option<Arc<ReplayLog>>,
}

/// What a session learned before planning, and the plan.
pub struct Planned {
    /// The run's planning context, and its variants' (openwop auto: `v2`).
    pub contexts: Contexts,
    pub snapshot: Option<DiscoverySnapshot>,
    /// Why the target's own description is unusable (exit 4).
    pub problem: Option<String>,
    pub cases: Vec<PlannedCase>,
}

impl Session {
    /// Opens the configured protocol. `Err` is a usage error (exit 2): an unknown
    /// protocol, or a declaration it cannot read.
    pub fn open(
        registered: &'static dyn Protocol,
        config: Arc<RunConfig>,
        suite: &Suite,
    ) -> Result<Session, String> {
        // The configuration names the protocol the session speaks (reports, the ledger).
        let config = if config.protocol == Some(registered.name()) {
            config
        } else {
            let mut named = (*config).clone();
            named.protocol = Some(registered.name());
            Arc::new(named)
        };
        let protocol = registered.open(&config)?;
        let target = match super::target::shown_url(&config).as_ref() {
            Some(url) => {
                let base_url = protocol.base_url(url);
                ResolvedTarget {
                    label: config
                        .target_label
                        .clone()
                        .unwrap_or_else(|| base_url.clone()),
                    base_url,
                }
            }
            None => match &config.target {
                Target::Command(command) => ResolvedTarget::offline(Some(
                    config
                        .target_label
                        .clone()
                        .unwrap_or_else(|| command.shown()),
                )),
                _ => ResolvedTarget::offline(config.target_label.clone()),
            },
        };
        Ok(Session {
            suite: Arc::new(suite.for_profile(registered.name())),
            protocol_name: registered.name(),
            api_key_header: registered.api_key_header(),
            config,
            target,
            protocol,
            witness: None,
            transports: None,
            replay: None,
        })
    }

    pub fn offline(&self) -> bool {
        matches!(self.config.target, Target::Offline)
    }

    /// The HTTP client every request of the session goes through.
    pub fn client(&self, stop: Stop) -> Result<HttpClient, String> {
        let settings =
            HttpSettings::for_run(&self.config, &self.target.base_url, self.api_key_header);
        let mut client = HttpClient::sharing(
            settings,
            self.config.redactor(),
            stop,
            self.transports.as_deref(),
        )?;
        if let Some(log) = &self.replay {
            client.keep_replay(log.clone());
        }
        Ok(client)
    }

    /// Learns the protocol's context (sending nothing when `client` is `None`) and
    /// plans every case of the suite against it, with `nonce` stamped in.
    pub async fn plan(&mut self, client: Option<&HttpClient>, nonce: &str) -> Planned {
        let discovered = self.protocol.discover(client).await;
        let mut run = self.config.run_facts();
        if let Value::Object(facts) = &mut run {
            facts.extend(self.protocol.run_facts());
        }
        let with_run = |mut context: Map<String, Value>| {
            context.insert("run".into(), run.clone());
            Value::Object(context)
        };
        let mut contexts = Contexts::single(with_run(discovered.context));
        for (tag, mut variant) in discovered.variants {
            if let Value::Object(context) = variant.context {
                variant.context = with_run(context);
            }
            contexts.variants.insert(tag, variant);
        }
        let tags: Vec<String> = contexts.variants.keys().cloned().collect();
        if let Some(arranged) = self.protocol.arrange(&self.suite, &tags) {
            self.suite = Arc::new(arranged);
        }
        let context_of = |case: &SuiteCase| contexts.of(case);
        let mut cases = plan::plan_in(&self.suite, &context_of, &self.config.filters, nonce);
        for case in &mut cases {
            if matches!(case.disposition, plan::Disposition::Excluded(_)) {
                continue;
            }
            let spec = &self.suite.cases[case.case];
            if let Some(reason) = excluded(&self.config, spec) {
                case.disposition = plan::Disposition::Excluded(reason.to_string());
            } else if let Some(reason) = self.protocol.excludes(spec, contexts.of(spec)) {
                case.disposition = plan::Disposition::Excluded(reason);
            }
        }
        Planned {
            contexts,
            snapshot: discovered.snapshot,
            problem: discovered.problem,
            cases,
        }
    }
}

/// A case the run's own configuration leaves out whatever the target says: one that
/// exists only behind `--allow-external-probe-urls`, in a run without it.
fn excluded(config: &RunConfig, case: &SuiteCase) -> Option<&'static str> {
    let gated = crate::scenario::external_gate::gated(&case.spec);
    (gated && !config.allow_external_probe_urls).then_some(crate::scenario::external_gate::EXCLUDED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The built-in public-NAT64 case is planned only behind the flag: loaded without it
    /// (lint lets its public URL through), excluded from a run without it, and runnable
    /// with it once a non-text modality is advertised. Nothing is sent here.
    #[test]
    fn the_public_nat64_case_is_planned_only_behind_allow_external_probe_urls() {
        let suite = crate::scenario::suite::load_suite(&crate::scenario::suite::SuiteOptions {
            include_builtin: true,
            paths: Vec::new(),
            checks: crate::registry::check_options(false),
        })
        .unwrap();
        let id = "openwop.rfc0196.public-nat64-not-refused";
        let case = suite.cases.iter().find(|c| c.spec.id == id).unwrap();
        let mut config = RunConfig::new(crate::config::Target::Offline);
        assert_eq!(
            excluded(&config, case),
            Some(crate::scenario::external_gate::EXCLUDED)
        );
        config.allow_external_probe_urls = true;
        assert_eq!(excluded(&config, case), None);
        let context = |allowed: bool| {
            json!({
                "openwop": {"firstAdvertised": "image"},
                "run": {"externalProbeUrls": allowed},
            })
        };
        let only = Suite {
            cases: vec![case.clone()],
            ..suite.clone()
        };
        let planned = plan::plan(&only, &context(true), &[], "n");
        assert_eq!(planned[0].disposition, plan::Disposition::Run);
        let planned = plan::plan(&only, &context(false), &[], "n");
        assert!(matches!(planned[0].disposition, plan::Disposition::Skip(_)));
        // Every other case of the pack stays on loopback whatever the flag.
        let gated: Vec<&str> = suite
            .cases
            .iter()
            .filter(|c| crate::scenario::external_gate::gated(&c.spec))
            .map(|c| c.spec.id.as_str())
            .collect();
        assert_eq!(gated, [id]);
    }
}
