//! One AG-UI run. There is no discovery: the declaration (`--accepts`, `--claims`, or
//! the embedded agent's own) is the planning context (`agui.*`). The endpoint is probed
//! once with a plain-text run; then every case is POSTed as its own run, its stream
//! read within bounds, and judged.

use super::case::{self, AguiEnv};
use super::part::PartInputs;
use super::run_input::run_input;
use super::{Declaration, sse};
use crate::config::RunConfig;
use crate::http::HttpClient;
use crate::observation::Observation;
use crate::outcome::{Outcome, ProtocolEvidence};
use crate::protocol::sse_read::ReadEnd;
use crate::protocol::{CaseInput, Discovered, Probed, ProtocolRun, single_endpoint};
use futures_util::FutureExt as _;
use futures_util::future::BoxFuture;
use serde_json::{Map, json};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

/// How long to wait after the terminal event for events that would break the stream.
const AFTER_TERMINAL_GRACE: Duration = Duration::from_millis(500);

pub struct AguiRun {
    config: Arc<RunConfig>,
    declaration: Declaration,
    grace: Duration,
}

impl AguiRun {
    pub fn new(config: Arc<RunConfig>, declaration: Declaration) -> AguiRun {
        AguiRun {
            grace: AFTER_TERMINAL_GRACE.min(config.timeout),
            config,
            declaration,
        }
    }
}

/// What the one plain-text probe run says about the endpoint.
async fn probe(client: &HttpClient, grace: Duration, nonce: &str) -> Probed {
    let body = json!({"messages": [{"role": "user", "content": "mmconform endpoint probe"}]});
    let input = run_input(body, &format!("{nonce}-probe"));
    let answer = sse::post_run(client, &input, true, grace, "probe the run endpoint").await;
    let url = client.url("");
    let status = answer.evidence.as_ref().map(|e| e.status);
    let hint = "is --target the agent's run endpoint?";
    let mut probed =
        single_endpoint::from_status(super::ENDPOINT, &url, status.map_err(String::as_str), hint);
    if let Some(reason) = answer.evidence.as_ref().ok().and_then(stalled) {
        // Every case would wait out the same timeout for the same silence: one is enough.
        probed
            .unusable
            .insert(super::ENDPOINT.to_string(), (Outcome::Blocked, reason));
    }
    probed
}

/// Why the probe's plain-text run shows the agent opening a stream and then going
/// silent until the deadline, when it does.
fn stalled(evidence: &super::StreamEvidence) -> Option<String> {
    let silent = evidence.event_stream
        && evidence.ended_by == ReadEnd::Deadline
        && evidence.terminal.is_none();
    silent.then(|| {
        let sent = match evidence.events_total {
            0 => "no event".to_string(),
            n => format!("{n} event(s) and no RUN_FINISHED or RUN_ERROR"),
        };
        format!(
            "the probe's plain-text run opened an event stream, then sent {sent} before the deadline (--timeout): the agent answers nothing, so its cases were not sent"
        )
    })
}

impl ProtocolRun for AguiRun {
    fn declared(&self) -> Option<ProtocolEvidence> {
        Some(super::evidence::of_declaration(&self.declaration))
    }

    /// An AG-UI target is the run endpoint itself, used exactly as given (`/agent/` and
    /// `/agent` may be different routes).
    fn base_url(&self, shown: &url::Url) -> String {
        shown.as_str().to_string()
    }

    fn discover<'a>(&'a mut self, _client: Option<&'a HttpClient>) -> BoxFuture<'a, Discovered> {
        // Nothing to fetch: the declaration is what the run is planned on.
        let mut context = Map::new();
        context.insert("agui".into(), self.declaration.facts());
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
        let own = probe(client, self.grace, nonce);
        single_endpoint::probe(endpoints, super::ENDPOINT, super::PROFILE, own).boxed()
    }

    fn run_case<'a>(&'a self, input: CaseInput<'a>) -> BoxFuture<'a, Observation> {
        async move {
            let env = AguiEnv {
                client: input.client,
                grace: self.grace,
                catalog: input.catalog,
                context: input.context,
                nonce: input.nonce,
                declaration: &self.declaration,
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
