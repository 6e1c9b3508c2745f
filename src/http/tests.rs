use super::*;

fn client(settings: HttpSettings, secrets: &[&str], secret_headers: &[&str]) -> HttpClient {
    let redactor = Redactor::new(secrets.iter().copied()).with_sensitive_headers(secret_headers);
    HttpClient::new(settings, redactor, Stop::never()).unwrap()
}

#[test]
fn curl_line_quotes_and_hides_the_token_and_secret_headers() {
    let mut settings = HttpSettings::new("http://127.0.0.1:1");
    settings.token = Some("s3cret-token".into());
    settings.headers = vec![
        ("Cookie".into(), "id=s3cret".into()),
        ("X-Api-Key".into(), "k3y-value".into()),
        ("X-Plain".into(), "visible".into()),
    ];
    let client = client(settings, &["s3cret-token"], &["x-api-key"]);
    let req = HttpRequest {
        purpose: "test".into(),
        method: reqwest::Method::POST,
        path: "/x".into(),
        headers: vec![],
        body: None,
        auth: true,
    };
    let line = client.curl_line(&req, Some(&JsonBody::of(&serde_json::json!({"t": "it's"}))));
    assert!(line.contains("\"Authorization: Bearer $TOKEN\""), "{line}");
    assert!(line.contains(r#"-H 'Cookie: '"$COOKIE""#), "{line}");
    assert!(line.contains(r#"-H 'X-Api-Key: '"$X_API_KEY""#), "{line}");
    assert!(line.contains("-H 'X-Plain: visible'"), "{line}");
    assert!(line.contains(r#"--data-raw '{"t":"it'\''s"}'"#), "{line}");
    assert!(
        !line.contains("s3cret") && !line.contains("k3y-value"),
        "{line}"
    );
}

#[test]
fn curl_line_carries_tls_choices() {
    let mut settings = HttpSettings::new("https://127.0.0.1:1");
    settings.tls.insecure = true;
    let line = client(settings, &[], &[]).curl_line(
        &HttpRequest {
            purpose: "test".into(),
            method: reqwest::Method::GET,
            path: "/".into(),
            headers: vec![],
            body: None,
            auth: false,
        },
        None,
    );
    assert!(line.starts_with("curl -sS -i -k -X GET"), "{line}");
}

#[test]
fn a_bad_cacert_is_an_error_not_a_panic() {
    let mut settings = HttpSettings::new("https://127.0.0.1:1");
    settings.tls.cacert_pem = Some(b"-----BEGIN CERTIFICATE-----\nnot base64\n".to_vec());
    let made = HttpClient::new(settings, Redactor::default(), Stop::never());
    assert!(made.is_err());
}

#[tokio::test]
async fn a_refused_connection_is_retried_then_reported_as_no_answer() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut settings = HttpSettings::new(format!("http://127.0.0.1:{port}"));
    settings.retries = 1;
    let client = client(settings, &[], &[]);
    let (exchange, result) = client
        .send(&HttpRequest {
            purpose: "test".into(),
            method: reqwest::Method::GET,
            path: "/".into(),
            headers: vec![],
            body: None,
            auth: false,
        })
        .await;
    let error = result.unwrap_err();
    assert!(matches!(error, SendError::Transport(_)), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("no answer: connection failed"),
        "{error}"
    );
    assert_eq!(exchange.retries, 1);
    assert!(
        exchange.notes[0].starts_with("retry 1 after no answer"),
        "{:?}",
        exchange.notes
    );
}

/// A loopback server answering one request with the SHA-256 and `Content-Length` of the
/// body it read.
async fn digest_server() -> String {
    use axum::body::Bytes;
    use axum::http::HeaderMap;
    let app = axum::Router::new()
        .route(
            "/",
            axum::routing::post(|headers: HeaderMap, body: Bytes| async move {
                let length = headers
                    .get("content-length")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("none")
                    .to_string();
                format!("{} {length}", crate::digest::sha256_hex(&body))
            }),
        )
        .layer(axum::extract::DefaultBodyLimit::disable());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn an_owned_body_with_a_large_part_arrives_as_serialized_with_its_length() {
    let url = digest_server().await;
    let mut settings = HttpSettings::new(url);
    settings.env_proxy = false;
    let client = client(settings, &[], &[]);
    let large = "QUJD".repeat(json_body::MOVED_STRING_BYTES / 4 + 7);
    let body = serde_json::json!({"messages": [{"content": [{"type": "text", "text": "hi"},
        {"type": "image", "data": large}]}]});
    let expected = body.to_string();
    let request = HttpRequest {
        purpose: "test".into(),
        method: reqwest::Method::POST,
        path: "/".into(),
        headers: vec![],
        body: Some(body),
        auth: false,
    };
    let (exchange, result) = client.send_owned(request).await;
    let response = result.unwrap();
    let answer = String::from_utf8(response.body).unwrap();
    let digest = crate::digest::sha256_hex(&expected);
    assert_eq!(answer, format!("{digest} {}", expected.len()));
    let sent = exchange.request.sent.unwrap();
    assert_eq!(
        (sent.bytes, sent.sha256, sent.elided),
        (expected.len(), digest, true)
    );
    assert!(
        exchange.curl.contains("--data-binary @body.json"),
        "{}",
        exchange.curl
    );
}
