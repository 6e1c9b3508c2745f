//! What a 404 or 405 to a door's probe asks of the user. "Is --target the API base?"
//! is right only when it is not: a server that does not know the model says so in its
//! body; one that answers `GET {base}/models` has the right base and lacks this door
//! (a Chat-only server asked for `/responses`); a base with `/v1` twice, or without
//! the `/v1` its server answers under, gets the URL to pass instead. The look-ups are
//! GETs the run's request list records.

use super::wire::Wire;
use crate::http::{HttpClient, HttpRequest};

/// Longest excerpt of the server's own words shown in a probe's hint.
const BODY_EXCERPT: usize = 300;

/// The hint for a probe of `wire` naming `model` that got 404/405 with `body`.
pub async fn for_missing_door(wire: &Wire, client: &HttpClient, model: &str, body: &str) -> String {
    if body.contains("model_not_found") || body.contains("does not exist") {
        let excerpt: String = body.chars().take(BODY_EXCERPT).collect();
        return format!(
            "the server does not know the model `{model}` (it said: {excerpt}): pass --model NAME, one GET /models lists"
        );
    }
    let base = client.url("");
    let base = base.trim_end_matches('/');
    if let Some(once) = base.strip_suffix("/v1/v1") {
        return format!("--target names /v1 twice: pass --target {once}/v1");
    }
    if answers(wire, client, "/models").await {
        return format!(
            "the server answers GET {base}/models, so --target is its API base, but has no POST {base}{}: it does not serve --profile {}",
            wire.path, wire.profile
        );
    }
    if !base.ends_with("/v1") && answers(wire, client, "/v1/models").await {
        return format!(
            "the API base is {base}/v1 (GET {base}/v1/models answers): pass --target {base}/v1"
        );
    }
    "is --target the API base (http://host:port/v1)?".into()
}

/// Whether `GET {base}{path}` is there: any answer but 404 and 405 (a 401 is a list
/// behind a token, still a list).
async fn answers(wire: &Wire, client: &HttpClient, path: &str) -> bool {
    let request = HttpRequest {
        purpose: format!(
            "probe: is {path} there (the {} door answered 404)",
            wire.endpoint
        ),
        method: reqwest::Method::GET,
        path: path.into(),
        headers: std::iter::once(("Accept", "application/json"))
            .chain(wire.headers.iter().copied())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: None,
        auth: true,
    };
    let (_exchange, answer) = client.send(&request).await;
    answer.is_ok_and(|r| !matches!(r.status, 404 | 405))
}
