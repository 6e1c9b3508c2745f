//! The systematic cause of a decided case, when its outcome is not its own but the
//! run's: the same probe failure or unusable description (a blocked case's reason is
//! then the same text for all of them), an authentication answer, a program that dies
//! before its first line, the same error status from the same endpoint, or a web page
//! (HTML) where the API should answer. The ledger
//! sets it on every case it records (`CaseResult::cause`); the terminal, the step
//! summary and the HTML report say each cause once with its fix, and list its cases
//! compactly, where they would otherwise repeat it on every line.

use crate::outcome::{CaseResult, Cause, Outcome};

/// What the run knows about fixing an authentication answer: which variable to set,
/// and whether a token was given at all.
pub struct AuthFix<'a> {
    pub variable: &'a str,
    pub token_given: bool,
}

impl AuthFix<'_> {
    pub fn text(&self) -> String {
        let variable = self.variable;
        if self.token_given {
            format!("check the token ({variable}, --token-env or --token-file)")
        } else {
            format!("set {variable} or --token-env / --token-file")
        }
    }
}

/// The cause `result` shares with others, if any. A case's own verdict (a pass, a
/// skip, an excused failure, a failure on a 2xx answer) has none.
pub fn systematic(result: &CaseResult, auth: &AuthFix) -> Option<Cause> {
    if result.self_check {
        return None;
    }
    match result.outcome {
        Outcome::Blocked => blocked(result, auth),
        Outcome::Fail | Outcome::Error => status_from_endpoint(result),
        _ => None,
    }
}

/// A blocked case's reason is the run's words for what stopped it (an endpoint the
/// probe found missing, a bridge that cannot start, an answer that asked for
/// credentials, a flag not given): cases blocked with the same words share the cause.
fn blocked(result: &CaseResult, auth: &AuthFix) -> Option<Cause> {
    let reason = result.reason.as_deref()?;
    // Ctrl-C's cases are counted once by every reporter already.
    if reason == crate::stop::NEVER_RAN {
        return None;
    }
    let fix = super::auth::is_refused(result).then(|| auth.text());
    Some(Cause {
        what: reason.to_string(),
        fix,
    })
}

/// A failure whose own request was answered with a server error, or with "not found"
/// or "method not allowed" (the endpoint is not what the case needs): the same status
/// from the same endpoint is one cause, whatever each case expected.
fn status_from_endpoint(result: &CaseResult) -> Option<Cause> {
    let exchange = result.exchanges.iter().rev().find(|e| !e.cached)?;
    let response = exchange.response.as_ref()?;
    let status = response.status;
    let url = exchange.request.url.split('?').next().unwrap_or_default();
    let method = &exchange.request.method;
    if (200..300).contains(&status) && is_web_page(response) {
        return Some(Cause {
            what: format!("{method} {url} answered {status} with a web page (text/html), not the API"),
            fix: Some(
                "check --target: it names a web page (a UI, a login or proxy page), not the host's API"
                    .to_string(),
            ),
        });
    }
    if !(status >= 500 || status == 404 || status == 405) {
        return None;
    }
    let fix = match status {
        404 | 405 => Some("check --target: the endpoint is not there".to_string()),
        _ => None,
    };
    Some(Cause {
        what: format!("{method} {url} answered {status}"),
        fix,
    })
}

/// A 2xx answer that is an HTML page: no profile's API answers with one (they speak JSON
/// or an event stream), so every case sent there fails for the one reason that the
/// target is something else.
fn is_web_page(response: &crate::outcome::RecordedResponse) -> bool {
    (response.headers.iter())
        .filter(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        .any(|(_, value)| {
            let value = value.trim_start().to_ascii_lowercase();
            value.starts_with("text/html") || value.starts_with("application/xhtml+xml")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_fixtures as fixtures;
    use crate::outcome::Level;

    const AUTH: AuthFix = AuthFix {
        variable: "OPENWOP_API_KEY",
        token_given: false,
    };

    fn case(outcome: Outcome, reason: Option<&str>) -> CaseResult {
        let mut r = fixtures::case(
            "c",
            "c",
            fixtures::requirement("s", Level::Must, "t"),
            outcome,
        );
        r.reason = reason.map(str::to_string);
        r
    }

    #[test]
    fn blocked_cases_share_their_reason_and_an_auth_answer_names_its_fix() {
        let probe = case(
            Outcome::Blocked,
            Some("POST u answered 404: is --target the API base?"),
        );
        assert_eq!(
            systematic(&probe, &AUTH),
            Some(Cause {
                what: "POST u answered 404: is --target the API base?".into(),
                fix: None
            })
        );
        let reason = format!(
            "{}: the host answered HTTP 401",
            crate::runner::auth::REASON_PREFIX
        );
        let refused = case(Outcome::Blocked, Some(&reason));
        let cause = systematic(&refused, &AUTH).unwrap();
        assert_eq!(
            cause.fix.as_deref(),
            Some("set OPENWOP_API_KEY or --token-env / --token-file")
        );
        let never = case(Outcome::Blocked, Some(crate::stop::NEVER_RAN));
        assert_eq!(systematic(&never, &AUTH), None);
    }

    #[test]
    fn a_failure_has_a_cause_only_on_a_server_error_or_a_missing_endpoint() {
        for (status, caused) in [
            (500, true),
            (503, true),
            (404, true),
            (405, true),
            (200, false),
            (400, false),
            (413, false),
        ] {
            let mut failed = case(Outcome::Fail, Some("status: expected 400"));
            failed.exchanges = vec![fixtures::exchange("image", Some(status), "{}")];
            let cause = systematic(&failed, &AUTH);
            assert_eq!(cause.is_some(), caused, "{status}");
            if let Some(cause) = cause {
                assert_eq!(
                    cause.what,
                    format!("POST {}/v1/ai/call answered {status}", fixtures::BASE)
                );
            }
        }
        let mut page = case(Outcome::Fail, Some("broken: the 2xx body is not JSON"));
        let mut exchange = fixtures::exchange("image", Some(200), "<html></html>");
        let response = exchange.response.as_mut().unwrap();
        response.headers = vec![("Content-Type".into(), "text/html; charset=utf-8".into())];
        page.exchanges = vec![exchange];
        let cause = systematic(&page, &AUTH).unwrap();
        assert!(
            cause.what.contains("answered 200 with a web page"),
            "{cause:?}"
        );
        assert!(cause.fix.unwrap().starts_with("check --target"));
        let response = page.exchanges[0].response.as_mut().unwrap();
        response.headers = vec![("content-type".into(), "application/json".into())];
        assert_eq!(
            systematic(&page, &AUTH),
            None,
            "a JSON 2xx is the case's own"
        );

        let mut unanswered = case(Outcome::Fail, None);
        unanswered.exchanges = vec![fixtures::exchange("image", None, "")];
        assert_eq!(systematic(&unanswered, &AUTH), None);
    }

    #[test]
    fn a_case_s_own_verdict_has_no_cause() {
        for outcome in [
            Outcome::Pass,
            Outcome::Warn,
            Outcome::Skip,
            Outcome::Excluded,
            Outcome::Xfail,
        ] {
            let mut r = case(outcome, Some("r"));
            r.exchanges = vec![fixtures::exchange("image", Some(500), "{}")];
            assert_eq!(systematic(&r, &AUTH), None, "{outcome}");
        }
        let mut check = case(Outcome::Blocked, Some("r"));
        check.self_check = true;
        assert_eq!(systematic(&check, &AUTH), None);
    }
}
