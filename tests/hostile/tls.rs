//! TLS and proxies against a local TLS host whose self-signed certificate the test
//! generates: `--cacert` trusts it, no flag refuses it, `--insecure` accepts it with a
//! loud warning in every report, and the standard proxy variables are honoured.

use crate::host::HostileHost;
use crate::measure::run_measured;
use reference_hosts::ReferenceConfig;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::rustls;

/// A TLS front for the reference host, and the PEM of its certificate.
struct TlsHost {
    addr: SocketAddr,
    cert_pem: String,
    _plain: HostileHost,
    _runtime: tokio::runtime::Runtime,
}

impl TlsHost {
    fn start() -> TlsHost {
        let plain = HostileHost::start(ReferenceConfig::default(), |_, _| {
            crate::host::Reply::Forward
        });
        let upstream = plain.addr;
        let generated =
            rcgen::generate_simple_self_signed(vec!["127.0.0.1".into(), "localhost".into()])
                .unwrap();
        let cert_pem = generated.cert.pem();
        let key =
            rustls::pki_types::PrivateKeyDer::Pkcs8(generated.signing_key.serialize_der().into());
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![generated.cert.der().clone()], key)
        .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        runtime.spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    // A client that refuses the certificate ends the handshake: fine.
                    let Ok(mut tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    if let Ok(mut up) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut up).await;
                    }
                });
            }
        });
        TlsHost {
            addr,
            cert_pem,
            _plain: plain,
            _runtime: runtime,
        }
    }

    fn url(&self) -> String {
        format!("https://{}", self.addr)
    }
}

/// A forward proxy: CONNECT tunnels, absolute-form requests relayed. Records each
/// request line and whether Proxy-Authorization came with it.
struct Proxy {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<(String, bool)>>>,
    _runtime: tokio::runtime::Runtime,
}

impl Proxy {
    fn start() -> Proxy {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = seen.clone();
        runtime.spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    continue;
                };
                let recorded = recorded.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut byte = [0u8; 1];
                    while !head.ends_with(b"\r\n\r\n") && head.len() < 65536 {
                        if client.read(&mut byte).await.unwrap_or(0) == 0 {
                            return;
                        }
                        head.push(byte[0]);
                    }
                    let text = String::from_utf8_lossy(&head).into_owned();
                    let line = text.lines().next().unwrap_or("").to_string();
                    let authorized = text.to_ascii_lowercase().contains("proxy-authorization:");
                    recorded.lock().unwrap().push((line.clone(), authorized));
                    let mut parts = line.split(' ');
                    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                    let authority = if method == "CONNECT" {
                        target.to_string()
                    } else {
                        let Ok(url) = url::Url::parse(target) else {
                            return;
                        };
                        format!(
                            "{}:{}",
                            url.host_str().unwrap_or(""),
                            url.port_or_known_default().unwrap_or(80)
                        )
                    };
                    let Ok(mut upstream) = TcpStream::connect(&authority).await else {
                        return;
                    };
                    if method == "CONNECT" {
                        let _ = client
                            .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                            .await;
                    } else {
                        let _ = upstream.write_all(&head).await;
                    }
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
                });
            }
        });
        Proxy {
            addr,
            seen,
            _runtime: runtime,
        }
    }

    fn url_with(&self, userinfo: &str) -> String {
        format!("http://{userinfo}{}", self.addr)
    }

    fn seen(&self) -> Vec<(String, bool)> {
        self.seen.lock().unwrap().clone()
    }
}

fn cacert_file(host: &TlsHost) -> tempfile::NamedTempFile {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), &host.cert_pem).unwrap();
    file
}

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[test]
fn cacert_trusts_the_self_signed_host_and_nothing_else_does() {
    let host = TlsHost::start();
    let pem = cacert_file(&host);
    let pem_path = pem.path().to_str().unwrap();
    let r = run_measured(
        "tls-cacert",
        &["--target", &host.url(), "--cacert", pem_path],
        &[],
    );
    r.assert_survived(secs(30));
    assert_eq!(r.code, 0, "{}", r.context());
    let report = serde_json::to_string(r.report.as_ref().unwrap()).unwrap();
    assert!(
        report.contains("curl -sS -i --cacert"),
        "the curl line replays the trust"
    );

    let r = run_measured(
        "tls-untrusted",
        &["--target", &host.url(), "--timeout", "5"],
        &[],
    );
    r.assert_survived(secs(30));
    assert_eq!(r.code, 4, "{}", r.context());
    assert!(
        r.discovery_problem().to_lowercase().contains("certificate"),
        "{}",
        r.discovery_problem()
    );
}

