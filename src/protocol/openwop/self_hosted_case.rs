//! Sending and judging the RFC 0108 cases: a call through the self-hosted provider
//! names its id (blocked when the run knows none), and `expect.self_hosted` adds its
//! assertion (blocked when what it needs is missing: the id, or the endpoint variable).

use super::expect::{SelfHostedExpectation, self_hosted};
use super::self_hosted::{self, ENDPOINT_VAR};
use crate::http::HttpResponse;
use crate::outcome::AssertionResult;
use crate::scenario::model::Expectations;
use serde_json::Value;

/// What the RFC 0108 checks need from the run.
#[derive(Default)]
pub struct SelfHostedEnv<'a> {
    /// `OPENWOP_TEST_COMPAT_ENDPOINT`, if set.
    pub endpoint: Option<&'a str>,
    /// The run's discovery answers, by name (`discovery`, `discovery@v2`).
    pub discovery: Vec<(String, &'a HttpResponse)>,
}

/// What a case's request becomes before it is sent: a call on the self-hosted endpoint
/// names the provider, with a note saying who named it. `Err` is why the case is blocked.
pub fn prepare(
    endpoint: &str,
    expect: &Expectations,
    context: &Value,
    body: Option<Value>,
    env: &SelfHostedEnv,
) -> Result<(Option<Value>, Vec<String>), String> {
    if self_hosted(expect) == Some(SelfHostedExpectation::EndpointHidden) && env.endpoint.is_none()
    {
        return Err(format!(
            "{ENDPOINT_VAR} is not set: without the endpoint the host's self-hosted provider is \
             configured with, its absence from the answers cannot be checked (RFC 0108 §A.3)"
        ));
    }
    if endpoint != self_hosted::ENDPOINT {
        return Ok((body, Vec::new()));
    }
    let (id, from) = self_hosted::id_of(context)?;
    let note = format!("the self-hosted provider `{id}`, named by {from}");
    Ok((self_hosted::name_in(body, &id), vec![note]))
}

/// The assertion `expect.self_hosted` adds on `response` (this case's answer), with a
/// note; `Ok(None)` when the case has none, `Err` why it cannot be judged (blocked).
pub fn judge(
    expect: &Expectations,
    context: &Value,
    response: &HttpResponse,
    env: &SelfHostedEnv,
) -> Result<Option<(AssertionResult, Vec<String>)>, String> {
    match self_hosted(expect) {
        None => Ok(None),
        Some(SelfHostedExpectation::IdOpaque) => id_opaque(context).map(Some),
        Some(SelfHostedExpectation::IdListed) => id_listed(context).map(Some),
        Some(SelfHostedExpectation::EndpointHidden) => {
            let endpoint = env
                .endpoint
                .ok_or_else(|| format!("{ENDPOINT_VAR} is not set"))?;
            Ok(Some((endpoint_hidden(endpoint, response, env), Vec::new())))
        }
    }
}

fn id_opaque(context: &Value) -> Result<(AssertionResult, Vec<String>), String> {
    let (id, from) = self_hosted::id_of(context)?;
    let location = self_hosted::id_location(&id);
    let actual = match &location {
        Some(why) => format!("`{id}`: {why}"),
        None => format!("`{id}`"),
    };
    let assertion = AssertionResult::new(
        "self_hosted_id",
        "an id that encodes no location (no URL, userinfo, IP address, host:port, localhost or DNS name)"
            .into(),
        actual,
        location.is_none(),
    );
    Ok((
        assertion,
        vec![format!("the self-hosted id was named by {from}")],
    ))
}

fn id_listed(context: &Value) -> Result<(AssertionResult, Vec<String>), String> {
    let (id, from) = self_hosted::id_of(context)?;
    let listed = context["openwop"]["selfHostedIdListed"] == Value::Bool(true);
    let assertion = AssertionResult::new(
        "self_hosted_listed",
        "the self-hosted id among the host's providers (v1 aiProviders.supported, v2 aiProviders.providers)"
            .into(),
        if listed {
            format!("`{id}` is listed")
        } else {
            format!("`{id}` is not listed")
        },
        listed,
    );
    Ok((
        assertion,
        vec![format!("the self-hosted id was named by {from}")],
    ))
}

