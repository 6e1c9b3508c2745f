//! Test helpers: request builders, and observing a live reference host over loopback
//! as one short verdict string (`"200 text,image x2"`, `"400 unsupported_modality"`),
//! so a test reads like the behaviour it pins.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use super::mock_upstream::{MockUpstream, describe};
use super::{ReferenceConfig, spawn};

/// A body with one user message carrying `content`.
pub fn user(content: Value) -> Value {
    json!({"messages": [{"role": "user", "content": content}]})
}

pub fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

/// `n` bytes of base64 with no file signature: validity is all that matters, and bytes
/// that name no type are never refused for disagreeing with a part's `mimeType`.
pub fn data(n: usize) -> String {
    STANDARD.encode(vec![0x42; n])
}

/// A non-text part with one source.
pub fn media(part_type: &str, mime: &str, key: &str, value: &str) -> Value {
    json!({"type": part_type, "mimeType": mime, key: value})
}

pub fn png() -> Value {
    media("image", "image/png", "data", &data(16))
}

pub fn wav() -> Value {
    media("audio", "audio/wav", "data", &data(16))
}

pub fn mp4() -> Value {
    media("video", "video/mp4", "data", &data(16))
}

/// A valid clarification.request envelope (the shipped fixture's shape) with ids no
/// other call returns, so correlation dedup never links two probes.
pub fn envelope() -> Value {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    json!({
        "type": "clarification.request",
        "schemaVersion": 1,
        "envelopeId": format!("env-{n}"),
        "correlationId": format!("corr-{n}"),
        "payload": {"questions": [{"id": "q1", "question": "Which chart?"}]},
        "meta": {"source": "ai-generation", "ts": "2026-11-22T08:00:00Z"}
    })
}

/// `envelope()` turned into `kind` with `payload`.
pub fn envelope_of(kind: &str, payload: Value) -> Value {
    let mut envelope = envelope();
    envelope["type"] = json!(kind);
    envelope["payload"] = payload;
    envelope
}

/// What the faithful host's discovery looks like through `Probe::Discovery`.
pub const FAITHFUL_DISCOVERY: &str = "keys=protocolVersion,supportedEnvelopes,schemaVersions,limits,implementation,aiProviders,protocolVersions,preferredVersion modalities=text,image";

/// What the faithful host's discovery looks like through `Probe::DiscoveryEnvelopes`.
pub const FAITHFUL_ENVELOPES: &str =
    "envelopes=clarification.request,schema.request,schema.response,error versions=1,1,1,1";

pub fn call(body: Value) -> Probe {
    Probe::Call { body, bearer: None }
}

/// A call naming `provider: compat`, sent to a host forwarding to a mock upstream.
pub fn forward(mut body: Value) -> Probe {
    body["provider"] = json!("compat");
    Probe::Forward { body }
}

/// An accept-seam request: `envelope` plus the other body fields in `rest`.
pub fn accept(envelope: Value, rest: Value) -> Probe {
    let mut body = rest;
    body["envelope"] = envelope;
    Probe::Envelope { body }
}

/// The plain valid envelope, alone.
pub fn plain() -> Probe {
    accept(envelope(), json!({}))
}

/// The valid envelope without `meta`.
pub fn without_meta() -> Probe {
    let mut envelope = envelope();
    envelope.as_object_mut().unwrap().remove("meta");
    accept(envelope, json!({}))
}

/// Summarises a pure validation result the same way an HTTP answer is summarised.
pub fn verdict_of(result: Result<super::AcceptedSummary, super::Rejection>) -> String {
    match result {
        Ok(summary) => accepted(&summary.modalities, summary.parts),
        Err(rejection) => format!(
            "{} {}",
            rejection.status().as_u16(),
            rejection.code.as_str()
        ),
    }
}

fn accepted(modalities: &[String], parts: usize) -> String {
    let list = if modalities.is_empty() {
        "-".to_owned()
    } else {
        modalities.join(",")
    };
    format!("200 {list} x{parts}")
}

