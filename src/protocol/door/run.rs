//! One OpenAI-compatible run. There is no capability discovery: the declaration
//! (`--accepts`, `--claims`, the embedded server's own, or none: text-only) is the
//! planning context (`openai.*`). The endpoint is probed once with a plain-text call;
//! then every case is POSTed to the door's path (`wire.rs`) naming the run's model.

use super::case::{self, DoorEnv};
use super::part::PartInputs;
use super::wire::Wire;
use super::{Declaration, read};
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::observation::Observation;
use crate::outcome::{EvidenceView, Outcome, ProtocolEvidence};
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun, single_endpoint};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, json};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

/// How long to wait after `data: [DONE]` for events that would break the stream.
const AFTER_DONE_GRACE: Duration = Duration::from_millis(500);

pub struct DoorRun {
    wire: &'static Wire,
    config: Arc<RunConfig>,
    declaration: Declaration,
    grace: Duration,
}

impl DoorRun {
    pub fn new(wire: &'static Wire, config: Arc<RunConfig>, declaration: Declaration) -> DoorRun {
        DoorRun {
            wire,
            grace: AFTER_DONE_GRACE.min(config.timeout),
            config,
            declaration,
        }
    }

    fn model(&self) -> Option<&str> {
        super::model(&self.config.options)
    }
}

/// What the one plain-text probe call says about the endpoint.
async fn probe(
    wire: &Wire,
    client: &HttpClient,
    model: Option<&str>,
    grace: Duration,
    nonce: &str,
) -> Probed {
    let url = client.url(wire.path);
    let mut probed = Probed::default();
    let Some(model) = model else {
        let reason = "no model to name: GET /models got no answer and no --model was given";
        probed.problem = Some(reason.into());
        probed
            .unusable
            .insert(wire.endpoint.to_string(), (Outcome::Blocked, reason.into()));
        return probed;
    };
    let body = (wire.probe_body)(model, nonce);
    let purpose = format!("probe the {} endpoint", wire.endpoint);
    let answer = read::post_completion(wire, client, &body, true, grace, &purpose).await;
    let status = answer.evidence.as_ref().map(|e| e.status);
    let body = answer.exchange.response.as_ref().map(|r| r.body.as_str());
    let hint = match status {
        Ok(404 | 405) => {
            super::probe_hint::for_missing_door(wire, client, model, body.unwrap_or_default()).await
        }
        _ => String::new(),
    };
    single_endpoint::from_status(wire.endpoint, &url, status.map_err(String::as_str), &hint)
}

impl ProtocolRun for DoorRun {
    fn options(&self) -> (Map<String, serde_json::Value>, EvidenceView) {
        let mut options = Map::new();
        options.insert("model".into(), json!(self.model()));
        let view = EvidenceView {
            summary: format!("model {}", self.model().unwrap_or("(none)")),
            properties: vec![(
                format!("{}.model", super::FACTS_ROOT),
                self.model().unwrap_or("").to_string(),
            )],
            lines: Vec::new(),
        };
        (options, view)
    }

    fn declared(&self) -> Option<ProtocolEvidence> {
        Some(super::evidence::of_declaration(
            &self.declaration,
            self.model(),
        ))
    }

    fn discover<'a>(&'a mut self, _client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        // Nothing to fetch: the model was picked before the session opened, and the
        // declaration is what the run is planned on.
        let mut context = Map::new();
        context.insert(
            super::FACTS_ROOT.into(),
            self.declaration.facts(self.model()),
        );
        std::future::ready(Discovered {
            context,
            snapshot: None,
            problem: None,
            variants: Vec::new(),
        })
        .boxed()
    }

    fn probe<'a>(
        &'a self,
        client: &'a HttpClient,
        endpoints: &'a BTreeSet<String>,
        nonce: &'a str,
    ) -> BoxFuture<'a, Probed> {
        let own = probe(self.wire, client, self.model(), self.grace, nonce);
        single_endpoint::probe(endpoints, self.wire.endpoint, self.wire.profile, own).boxed()
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation> {
        async move {
            let env = DoorEnv {
                wire: self.wire,
                client: input.client,
                grace: self.grace,
                catalog: input.catalog,
                context: input.context,
                nonce: input.nonce,
                model: self.model(),
                part_inputs: PartInputs {
                    nonce: input.nonce,
                    media_base_url: self.config.media_base_url.as_deref(),
                    file_ids: &self.config.media_refs,
                },
            };
            case::run_case(input.planned, input.case, &env).await
        }
        .boxed()
    }
}
