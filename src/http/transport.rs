//! The reqwest client under an [`HttpClient`](super::HttpClient): TLS roots, redirect
//! policy, proxy and connect timeout. Building one loads the system CA store, so the
//! sessions of one process that agree on these settings can share it ([`Transports`]),
//! and with it its connection pool.

use super::failure::chain;
use super::{HttpSettings, redirect};
use std::sync::Mutex;
use std::time::Duration;

/// The reqwest client for `settings`: TLS roots, redirect policy, proxy, timeouts.
pub(super) fn transport(settings: &HttpSettings) -> Result<reqwest::Client, String> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut identity = reqwest::header::HeaderMap::new();
    // Ask for the body as is: nothing here decompresses, and saying so keeps
    // well-behaved hosts from compressing at all.
    identity.insert(
        reqwest::header::ACCEPT_ENCODING,
        reqwest::header::HeaderValue::from_static("identity"),
    );
    let mut builder = reqwest::Client::builder()
        .connect_timeout(settings.timeout)
        .redirect(redirect::policy(settings.max_redirects))
        .referer(false)
        .default_headers(identity)
        .user_agent(concat!("mmconform/", env!("CARGO_PKG_VERSION")));
    if let Some(pem) = &settings.tls.cacert_pem {
        let certs =
            reqwest::Certificate::from_pem_bundle(pem).map_err(|e| format!("--cacert: {e}"))?;
        builder = builder.tls_certs_only(certs);
    }
    if settings.tls.insecure {
        builder = builder.tls_danger_accept_invalid_certs(true);
    }
    if !settings.env_proxy {
        builder = builder.no_proxy();
    }
    if plain_http(settings) {
        // No TLS handshake can happen, so the system CA store (a file read per
        // certificate) is not loaded: an empty root store is never consulted.
        builder = builder.tls_certs_only(Vec::new());
    }
    builder
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {}", chain(&e)))
}

/// Whether every request of the client is plain HTTP: the target is `http://`, and
/// redirects never leave its origin (`redirect.rs`), and no proxy it may go through
/// (`HTTP_PROXY`, `ALL_PROXY`) is itself reached over TLS.
fn plain_http(settings: &HttpSettings) -> bool {
    let https_proxy = || {
        ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]
            .iter()
            .filter_map(|name| std::env::var(name).ok())
            .any(|value| value.trim().to_ascii_lowercase().starts_with("https"))
    };
    settings
        .base_url
        .to_ascii_lowercase()
        .starts_with("http://")
        && settings.tls.cacert_pem.is_none()
        && !settings.tls.insecure
        && !(settings.env_proxy && https_proxy())
}

/// What a transport is built from: sessions whose settings agree on these share one.
type TransportKey = (Duration, usize, Option<Vec<u8>>, bool, bool, bool);

/// Transports shared by the sessions of one process (calibration), one per distinct
/// set of transport settings. They must all run on one tokio runtime: pooled
/// connections belong to the runtime that opened them.
#[derive(Default)]
pub struct Transports {
    built: Mutex<std::collections::HashMap<TransportKey, reqwest::Client>>,
}

impl Transports {
    pub(super) fn get(&self, settings: &HttpSettings) -> Result<reqwest::Client, String> {
        let key = (
            settings.timeout,
            settings.max_redirects,
            settings.tls.cacert_pem.clone(),
            settings.tls.insecure,
            settings.env_proxy,
            plain_http(settings),
        );
        let mut built = self
            .built
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(client) = built.get(&key) {
            return Ok(client.clone());
        }
        let client = transport(settings)?;
        built.insert(key, client.clone());
        Ok(client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_http_target_goes_without_the_ca_store() {
        let mut settings = HttpSettings::new("http://127.0.0.1:8080");
        settings.env_proxy = false;
        assert!(plain_http(&settings));
        settings.base_url = "https://127.0.0.1:8443".into();
        assert!(!plain_http(&settings));
        settings.base_url = "HTTP://127.0.0.1:8080".into();
        settings.tls.insecure = true;
        assert!(!plain_http(&settings));
    }

    #[tokio::test]
    async fn transports_are_shared_by_settings() {
        let transports = Transports::default();
        let a = HttpSettings::new("http://127.0.0.1:1");
        let mut b = a.clone();
        transports.get(&a).unwrap();
        transports.get(&b).unwrap();
        b.max_redirects = 0;
        transports.get(&b).unwrap();
        assert_eq!(transports.built.lock().unwrap().len(), 2);
    }
}
