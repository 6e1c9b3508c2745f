//! What `lint` refuses in a `profile: openwop` file: another protocol's endpoint, a
//! witness expectation where no call reaches a model, `expect.self_hosted` on the
//! wrong endpoint, and part spellings openwop does not have.

use super::expect::SelfHostedExpectation;
use crate::protocol::LintFinding;
use crate::scenario::media_objects::{media_in_body, sources};
use crate::scenario::model::CaseSpec;
use serde_json::Value;

pub fn lint_case(case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
    let mut out = Vec::new();
    if let Some(endpoint) = case.endpoint()
        && !super::ENDPOINTS.contains(&endpoint)
    {
        out.push(LintFinding::new(
            format!("{base}/request/endpoint"),
            false,
            format!(
                "`{endpoint}` is not an openwop endpoint ({}); this file's profile is openwop",
                super::ENDPOINTS.join(", ")
            ),
        ));
    }
    if case.expect.witness.is_some()
        && let Some(endpoint) = case.endpoint()
        && !matches!(endpoint, "ai-call" | super::self_hosted::ENDPOINT)
    {
        out.push(LintFinding::new(
            format!("{base}/expect/witness"),
            true,
            format!("`expect.witness` needs an ai-call case: only ai/call goes on to a model, `{endpoint}` never does"),
        ));
    }
    out.extend(self_hosted_where(case, base));
    for (pointer, media) in media_in_body(raw, base) {
        check_media(&pointer, media, &mut out);
    }
    out
}

/// `expect.self_hosted` where it can be judged: `id-opaque`, `id-listed` on the discovery document
/// (no request), `endpoint-hidden` on a call through the self-hosted provider.
fn self_hosted_where(case: &CaseSpec, base: &str) -> Option<LintFinding> {
    let wanted = match super::expect::self_hosted(&case.expect)? {
        SelfHostedExpectation::IdOpaque | SelfHostedExpectation::IdListed => "discovery",
        SelfHostedExpectation::EndpointHidden => super::self_hosted::ENDPOINT,
    };
    let endpoint = case.endpoint().unwrap_or_default();
    (super::major::split_endpoint(endpoint).0 != wanted).then(|| {
        LintFinding::new(
            format!("{base}/expect/self_hosted"),
            true,
            format!("this `expect.self_hosted` is judged on endpoint `{wanted}`, not `{endpoint}`"),
        )
    })
}

fn check_media(pointer: &str, media: &Value, out: &mut Vec<LintFinding>) {
    for key in ["file", "legacy"] {
        if media.get(key).is_some() {
            out.push(LintFinding::new(
                format!("{pointer}/{key}"),
                true,
                format!("`$media.{key}` is not an openwop part field"),
            ));
        }
    }
    if sources(media).contains(&"file") {
        out.push(LintFinding::new(
            format!("{pointer}/source"),
            false,
            "openwop parts have no `file` source; they use mediaRef".into(),
        ));
    }
}