#[test]
fn insecure_accepts_any_certificate_and_says_so_everywhere() {
    let host = TlsHost::start();
    let r = run_measured(
        "tls-insecure",
        &["--target", &host.url(), "--insecure"],
        &[],
    );
    r.assert_survived(secs(30));
    assert_eq!(r.code, 0, "{}", r.context());
    assert!(
        r.stdout
            .contains("warning: TLS certificates are NOT verified"),
        "{}",
        r.stdout
    );
    let run = &r.report.as_ref().unwrap()["run"];
    assert_eq!(run["insecure_tls"], true);
    assert!(run["warnings"].to_string().contains("--insecure"), "{run}");
    let junit = r.junit.clone().unwrap();
    assert!(
        junit.contains("name=\"tls.insecure\" value=\"true\""),
        "{junit}"
    );
}

#[test]
fn a_bad_cacert_is_a_usage_error() {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), "not a certificate\n").unwrap();
    let r = run_measured(
        "tls-bad-cacert",
        &[
            "--target",
            "https://127.0.0.1:9",
            "--cacert",
            file.path().to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(r.code, 2, "{}", r.context());
    assert!(r.stderr.contains("--cacert"), "{}", r.stderr);
}

#[test]
fn https_goes_through_the_proxy_from_the_environment_without_leaking_its_password() {
    let host = TlsHost::start();
    let pem = cacert_file(&host);
    let proxy = Proxy::start();
    let proxy_url = proxy.url_with("agent:proxy-canary-51d@");
    let r = run_measured(
        "proxy-https-connect",
        &[
            "--target",
            &host.url(),
            "--cacert",
            pem.path().to_str().unwrap(),
        ],
        &[("HTTPS_PROXY", &proxy_url)],
    );
    r.assert_survived(secs(30));
    assert_eq!(r.code, 0, "{}", r.context());
    let seen = proxy.seen();
    assert!(
        seen.iter()
            .any(|(line, auth)| line.starts_with(&format!("CONNECT {}", host.addr)) && *auth),
        "{seen:?}"
    );
    assert!(
        r.stdout
            .contains("warning: requests may go through the proxy in $HTTPS_PROXY")
    );
    for text in [&r.stdout, &r.stderr, r.junit.as_ref().unwrap()] {
        assert!(!text.contains("proxy-canary-51d"), "{text}");
    }
    let report = serde_json::to_string(r.report.as_ref().unwrap()).unwrap();
    assert!(!report.contains("proxy-canary-51d"));
}

#[test]
fn http_goes_through_the_proxy_unless_no_proxy_names_the_host() {
    let host = HostileHost::start(ReferenceConfig::default(), |_, _| {
        crate::host::Reply::Forward
    });
    let proxy = Proxy::start();
    let proxy_url = proxy.url_with("");
    let r = run_measured(
        "proxy-http",
        &["--target", &host.url()],
        &[("HTTP_PROXY", &proxy_url)],
    );
    r.assert_survived(secs(30));
    assert_eq!(r.code, 0, "{}", r.context());
    let through = proxy.seen().len();
    assert!(
        proxy
            .seen()
            .iter()
            .any(|(l, _)| l.starts_with(&format!("GET {}/.well-known/openwop", host.url()))),
        "{:?}",
        proxy.seen()
    );
    let r = run_measured(
        "proxy-http-no-proxy",
        &["--target", &host.url()],
        &[("HTTP_PROXY", &proxy_url), ("NO_PROXY", "127.0.0.1")],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(proxy.seen().len(), through, "NO_PROXY was not honoured");
    // The embedded reference host never goes through a proxy.
    let r = run_measured(
        "proxy-reference",
        &["--target", "reference"],
        &[("HTTP_PROXY", &proxy_url)],
    );
    assert_eq!(r.code, 0, "{}", r.context());
    assert_eq!(proxy.seen().len(), through);
}