/// What to send.
#[derive(Debug, Clone)]
pub enum Probe {
    /// GET discovery; the verdict lists the root keys and the root input modalities.
    Discovery,
    /// POST the v1 seam, with an optional bearer token.
    Call {
        body: Value,
        bearer: Option<&'static str>,
    },
    /// GET discovery; the verdict lists supportedEnvelopes and their schemaVersions.
    DiscoveryEnvelopes,
    /// POST the v1 envelope accept seam.
    Envelope { body: Value },
    /// POST the v1 seam with the host forwarding to a fresh mock upstream (only
    /// through `observe`); the verdict is the call's, then `=>` and what the model
    /// received (`mock_upstream::describe`).
    Forward { body: Value },
    /// GET discovery with `OpenWOP-Version` (or none); with `revalidate`, GET it again
    /// with `If-None-Match` set to the first answer's ETag and report the second.
    Negotiate {
        version: Option<&'static str>,
        revalidate: bool,
    },
    /// POST the v2 seam (`OpenWOP-Version: 2.0`); the verdict is `"<status> <code>"`,
    /// plus `+key` for each top-level key beyond `{error, message, details}`.
    CallV2 { body: Value },
    /// GET discovery, then POST the v1 seam naming the advertised self-hosted provider
    /// (RFC 0108): `"selfHosted=<ids> <call verdict>"` (` (not in supported)` after the
    /// ids when `supported` lacks one), plus ` +endpoint` when the answer carries
    /// [`SELF_HOSTED_ENDPOINT`].
    SelfHosted { body: Value },
}

/// The endpoint the self-hosted probes configure (never fetched).
pub const SELF_HOSTED_ENDPOINT: &str = "http://compat.example.invalid:8089/v1";

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        // Environment proxies must not intercept loopback test traffic.
        .no_proxy()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("reqwest client")
}

pub fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// Spawns a host for `config`, sends `probe`, shuts the host down, returns the verdict.
pub async fn observe(mut config: ReferenceConfig, probe: &Probe) -> String {
    let mock = match probe {
        Probe::Forward { .. } => Some(MockUpstream::start(200).await),
        _ => None,
    };
    if let Some(mock) = &mock {
        config.upstream = Some(mock.base());
    }
    let host = spawn(config, loopback())
        .await
        .expect("spawn reference host");
    let verdict = send(&client(), &host.base_url(), probe).await;
    host.shutdown().await;
    match mock {
        Some(mock) => format!("{verdict} => {}", describe(&mock.received())),
        None => verdict,
    }
}

/// Sends `probe` to the host at `base` and summarises the answer.
pub async fn send(client: &reqwest::Client, base: &str, probe: &Probe) -> String {
    match probe {
        Probe::Discovery => discovery_verdict(&discovery(client, base).await),
        Probe::DiscoveryEnvelopes => envelopes_verdict(&discovery(client, base).await),
        Probe::Envelope { body } => {
            let response = client
                .post(format!("{base}/v1/host/sample/envelope/accept"))
                .json(body)
                .send()
                .await
                .expect("envelope accept request");
            let status = response.status().as_u16();
            let body: Value = response.json().await.expect("envelope accept answers JSON");
            envelope_verdict(status, &body)
        }
        Probe::Forward { body } => post_call(client, base, body, None).await,
        Probe::Call { body, bearer } => post_call(client, base, body, *bearer).await,
        Probe::Negotiate {
            version,
            revalidate,
        } => negotiate(client, base, *version, *revalidate).await,
        Probe::SelfHosted { body } => self_hosted(client, base, body).await,
        Probe::CallV2 { body } => {
            let response = client
                .post(format!("{base}/conformance/seams/sample/ai/call"))
                .header("OpenWOP-Version", "2.0")
                .json(body)
                .send()
                .await
                .expect("v2 ai/call request");
            let status = response.status().as_u16();
            let body: Value = response.json().await.expect("v2 ai/call answers JSON");
            let extra: String = body
                .as_object()
                .into_iter()
                .flat_map(|o| o.keys())
                .filter(|k| !["error", "message", "details"].contains(&k.as_str()))
                .map(|k| format!(" +{k}"))
                .collect();
            format!("{status} {}{extra}", body["error"].as_str().unwrap_or("-"))
        }
    }
}

