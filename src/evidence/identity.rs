//! Who a report is about: the host's origin and the digest of what it advertised.
//!
//! A host is its **origin** (scheme, host and port of the target, never userinfo or a
//! path) together with the **digest** of what it said about itself: the discovery
//! document's canonical SHA-256 for openwop, the declaration's for AG-UI (which has no
//! discovery). Two reports with the same origin and digest are two runs against the
//! same host and count once.
//!
//! The embedded hosts are the exception to "origin": `run --target reference` listens on
//! a fresh `127.0.0.1` port each run, so its target is `reference (http://127.0.0.1:PORT)`
//! and the port says nothing about the host. Its origin is `reference` (and `reference
//! agent` for the AG-UI agent); the digest then tells its shapes (text-only, text+image,
//! all modalities) apart. A single-fault variant run in a shape advertises exactly what
//! the faithful host does in that shape, so the two are the same host to a reader of
//! the reports: their runs are merged and any disagreement is shown as a conflict.

use super::input::ReportReading;
use mmconform_json::canonical_sha256;
use serde::Serialize;
use serde_json::Value;

/// What the digest was computed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DigestOf {
    /// The discovery document (openwop), as the report records its canonical SHA-256.
    Discovery,
    /// The agent's declaration (AG-UI `run.declared`), canonicalised like discovery.
    Declaration,
    /// Nothing was advertised: discovery was unusable or never reached.
    Nothing,
}

/// The identity of a host: reports with equal keys are about the same host.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct HostKey {
    pub origin: String,
    pub digest: Option<String>,
    pub digest_of: DigestOf,
}

/// The origin of a report's `run.target`.
pub fn origin_of(target: &str) -> String {
    for embedded in ["reference agent", "reference"] {
        if target == embedded || target.starts_with(&format!("{embedded} (")) {
            return embedded.to_string();
        }
    }
    match url::Url::parse(target) {
        Ok(url) if url.has_host() => url.origin().ascii_serialization(),
        _ => target.to_string(),
    }
}

/// Normalises an origin given by a user (`--exclude-origin`, `exclude_origins`) the way
/// targets are, so `https://Host.example/path` excludes `https://host.example`.
pub fn normalise_origin(given: &str) -> String {
    origin_of(given.trim().trim_end_matches('/'))
}

pub fn host_key(report: &Value) -> HostKey {
    let origin = origin_of(report["run"]["target"].as_str().unwrap_or_default());
    if let Some(digest) = report["discovery"]["canonical_sha256"].as_str() {
        return HostKey {
            origin,
            digest: Some(digest.to_string()),
            digest_of: DigestOf::Discovery,
        };
    }
    let declared = &report["run"]["declared"];
    if !declared.is_null() {
        return HostKey {
            origin,
            digest: Some(canonical_sha256(declared)),
            digest_of: DigestOf::Declaration,
        };
    }
    HostKey {
        origin,
        digest: None,
        digest_of: DigestOf::Nothing,
    }
}

pub fn list(value: &Value) -> Option<String> {
    let items = value.as_array()?;
    Some(
        items
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// What the host advertised in its discovery document (as its protocol reads it:
/// `ReportReading::advertised`) or was declared to accept, one fact a line.
pub fn advertised(report: &Value, reading: &ReportReading) -> Vec<String> {
    let declared = &report["run"]["declared"];
    if !declared.is_null() {
        let mut out = vec![format!(
            "accepts: {}",
            list(&declared["accepts"]).unwrap_or_default()
        )];
        out.push(format!(
            "sources: {}",
            list(&declared["sources"]).unwrap_or_default()
        ));
        // The claims each protocol's declaration has (AG-UI: echo; OpenAI: detail,
        // streaming, and the model judged), as they were recorded.
        for claim in ["echo", "detail", "streaming"] {
            if let Some(value) = declared[claim].as_bool() {
                out.push(format!("{claim}: {value}"));
            }
        }
        if let Some(model) = declared["model"].as_str() {
            out.push(format!("model: {model}"));
        }
        out.push(format!(
            "declared by {}",
            declared["declared_by"].as_str().unwrap_or("?")
        ));
        return out;
    }
    let discovery = &report["discovery"];
    if discovery.is_null() {
        return vec!["no discovery: the run ended before it".into()];
    }
    if let Some(problem) = discovery["problem"].as_str() {
        return vec![format!("discovery unusable: {problem}")];
    }
    reading.advertised.clone()
}

/// The wire protocol of the run: what its protocol reads in it
/// (`ReportReading::wire`: `openwop v1, spec dialect`), else its profile.
pub fn protocol(report: &Value, reading: &ReportReading) -> String {
    reading.wire.clone().unwrap_or_else(|| {
        report["run"]["profile"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn origins_drop_paths_userinfo_and_the_embedded_hosts_port() {
        assert_eq!(origin_of("reference (http://127.0.0.1:41234)"), "reference");
        assert_eq!(
            origin_of("reference agent (http://127.0.0.1:5/agui)"),
            "reference agent"
        );
        assert_eq!(
            origin_of("https://u:p@Host.Example:8443/v1/x?q=1"),
            "https://host.example:8443"
        );
        assert_eq!(
            origin_of("https://host.example:443/"),
            "https://host.example"
        );
        assert_eq!(origin_of("not a url"), "not a url");
        assert_eq!(
            normalise_origin("https://host.example/"),
            "https://host.example"
        );
    }

    #[test]
    fn the_key_is_the_discovery_digest_else_the_declaration() {
        let openwop = json!({"run": {"target": "reference (http://127.0.0.1:1)"},
            "discovery": {"canonical_sha256": "ab"}});
        let key = host_key(&openwop);
        assert_eq!(
            (key.origin.as_str(), key.digest.as_deref()),
            ("reference", Some("ab"))
        );
        let agui = json!({"run": {"target": "http://h/agui", "declared": {"accepts": ["image/"]}},
            "discovery": null});
        assert_eq!(host_key(&agui).digest_of, DigestOf::Declaration);
        let none = json!({"run": {"target": "http://h"}, "discovery": {"canonical_sha256": null}});
        assert_eq!(host_key(&none).digest, None);
    }

    #[test]
    fn a_declaration_shows_the_claims_its_protocol_records() {
        let agui = json!({"run": {"declared": {"accepts": ["image/"], "sources": ["data"],
            "echo": true, "declared_by": "--accepts"}}});
        assert_eq!(
            advertised(&agui, &ReportReading::default()),
            [
                "accepts: image/",
                "sources: data",
                "echo: true",
                "declared by --accepts"
            ]
        );
        let openai = json!({"run": {"declared": {"accepts": [], "sources": ["data"],
            "detail": false, "streaming": true, "model": "m", "declared_by": "nothing declared"}}});
        assert_eq!(
            advertised(&openai, &ReportReading::default()),
            [
                "accepts: ",
                "sources: data",
                "detail: false",
                "streaming: true",
                "model: m",
                "declared by nothing declared"
            ]
        );
    }
}
