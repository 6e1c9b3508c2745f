//! Version negotiation (openwop `spec/v2/core/versioning.md` §1.1-§1.4,
//! `capabilities.md` §1.1): the discovery resource fetched again with the headers a
//! two-major host must tell apart. Each is a scenario endpoint of its own, sent when a
//! case needs it (never on hand: the run's one discovery answer is for one major):
//!
//! | endpoint | request |
//! |---|---|
//! | `discovery-v1` | no `OpenWOP-Version` (the v1 document, with the version fields) |
//! | `discovery-v2` | `OpenWOP-Version: 2` (the closed v2 root) |
//! | `discovery-v2.0` | `OpenWOP-Version: 2.0` (the same major, §1.3) |
//! | `discovery-unknown-major` | `OpenWOP-Version: 99` (406 `protocol_version_unsupported`) |
//! | `discovery-revalidate` | the run's discovery request with `If-None-Match: <its ETag>` (304) |

use super::discovery::DiscoveryResult;
use super::seam_case::{CaseEnv, judge_response};
use crate::http::HttpRequest;
use crate::observation::Observation;
use crate::outcome::AssertionResult;
use crate::plan::PlannedCase;
use crate::plan::result::{blocked_unsent, record_of};
use crate::scenario::suite::SuiteCase;
use std::time::Instant;

/// The header that selects a major.
pub const VERSION_HEADER: &str = "OpenWOP-Version";
/// A major no host serves, for the 406 check.
pub const UNKNOWN_MAJOR: &str = "99";
pub const REVALIDATE: &str = "discovery-revalidate";

/// Each refetch endpoint and the `OpenWOP-Version` it sends (`None`: no header).
pub const REFETCH: [(&str, Option<&str>); 4] = [
    ("discovery-v1", None),
    ("discovery-v2", Some("2")),
    ("discovery-v2.0", Some("2.0")),
    ("discovery-unknown-major", Some(UNKNOWN_MAJOR)),
];

/// Whether `endpoint` is one of the negotiation endpoints.
pub fn is_negotiation(endpoint: &str) -> bool {
    endpoint == REVALIDATE || REFETCH.iter().any(|(e, _)| *e == endpoint)
}

fn get(purpose: &str, headers: Vec<(String, String)>) -> HttpRequest {
    HttpRequest {
        purpose: purpose.to_string(),
        method: reqwest::Method::GET,
        path: super::DISCOVERY_PATH.to_string(),
        headers,
        body: None,
        auth: true,
    }
}

/// The request a negotiation case sends, or what was observed instead (`Err`).
fn request_for(
    planned: &PlannedCase,
    case: &SuiteCase,
    endpoint: &str,
    env: &CaseEnv,
    run_discovery: Option<&DiscoveryResult>,
) -> Result<HttpRequest, Box<Observation>> {
    if let Some((_, header)) = REFETCH.iter().find(|(e, _)| *e == endpoint) {
        let headers = header
            .iter()
            .map(|v| (VERSION_HEADER.to_string(), v.to_string()))
            .collect();
        return Ok(get(&planned.id, headers));
    }
    let Some(discovery) = run_discovery.filter(|d| d.status().is_some()) else {
        let reason = "the run's discovery request got no answer, so there is no ETag to revalidate";
        return Err(Box::new(blocked_unsent(planned, case, reason.into())));
    };
    let Some(tag) = discovery.header("etag") else {
        // Observed: the answer arrived and carries no ETag (capabilities.md §1.1 MUST).
        let mut record = record_of(planned, case);
        record.assertions.push(AssertionResult::new(
            "etag",
            "an ETag on the discovery answer, so If-None-Match can be answered 304 (capabilities.md §1.1)".into(),
            "no ETag header".into(),
            false,
        ));
        record.exchanges.push(discovery.cited());
        return Err(Box::new(Observation::judged(record)));
    };
    let mut headers: Vec<(String, String)> = super::discovery_header(env.major)
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    headers.push(("If-None-Match".into(), tag));
    Ok(get(&planned.id, headers))
}

/// Sends a negotiation case's request and judges the answer: what was observed.
pub async fn run_case(
    planned: &PlannedCase,
    case: &SuiteCase,
    env: &CaseEnv<'_>,
    run_discovery: Option<&DiscoveryResult>,
) -> Observation {
    let started = Instant::now();
    let endpoint = case.spec.endpoint().unwrap_or_default();
    let request = match request_for(planned, case, endpoint, env, run_discovery) {
        Ok(request) => request,
        Err(result) => return *result,
    };
    let (exchange, response) = env.client.send(&request).await;
    match response {
        Ok(response) => judge_response(planned, case, env, &response, exchange, started),
        Err(no_answer) => {
            let mut record = record_of(planned, case);
            record.exchanges.push(exchange);
            Observation::blocked(record, no_answer.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_negotiation_endpoint_is_an_openwop_endpoint() {
        for (endpoint, _) in REFETCH {
            assert!(is_negotiation(endpoint));
            assert!(super::super::ENDPOINTS.contains(&endpoint));
        }
        assert!(is_negotiation(REVALIDATE) && super::super::ENDPOINTS.contains(&REVALIDATE));
        assert!(!is_negotiation("discovery"));
    }
}