/// `"200 etag root=<v1|v2> versions=1.0,2.0"`, `"406 protocol_version_unsupported
/// versions=1.0,2.0"`, or the revalidation's status (`"304"`).
async fn negotiate(
    client: &reqwest::Client,
    base: &str,
    version: Option<&str>,
    revalidate: bool,
) -> String {
    let get = |tag: Option<String>| {
        let mut request = client.get(format!("{base}/.well-known/openwop"));
        if let Some(version) = version {
            request = request.header("OpenWOP-Version", version);
        }
        if let Some(tag) = tag {
            request = request.header("If-None-Match", tag);
        }
        request.send()
    };
    let response = get(None).await.expect("discovery request");
    let status = response.status().as_u16();
    let tag = response
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body: Value = response.json().await.expect("discovery answers JSON");
    if revalidate {
        let again = get(tag.clone().or(Some("\"none\"".into()))).await;
        return again.expect("revalidation").status().as_u16().to_string();
    }
    let versions = |v: &Value| {
        v.as_array()
            .map(|list| {
                let names: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                names.join(",")
            })
            .unwrap_or_else(|| "-".into())
    };
    if status != 200 {
        let code = body["error"].as_str().unwrap_or("-");
        return format!(
            "{status} {code} versions={}",
            versions(&body["details"]["protocolVersions"])
        );
    }
    let root = if body["supportedEnvelopes"].is_object() {
        "v2"
    } else {
        "v1"
    };
    // `supported` is v1's claim; in a v2 root it is the fault.
    let supported = if root == "v2" && body["aiProviders"].get("supported").is_some() {
        " supported"
    } else {
        ""
    };
    format!(
        "{status} {} root={root}{supported} versions={}",
        if tag.is_some() { "etag" } else { "no-etag" },
        versions(&body["protocolVersions"])
    )
}

async fn post_call(
    client: &reqwest::Client,
    base: &str,
    body: &Value,
    bearer: Option<&str>,
) -> String {
    let mut request = client
        .post(format!("{base}/v1/host/sample/ai/call"))
        .json(body);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("ai/call request");
    let status = response.status().as_u16();
    let body: Value = response.json().await.expect("ai/call answers JSON");
    call_verdict(status, &body)
}

async fn self_hosted(client: &reqwest::Client, base: &str, body: &Value) -> String {
    let doc = discovery(client, base).await;
    let ids = &doc["aiProviders"]["selfHosted"];
    let mut body = body.clone();
    body["provider"] = ids[0].clone();
    let response = client
        .post(format!("{base}/v1/host/sample/ai/call"))
        .json(&body)
        .send()
        .await
        .expect("self-hosted ai/call request");
    let status = response.status().as_u16();
    let answer: Value = response.json().await.expect("ai/call answers JSON");
    let leak = if answer.to_string().contains(SELF_HOSTED_ENDPOINT) {
        " +endpoint"
    } else {
        ""
    };
    let shown: Vec<&str> = ids
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let supported = &doc["aiProviders"]["supported"];
    let unlisted = if shown
        .iter()
        .all(|id| supported.as_array().is_some_and(|s| s.contains(&json!(id))))
    {
        ""
    } else {
        " (not in supported)"
    };
    let mut answer = answer;
    if let Some(map) = answer.as_object_mut() {
        // What the self-hosted path adds; the call verdict reads the rest.
        map.remove("provider");
        map.remove("endpoint");
    }
    let verdict = call_verdict(status, &answer);
    format!("selfHosted={}{unlisted} {verdict}{leak}", shown.join(","))
}

