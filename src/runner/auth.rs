//! A 401 or 403 that is an authentication answer says nothing about how the host treats
//! media: the request never got past the door. Such a case is `blocked` (never a pass
//! of a refusal expectation, never a failure: `runner::verdict` decides so on what
//! [`refusal`] finds), and the run says once what to set. The case that sends no
//! credentials on purpose (`request.auth: false`) is the one whose verdict *is* the
//! authentication answer; it is left alone.

use crate::outcome::{CaseResult, Exchange, Outcome};

/// How a case blocked by an authentication answer starts its reason; the ledger counts
/// them by it to print one line for the run.
pub const REASON_PREFIX: &str = "authentication refused";

/// Words in a 403 body that make it an authentication answer rather than a refusal of
/// what was sent (an SSRF guard may well answer 403 to a URL it will not fetch).
const AUTH_WORDS: [&str; 8] = [
    "unauthenticated",
    "unauthorized",
    "authentication",
    "api key",
    "api_key",
    "apikey",
    "credential",
    "token",
];

/// The status of `exchange` when it is an authentication answer: every 401, and a 403
/// that carries `WWW-Authenticate` or speaks of credentials.
fn auth_status(exchange: &Exchange) -> Option<u16> {
    let response = exchange.response.as_ref()?;
    match response.status {
        401 => Some(401),
        403 => {
            let challenge = response
                .headers
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case("www-authenticate"));
            let body = response.body.to_ascii_lowercase();
            (challenge || AUTH_WORDS.iter().any(|w| body.contains(w))).then_some(403)
        }
        _ => None,
    }
}

/// The status of the authentication answer one of `exchanges` (the case's own, not the
/// run's cached discovery) got, if one did: `runner::verdict` then blocks the case. A
/// case that withholds credentials on purpose (`request.auth: false`) is judged on that
/// answer instead, so the runner does not ask.
pub fn refusal(exchanges: &[Exchange]) -> Option<u16> {
    exchanges.iter().filter(|e| !e.cached).find_map(auth_status)
}

/// The reason of a case blocked by an authentication answer.
pub fn refused_reason(status: u16) -> String {
    format!("{REASON_PREFIX}: the host answered HTTP {status}, so the request was never judged")
}

/// Whether `result` was blocked by an authentication answer.
pub fn is_refused(result: &CaseResult) -> bool {
    result.outcome == Outcome::Blocked
        && result
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with(REASON_PREFIX))
}

/// The run's one line about them: how many, and what to set. `token_given` tells a
/// wrong token from a missing one.
pub fn advice(refused: usize, variable: &str, token_given: bool) -> Option<String> {
    if refused == 0 {
        return None;
    }
    let fix = super::cause::AuthFix {
        variable,
        token_given,
    }
    .text();
    Some(format!(
        "the host answered 401/403 (authentication) to {refused} case(s), which are blocked: {fix}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{RecordedRequest, RecordedResponse};

    fn answered(status: u16, body: &str) -> Vec<Exchange> {
        vec![Exchange {
            request: RecordedRequest {
                method: "POST".into(),
                url: "http://127.0.0.1:1/v1/chat/completions".into(),
                headers: vec![],
                body: None,
                sent: None,
            },
            response: Some(RecordedResponse {
                status,
                headers: vec![],
                body: body.into(),
                truncated: false,
            }),
            curl: String::new(),
            retries: 0,
            notes: vec![],
            seq: None,
            cached: false,
        }]
    }

    #[test]
    fn every_401_is_an_authentication_answer() {
        let refused = answered(401, r#"{"error":{"code":"invalid_api_key"}}"#);
        assert_eq!(refusal(&refused), Some(401));
        assert!(refused_reason(401).starts_with(REASON_PREFIX));
    }

    #[test]
    fn a_403_counts_only_when_it_speaks_of_credentials() {
        assert_eq!(
            refusal(&answered(403, r#"{"error":"url not allowed"}"#)),
            None
        );
        assert_eq!(refusal(&answered(403, "Invalid API key")), Some(403));
        assert_eq!(refusal(&answered(200, "{}")), None);
    }

    #[test]
    fn the_runs_cached_discovery_is_not_the_cases_answer() {
        let mut cited = answered(401, "unauthenticated");
        cited[0].cached = true;
        assert_eq!(refusal(&cited), None);
    }

    #[test]
    fn advice_names_the_variable() {
        assert_eq!(advice(0, "OPENAI_API_KEY", false), None);
        let line = advice(15, "OPENAI_API_KEY", false).unwrap();
        assert!(
            line.contains("15 case(s)") && line.contains("set OPENAI_API_KEY"),
            "{line}"
        );
        assert!(advice(1, "X", true).unwrap().contains("check the token"));
    }
}
