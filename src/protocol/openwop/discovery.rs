//! Discovery: fetched once per run, judged by the discovery cases, and turned into the
//! evaluation context (`discovery`, `openwop`, `run`) that plans every other case.
//! Also the one-off seam probe.

use super::options::OpenwopOptions;
use super::seam_case::{CaseEnv, judge_response};
use super::{Seam, facts};
use crate::config::RunConfig;
use crate::event::DiscoverySnapshot;
use crate::http::{HttpClient, HttpRequest, HttpResponse};
use crate::observation::Observation;
use crate::outcome::Exchange;
use crate::plan::PlannedCase;
use crate::plan::result::record_of;
use crate::protocol::openwop;
use crate::scenario::suite::SuiteCase;
use mmconform_json::canonical_sha256;
use serde_json::{Value, json};
use std::time::Instant;

pub struct DiscoveryResult {
    pub snapshot: DiscoverySnapshot,
    pub context: Value,
    pub problem: Option<String>,
    exchange: Exchange,
    response: Option<HttpResponse>,
}

/// The evaluation context cases are planned against: the document (when usable),
/// the profile's facts and the run's own facts.
pub fn context(
    usable: Option<&Value>,
    major: u8,
    config: &RunConfig,
    options: &OpenwopOptions,
) -> Value {
    let mut openwop = facts::derive(usable, major, config.max_probe_bytes);
    if let Value::Object(map) = &mut openwop {
        map.extend(super::self_hosted::facts(
            usable,
            options.self_hosted_provider.as_ref(),
        ));
    }
    json!({
        "discovery": usable.cloned().unwrap_or(Value::Null),
        "openwop": openwop,
        "run": config.run_facts(),
    })
}

/// Fetches the discovery document for `major` (v2: with `OpenWOP-Version: 2`);
/// `purpose` names the request in the wire log (`discovery`, `discovery@v2`).
pub async fn fetch(
    client: &HttpClient,
    config: &RunConfig,
    options: &OpenwopOptions,
    major: u8,
    purpose: &str,
) -> DiscoveryResult {
    let url = client.url(openwop::DISCOVERY_PATH);
    let request = HttpRequest {
        purpose: purpose.into(),
        method: reqwest::Method::GET,
        path: openwop::DISCOVERY_PATH.to_string(),
        headers: openwop::discovery_header(major)
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: None,
        auth: true,
    };
    let (exchange, result) = client.send(&request).await;
    let (document, problem, status) = match &result {
        Err(e) => (None, Some(format!("GET {url} failed: {e}")), None),
        Ok(r) => {
            let parsed = mmconform_json::bounded::parse(&r.body);
            let cut = if r.truncated {
                format!(
                    " (the body was cut at the {}-byte read cap; raise --max-response-bytes)",
                    r.body.len()
                )
            } else {
                String::new()
            };
            let problem = if !(200..300).contains(&r.status) {
                Some(format!("GET {url} answered HTTP {}", r.status))
            } else {
                match &parsed {
                    Ok(Value::Object(_)) => None,
                    Ok(other) => Some(format!(
                        "GET {url} did not return a JSON object (got {}){cut}",
                        match other {
                            Value::Array(_) => "an array",
                            Value::String(_) => "a string",
                            _ => "a scalar",
                        }
                    )),
                    Err(e) => Some(format!("GET {url} did not return a JSON object ({e}){cut}")),
                }
            };
            let parsed = parsed.ok();
            (parsed.filter(Value::is_object), problem, Some(r.status))
        }
    };
    let usable = if problem.is_none() {
        document.as_ref()
    } else {
        None
    };
    let mut context = context(usable, major, config, options);
    // The version the host says answered (versioning.md §1.4), as the run records it.
    let answered = exchange
        .response
        .as_ref()
        .and_then(|r| {
            r.headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("openwop-version"))
        })
        .map(|(_, v)| json!(v))
        .unwrap_or(Value::Null);
    context["openwop"]["answeredVersion"] = answered;
    let snapshot = DiscoverySnapshot {
        url,
        status,
        canonical_sha256: document.as_ref().map(canonical_sha256),
        document: document.clone(),
        problem: problem.clone(),
        facts: json!({"openwop": context["openwop"], "run": context["run"]}),
        variants: Default::default(),
        notes: Vec::new(),
    };
    DiscoveryResult {
        snapshot,
        context,
        problem,
        exchange,
        response: result.ok(),
    }
}

impl DiscoveryResult {
    /// The HTTP status of the run's discovery answer, if one arrived.
    pub fn status(&self) -> Option<u16> {
        self.snapshot.status
    }

    /// A response header of the run's discovery answer (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<String> {
        self.exchange
            .response
            .as_ref()?
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    }

    /// The run's discovery answer, if one arrived (RFC 0108's leak check reads it).
    pub fn answer(&self) -> Option<&HttpResponse> {
        self.response.as_ref()
    }

    /// The run's discovery exchange, cited (not sent again) by a case judged on it.
    pub fn cited(&self) -> Exchange {
        let mut cited = self.exchange.clone();
        cited.cached = true;
        cited
    }
}

/// Judges a discovery case on the response fetched once for the run: what was observed.
pub fn judge_cached(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv,
    disc: &DiscoveryResult,
) -> Observation {
    let started = Instant::now();
    match &disc.response {
        Some(response) => {
            let mut cited = disc.exchange.clone();
            // Judged on the run's one discovery answer: cited, not fetched again.
            cited.cached = true;
            judge_response(planned, case, env, response, cited, started)
        }
        None => {
            let reason = disc
                .problem
                .as_ref()
                .map(|p| format!("discovery unusable: {p}"))
                .unwrap_or_else(|| "discovery was not fetched".into());
            let mut record = record_of(planned, case);
            let mut cited = disc.exchange.clone();
            cited.cached = true;
            record.exchanges.push(cited);
            Observation::blocked(record, reason)
        }
    }
}

/// Checks once that a seam exists. `Some(reason)` means every case on it is blocked.
pub async fn probe_seam(client: &HttpClient, seam: &Seam) -> Option<String> {
    let request = seam.request(
        Some(seam.probe_body.clone()),
        true,
        format!("probe {}", seam.path),
    );
    let path = seam.path;
    match client.send(&request).await.1 {
        Ok(r) if r.status == 404 => Some(format!(
            "seam POST {path} answered 404: the host does not expose this conformance seam, so the behaviour cannot be observed"
        )),
        Ok(_) => None,
        Err(e) => Some(format!("seam probe POST {path}: {e}")),
    }
}
