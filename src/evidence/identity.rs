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

use crate::canonical::canonical_sha256;
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

fn list(value: &Value) -> Option<String> {
    let items = value.as_array()?;
    Some(
        items
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// What the host advertised (openwop) or was declared to accept (AG-UI), one fact a line.
pub fn advertised(report: &Value) -> Vec<String> {
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
    openwop_advertisement(&discovery["document"])
}

fn openwop_advertisement(document: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let root = &document["aiProviders"];
    let wrapped = &document["capabilities"]["aiProviders"];
    let input_facts = |providers: &Value, out: &mut Vec<String>, prefix: &str| {
        match list(&providers["input"]["modalities"]) {
            Some(m) => out.push(format!("{prefix}modalities: {m}")),
            None => out.push(format!("{prefix}no aiProviders.input (text-only)")),
        }
        if let Some(max) = providers["input"]["maxBytesPerPart"].as_u64() {
            out.push(format!("{prefix}maxBytesPerPart: {max}"));
        }
    };
    if root.is_object() {
        input_facts(root, &mut out, "");
    } else if wrapped.is_object() {
        out.push("aiProviders only inside `capabilities`, not at the document root".into());
        input_facts(wrapped, &mut out, "wrapper ");
    } else {
        out.push("no aiProviders (text-only)".into());
    }
    match &document["supportedEnvelopes"] {
        Value::Null => {}
        envelopes => out.push(format!(
            "supportedEnvelopes: {}",
            list(envelopes).unwrap_or_else(|| envelopes.to_string())
        )),
    }
    out
}

/// The wire protocol of the run, e.g. `openwop v1, spec dialect` or `AG-UI 1.0`.
pub fn protocol(report: &Value) -> String {
    let run = &report["run"];
    match run["profile"].as_str().unwrap_or_default() {
        "agui" => "AG-UI 1.0".to_string(),
        "openwop" => format!(
            "openwop {}, {} dialect",
            match &run["openwop_major"] {
                serde_json::Value::String(s) if s == "auto" => "auto (v1, v2 where listed)".into(),
                other => format!("v{other}"),
            },
            run["dialect"].as_str().unwrap_or("?")
        ),
        other => other.to_string(),
    }
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
    fn advertisement_names_modalities_wrappers_and_envelopes() {
        let doc = |d: Value| json!({"run": {}, "discovery": {"problem": null, "document": d}});
        assert_eq!(
            advertised(&doc(
                json!({"aiProviders": {"input": {"modalities": ["text", "image"],
                "maxBytesPerPart": 10}}, "supportedEnvelopes": ["error"]})
            )),
            vec![
                "modalities: text, image",
                "maxBytesPerPart: 10",
                "supportedEnvelopes: error"
            ]
        );
        let wrapped = advertised(&doc(json!({"capabilities": {"aiProviders": {}}})));
        assert!(
            wrapped[0].contains("not at the document root"),
            "{wrapped:?}"
        );
        assert_eq!(
            advertised(&doc(json!({}))),
            vec!["no aiProviders (text-only)"]
        );
    }

    #[test]
    fn a_declaration_shows_the_claims_its_protocol_records() {
        let agui = json!({"run": {"declared": {"accepts": ["image/"], "sources": ["data"],
            "echo": true, "declared_by": "--accepts"}}});
        assert_eq!(
            advertised(&agui),
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
            advertised(&openai),
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