async fn discovery(client: &reqwest::Client, base: &str) -> Value {
    client
        .get(format!("{base}/.well-known/openwop"))
        .send()
        .await
        .expect("discovery request")
        .json()
        .await
        .expect("discovery JSON")
}

/// `"envelopes=a,b versions=1,1"`: the advertised kinds, then each one's schema version.
fn envelopes_verdict(doc: &Value) -> String {
    if let Some(text) = doc["supportedEnvelopes"].as_str() {
        return format!("envelopes={text:?} (a string)");
    }
    let kinds: Vec<&str> = doc["supportedEnvelopes"]
        .as_array()
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let versions: Vec<String> = kinds
        .iter()
        .map(|kind| doc["schemaVersions"][*kind].to_string())
        .collect();
    format!(
        "envelopes={} versions={}",
        kinds.join(","),
        versions.join(",")
    )
}

/// One accept-seam answer: `"200 accepted trust=trusted"`, `"200 invalid details=1
/// iso8601"` (the flag when the reason names ISO 8601), `"200 gated allowed=4"`,
/// `"200 breached schema 3/3"`; `-` marks a missing field. A body without a `status`
/// is an error envelope, summarised as `call_verdict` does.
pub fn envelope_verdict(status: u16, body: &Value) -> String {
    let count = |field: &str| {
        body[field]
            .as_array()
            .map_or("-".to_owned(), |list| list.len().to_string())
    };
    match body["status"].as_str() {
        Some("accepted") => {
            let trust = body["normalizedMeta"]["contentTrust"]
                .as_str()
                .unwrap_or("-");
            format!("{status} accepted trust={trust}")
        }
        Some("invalid") => {
            let reason = body["reason"]
                .as_str()
                .expect("invalid outcome has a reason");
            let iso = if reason.contains("ISO 8601") {
                " iso8601"
            } else {
                ""
            };
            format!("{status} invalid details={}{iso}", count("details"))
        }
        Some("gated") => {
            assert!(body["reason"].is_string(), "{body}");
            format!("{status} gated allowed={}", count("allowedKinds"))
        }
        Some("breached") => format!(
            "{status} breached {} {}/{}",
            body["capKind"].as_str().unwrap_or("-"),
            body["current"],
            body["cap"]
        ),
        Some(other) => panic!("unknown outcome status `{other}`: {body}"),
        None => call_verdict(status, body),
    }
}

fn discovery_verdict(doc: &Value) -> String {
    let keys: Vec<&str> = doc
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let modalities = doc["aiProviders"]["input"]["modalities"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_else(|| "-".into());
    format!("keys={} modalities={modalities}", keys.join(","))
}

/// `"200 text,image x2"` for a success; `"400 code"` (plus `" nested"` for the legacy
/// shape) for an error, after checking the body has no keys beyond the envelope's.
pub fn call_verdict(status: u16, body: &Value) -> String {
    if status == 200 {
        assert_eq!(body["ok"], true, "{body}");
        assert_eq!(body["accepted"], true, "{body}");
        let modalities: Vec<String> = body["modalities"]
            .as_array()
            .expect("modalities array")
            .iter()
            .map(|m| m.as_str().expect("modality string").to_owned())
            .collect();
        let parts = body["parts"].as_u64().expect("parts count") as usize;
        return accepted(&modalities, parts);
    }
    let object = body.as_object().expect("error body is an object");
    match &body["error"] {
        Value::String(code) => {
            for key in object.keys() {
                assert!(
                    ["error", "message", "details"].contains(&key.as_str()),
                    "flat envelope has extra key `{key}`: {body}"
                );
            }
            assert!(body["message"].is_string(), "{body}");
            format!("{status} {code}")
        }
        Value::Object(inner) => {
            let code = inner["code"].as_str().expect("nested code");
            format!("{status} {code} nested")
        }
        other => panic!("no error code in {other}: {body}"),
    }
}