/// Whether the endpoint shows in this answer or a discovery answer. The assertion
/// names where it showed, never the endpoint.
fn endpoint_hidden(
    endpoint: &str,
    response: &HttpResponse,
    env: &SelfHostedEnv,
) -> AssertionResult {
    let mut surfaces = self_hosted::surfaces_of("this answer's", response);
    for (name, answer) in &env.discovery {
        surfaces.extend(self_hosted::surfaces_of(
            &format!("the {name} answer's"),
            answer,
        ));
    }
    let leaks = self_hosted::leaks(&self_hosted::needles(endpoint), &surfaces);
    let actual = if leaks.is_empty() {
        format!(
            "absent from {} bodies and headers (URL, host:port and host looked for)",
            surfaces.len()
        )
    } else {
        format!("the configured endpoint appears in {}", leaks.join(", "))
    };
    AssertionResult::new(
        "self_hosted_endpoint",
        format!("the configured endpoint ({ENDPOINT_VAR}) on no wire surface"),
        actual,
        leaks.is_empty(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(body: &str, headers: &[(&str, &str)]) -> HttpResponse {
        HttpResponse {
            status: 200,
            content_type: Some("application/json".into()),
            body: body.as_bytes().to_vec(),
            truncated: false,
            raw_headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn expecting(check: SelfHostedExpectation) -> Expectations {
        let written = match check {
            SelfHostedExpectation::IdOpaque => "id-opaque",
            SelfHostedExpectation::IdListed => "id-listed",
            SelfHostedExpectation::EndpointHidden => "endpoint-hidden",
        };
        let mut expect = Expectations::default();
        expect
            .protocol_keys
            .insert("self_hosted".into(), serde_json::json!(written));
        expect
    }

    const ENDPOINT: &str = "http://compat.example.invalid:8089/v1";

    #[test]
    fn a_leak_in_a_discovery_header_fails_without_printing_the_endpoint() {
        let discovery = answer("{}", &[("x-upstream", "compat.example.invalid:8089")]);
        let env = SelfHostedEnv {
            endpoint: Some(ENDPOINT),
            discovery: vec![("discovery".into(), &discovery)],
        };
        let expect = expecting(SelfHostedExpectation::EndpointHidden);
        let clean = answer(r#"{"ok": true}"#, &[]);
        let (passed, _) = judge(&expect, &json!({}), &clean, &env).unwrap().unwrap();
        assert!(!passed.passed);
        assert!(
            passed
                .actual
                .contains("the discovery answer's header x-upstream")
        );
        assert!(!passed.actual.contains("example.invalid"));
        let env = SelfHostedEnv {
            endpoint: Some(ENDPOINT),
            discovery: Vec::new(),
        };
        let (ok, _) = judge(&expect, &json!({}), &clean, &env).unwrap().unwrap();
        assert!(ok.passed, "{}", ok.actual);
    }

    #[test]
    fn without_the_variable_or_the_id_the_case_is_blocked_naming_what_is_missing() {
        let expect = expecting(SelfHostedExpectation::EndpointHidden);
        let env = SelfHostedEnv::default();
        let blocked = prepare(self_hosted::ENDPOINT, &expect, &json!({}), None, &env);
        assert!(blocked.unwrap_err().contains(ENDPOINT_VAR));
        let gap = json!({"openwop": {"selfHostedId": null, "selfHostedGap": "pass --self-hosted-provider ID"}});
        let plain = Expectations::default();
        let blocked = prepare(self_hosted::ENDPOINT, &plain, &gap, None, &env).unwrap_err();
        assert!(blocked.contains("--self-hosted-provider"));
        let known =
            json!({"openwop": {"selfHostedId": "compat", "selfHostedIdFrom": "the v1 document"}});
        let (body, notes) = prepare(
            self_hosted::ENDPOINT,
            &plain,
            &known,
            Some(json!({"provider": "x", "messages": []})),
            &env,
        )
        .unwrap();
        assert_eq!(body, Some(json!({"provider": "compat", "messages": []})));
        assert!(notes[0].contains("the v1 document"));
    }

    /// Whether `check` passes on the discovery facts `openwop` (no answer needed).
    fn passes_on_facts(check: SelfHostedExpectation, openwop: Value) -> (bool, String) {
        let (a, _) = judge(
            &expecting(check),
            &json!({ "openwop": openwop }),
            &answer("{}", &[]),
            &SelfHostedEnv::default(),
        )
        .unwrap()
        .unwrap();
        (a.passed, a.actual)
    }

    #[test]
    fn a_url_shaped_id_fails_id_opaque() {
        let url = json!({"selfHostedId": "http://10.0.0.7:8000/v1", "selfHostedIdFrom": "x"});
        assert!(!passes_on_facts(SelfHostedExpectation::IdOpaque, url).0);
        let name = json!({"selfHostedId": "compat", "selfHostedIdFrom": "x"});
        assert!(passes_on_facts(SelfHostedExpectation::IdOpaque, name).0);
        let unlisted =
            json!({"selfHostedId": "compat", "selfHostedIdFrom": "x", "selfHostedIdListed": false});
        let (passed, actual) = passes_on_facts(SelfHostedExpectation::IdListed, unlisted);
        assert!(!passed && actual.contains("not listed"), "{actual}");
    }
}
