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
    builder
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {}", chain(&e)))
}

/// What a transport is built from: sessions whose settings agree on these share one.
type TransportKey = (Duration, usize, Option<Vec<u8>>, bool, bool);

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
