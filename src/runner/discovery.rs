//! Discovery: fetched once per run, judged by the discovery cases, and turned into the
//! evaluation context (`discovery`, `openwop`, `run`) that plans every other case.
//! Also the one-off seam probe.

use super::ResolvedTarget;
use super::case::{CaseEnv, judge_response, result_without_exchange};
use super::http::{HttpClient, HttpRequest, HttpResponse};
use crate::config::RunConfig;
use crate::event::DiscoverySnapshot;
use crate::outcome::{CaseResult, Exchange, Outcome};
use crate::plan::PlannedCase;
use crate::profile::openwop::{self, facts};
use crate::scenario::load::hex;
use crate::scenario::suite::SuiteCase;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use std::time::Instant;

pub struct DiscoveryResult {
    pub snapshot: DiscoverySnapshot,
    pub context: Value,
    pub problem: Option<String>,
    exchange: Exchange,
    response: Option<HttpResponse>,
}

/// The document with every object's keys sorted, so equal documents hash equally.
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let mut out = Map::new();
            for k in keys {
                out.insert(k.clone(), canonical(&map[k]));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

pub fn canonical_sha256(value: &Value) -> String {
    hex(&Sha256::digest(canonical(value).to_string().as_bytes()))
}

pub async fn fetch(
    client: &HttpClient,
    config: &RunConfig,
    target: &ResolvedTarget,
) -> DiscoveryResult {
    let _ = target;
    let request = HttpRequest {
        method: reqwest::Method::GET,
        path: openwop::DISCOVERY_PATH.to_string(),
        headers: openwop::discovery_header(config.openwop_major)
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: None,
        auth: true,
    };
    let (exchange, result) = client.send(&request).await;
    let (document, problem, status) = match &result {
        Err(e) => (
            None,
            Some(format!(
                "GET {} failed: {e}",
                client.url(openwop::DISCOVERY_PATH)
            )),
            None,
        ),
        Ok(r) => {
            let parsed: Option<Value> = serde_json::from_slice(&r.body).ok();
            let problem = if !(200..300).contains(&r.status) {
                Some(format!(
                    "GET {} answered HTTP {}",
                    client.url(openwop::DISCOVERY_PATH),
                    r.status
                ))
            } else if !parsed.as_ref().is_some_and(Value::is_object) {
                Some(format!(
                    "GET {} did not return a JSON object",
                    client.url(openwop::DISCOVERY_PATH)
                ))
            } else {
                None
            };
            (parsed.filter(Value::is_object), problem, Some(r.status))
        }
    };
    let usable = if problem.is_none() {
        document.as_ref()
    } else {
        None
    };
    let openwop_facts = facts::derive(usable, config.max_probe_bytes);
    let run_facts = json!({
        "tokenConfigured": config.token.is_some(),
        "mediaBaseUrl": config.media_base_url,
        "mediaRefs": config.media_refs,
        "dialect": config.dialect.as_str(),
        "openwopMajor": config.openwop_major,
    });
    let context = json!({
        "discovery": usable.cloned().unwrap_or(Value::Null),
        "openwop": openwop_facts.clone(),
        "run": run_facts.clone(),
    });
    let snapshot = DiscoverySnapshot {
        url: client.url(openwop::DISCOVERY_PATH),
        status,
        canonical_sha256: document.as_ref().map(canonical_sha256),
        document: document.clone(),
        problem: problem.clone(),
        facts: json!({"openwop": openwop_facts, "run": run_facts}),
    };
    DiscoveryResult {
        snapshot,
        context,
        problem,
        exchange,
        response: result.ok(),
    }
}

/// Judges a discovery case on the response fetched once for the run.
pub fn judge_cached(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv,
    disc: &DiscoveryResult,
) -> CaseResult {
    let started = Instant::now();
    match &disc.response {
        Some(response) => {
            judge_response(planned, case, env, response, disc.exchange.clone(), started)
        }
        None => {
            let reason = disc
                .problem
                .clone()
                .unwrap_or_else(|| "discovery was not fetched".into());
            let mut result = result_without_exchange(planned, case, Outcome::Blocked, Some(reason));
            result.exchanges.push(disc.exchange.clone());
            result
        }
    }
}

/// Checks once that the callAI seam exists. `Some(reason)` means every seam case is blocked.
pub async fn probe_seam(
    client: &HttpClient,
    path: &str,
    header: Option<(&str, &str)>,
) -> Option<String> {
    let request = HttpRequest {
        method: reqwest::Method::POST,
        path: path.to_string(),
        headers: header
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: Some(json!({"messages": [{"role": "user", "content": "mmconform seam probe"}]})),
        auth: true,
    };
    match client.send(&request).await.1 {
        Ok(r) if r.status == 404 => Some(format!(
            "seam POST {path} answered 404: the host does not expose the callAI conformance seam, so this behaviour cannot be observed"
        )),
        Ok(_) => None,
        Err(e) => Some(format!("seam probe POST {path} got no answer: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_hash_ignores_key_order() {
        let a = json!({"b": 1, "a": {"y": [1, {"d": 0, "c": 1}], "x": null}});
        let b = json!({"a": {"x": null, "y": [1, {"c": 1, "d": 0}]}, "b": 1});
        assert_eq!(canonical_sha256(&a), canonical_sha256(&b));
        assert_ne!(canonical_sha256(&a), canonical_sha256(&json!({"b": 2})));
        assert_eq!(
            canonical(&a).to_string(),
            r#"{"a":{"x":null,"y":[1,{"c":1,"d":0}]},"b":1}"#
        );
    }
}
