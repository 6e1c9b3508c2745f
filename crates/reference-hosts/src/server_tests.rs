//! The reference host end to end over loopback HTTP.

use serde_json::{Value, json};

use super::test_support::{
    call_verdict, client, data, envelope, envelope_verdict, loopback, media, png, text, user,
};
use super::{ReferenceConfig, spawn};

async fn post(client: &reqwest::Client, url: &str, body: &Value, bearer: Option<&str>) -> String {
    let mut request = client.post(url).json(body);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    call_verdict(status, &response.json().await.unwrap())
}

#[tokio::test]
async fn serves_discovery_and_both_seams() {
    let config = ReferenceConfig {
        token: Some("s3cret".into()),
        max_request_body_bytes: Some(1_000_000),
        ..ReferenceConfig::default()
    };
    let host = spawn(config, loopback()).await.unwrap();
    let base = host.base_url();
    assert_eq!(base, format!("http://127.0.0.1:{}", host.addr.port()));
    let client = client();

    // Discovery is public even when the seams need a token.
    let response = client
        .get(format!("{base}/.well-known/openwop"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let doc: Value = response.json().await.unwrap();
    assert_eq!(doc["protocolVersion"], "1.0");
    assert_eq!(doc["limits"]["maxRequestBodyBytes"], 1_000_000);
    assert_eq!(
        doc["aiProviders"]["input"]["modalities"],
        json!(["text", "image"])
    );

    let body = user(json!([text("what is this?"), png()]));
    for path in [
        "/v1/host/sample/ai/call",
        "/conformance/seams/sample/ai/call",
    ] {
        let url = format!("{base}{path}");
        assert_eq!(
            post(&client, &url, &body, Some("s3cret")).await,
            "200 text,image x2"
        );
        assert_eq!(
            post(&client, &url, &body, None).await,
            "401 unauthenticated"
        );
        assert_eq!(
            post(&client, &url, &body, Some("wrong")).await,
            "401 unauthenticated"
        );
    }

    // The full success body, not just its summary.
    let answer: Value = client
        .post(format!("{base}/v1/host/sample/ai/call"))
        .bearer_auth("s3cret")
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        answer,
        json!({"ok": true, "accepted": true, "advertised": ["text", "image"], "modalities": ["text", "image"], "parts": 2})
    );
    host.shutdown().await;
}

#[tokio::test]
async fn unknown_paths_methods_and_bad_json_get_flat_envelopes() {
    let host = spawn(ReferenceConfig::default(), loopback()).await.unwrap();
    let base = host.base_url();
    let client = client();

    let response = client.get(format!("{base}/nope")).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(
        call_verdict(404, &response.json().await.unwrap()),
        "404 not_found"
    );

    let response = client
        .get(format!("{base}/v1/host/sample/ai/call"))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert_eq!(
        call_verdict(status, &response.json().await.unwrap()),
        "405 method_not_allowed"
    );

    let response = client
        .post(format!("{base}/v1/host/sample/ai/call"))
        .body("{not json")
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert_eq!(
        call_verdict(status, &response.json().await.unwrap()),
        "400 invalid_request"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn request_body_cap_is_the_configured_one() {
    let client = client();
    // 3 MiB of inline data: above axum's 2 MiB default, below the configured cap.
    let big = user(json!([media(
        "image",
        "image/png",
        "data",
        &data(3 * 1024 * 1024)
    )]));
    let config = ReferenceConfig {
        max_bytes_per_part: None,
        max_request_body_bytes: Some(8 * 1024 * 1024),
        ..ReferenceConfig::default()
    };
    let host = spawn(config, loopback()).await.unwrap();
    let url = format!("{}/v1/host/sample/ai/call", host.base_url());
    assert_eq!(post(&client, &url, &big, None).await, "200 image x1");
    host.shutdown().await;

    let config = ReferenceConfig {
        max_bytes_per_part: None,
        max_request_body_bytes: Some(1024 * 1024),
        ..ReferenceConfig::default()
    };
    let host = spawn(config, loopback()).await.unwrap();
    let url = format!("{}/v1/host/sample/ai/call", host.base_url());
    assert_eq!(
        post(&client, &url, &big, None).await,
        "413 payload_too_large"
    );
    // Auth is judged before size: an unauthenticated oversized call is a 401.
    host.shutdown().await;
    let config = ReferenceConfig {
        max_request_body_bytes: Some(64),
        token: Some("t".into()),
        ..ReferenceConfig::default()
    };
    let host = spawn(config, loopback()).await.unwrap();
    let url = format!("{}/v1/host/sample/ai/call", host.base_url());
    assert_eq!(post(&client, &url, &big, None).await, "401 unauthenticated");
    assert_eq!(
        post(&client, &url, &big, Some("t")).await,
        "413 payload_too_large"
    );
    host.shutdown().await;
}

/// Sends `body` (raw text, so malformed JSON can be sent too) to the envelope seam.
async fn post_envelope(
    client: &reqwest::Client,
    url: &str,
    body: String,
    bearer: Option<&str>,
) -> String {
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .body(body);
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    envelope_verdict(status, &response.json().await.unwrap())
}

#[tokio::test]
async fn serves_the_envelope_accept_seam_on_both_paths() {
    let config = ReferenceConfig {
        token: Some("s3cret".into()),
        ..ReferenceConfig::default()
    };
    let host = spawn(config, loopback()).await.unwrap();
    let base = host.base_url();
    let client = client();
    for path in [
        "/v1/host/sample/envelope/accept",
        "/conformance/seams/sample/envelope/accept",
    ] {
        let url = format!("{base}{path}");
        let fresh = || json!({"envelope": envelope(), "runTrustBoundary": "untrusted"}).to_string();
        assert_eq!(
            post_envelope(&client, &url, fresh(), Some("s3cret")).await,
            "200 accepted trust=untrusted",
            "{path}"
        );
        assert_eq!(
            post_envelope(&client, &url, fresh(), None).await,
            "401 unauthenticated",
            "{path}"
        );
        // The v2 spelling answers with the v2 registry's code (v2_errors.rs).
        let refused = if path.starts_with("/v1/") {
            "400 invalid_request"
        } else {
            "400 validation_error"
        };
        for bad in ["{not json", "[]", "{}"] {
            assert_eq!(
                post_envelope(&client, &url, bad.into(), Some("s3cret")).await,
                refused,
                "{path} {bad}"
            );
        }
        let response = client.get(&url).bearer_auth("s3cret").send().await.unwrap();
        assert_eq!(response.status(), 405, "{path}");
    }

    // One host remembers across requests and across both spellings of the seam.
    let first = json!({"envelope": envelope()});
    let mut repeat = first.clone();
    repeat["counters"] = json!({"clarificationRounds": {"current": 3, "cap": 3}});
    let v1 = format!("{base}/v1/host/sample/envelope/accept");
    let v2 = format!("{base}/conformance/seams/sample/envelope/accept");
    assert_eq!(
        post_envelope(&client, &v1, first.to_string(), Some("s3cret")).await,
        "200 accepted trust=trusted"
    );
    assert_eq!(
        post_envelope(&client, &v2, repeat.to_string(), Some("s3cret")).await,
        "200 accepted trust=trusted"
    );
    host.shutdown().await;
}
