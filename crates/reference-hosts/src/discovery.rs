//! The `/.well-known/openwop` discovery document (docs/wire.md, "Discovery").
//!
//! Capability families sit at the document ROOT (RFC 0073); the deprecated
//! `capabilities: {...}` wrapper appears only under the `wrapper-only-discovery` fault.
//! [`discovery_document_v2`] is the closed v2 root of the same facts; which one a request
//! gets is `negotiation.rs`'s to decide.

use serde_json::{Map, Value, json};

use super::envelope::UNIVERSAL_ENVELOPES;
use super::modality::advertised_input;
use super::{Fault, ReferenceConfig};

/// Builds the discovery document for `config`.
pub fn discovery_document(config: &ReferenceConfig) -> Value {
    let mut doc = Map::new();
    doc.insert("protocolVersion".into(), json!("1.0"));
    doc.insert("supportedEnvelopes".into(), supported_envelopes(config));
    doc.insert("schemaVersions".into(), schema_versions(config));
    if !config.faulted(Fault::DiscoveryMissingRequired) {
        doc.insert("limits".into(), limits(config));
    }
    doc.insert(
        "implementation".into(),
        json!({"name": "mmconform-reference", "version": env!("CARGO_PKG_VERSION")}),
    );
    let ai_providers = ai_providers(config);
    if config.faulted(Fault::WrapperOnlyDiscovery) {
        doc.insert(
            "capabilities".into(),
            json!({ "aiProviders": ai_providers }),
        );
    } else {
        doc.insert("aiProviders".into(), ai_providers);
    }
    Value::Object(doc)
}

/// The version every v2 record names as `since`: this host's own v2 contract.
const SINCE: &str = "2.0";

/// A capability record's common fields (RFC 0169 §A): stable records carry no `until`.
fn record(status: &str, witness: &str, facets: Value) -> Value {
    let mut map = Map::new();
    map.insert("status".into(), json!(status));
    map.insert("since".into(), json!(SINCE));
    if status != "stable" {
        map.insert("until".into(), json!("3.0"));
    }
    map.insert("witness".into(), json!(witness));
    if let Value::Object(facets) = facets {
        map.extend(facets);
    }
    Value::Object(map)
}

/// The closed v2 root (`OpenWOP-Version: 2`; openwop `spec/v2/core/capabilities.md`):
/// the same facts as the v1 document, each family a record, `supported` gone
/// (`providers` is the claim), envelope kinds under `kinds`.
pub fn discovery_document_v2(config: &ReferenceConfig) -> Value {
    let mut doc = Map::new();
    doc.insert(
        "protocolVersions".into(),
        json!(super::negotiation::PROTOCOL_VERSIONS),
    );
    doc.insert(
        "preferredVersion".into(),
        json!(super::negotiation::PREFERRED_VERSION),
    );
    doc.insert(
        "implementation".into(),
        json!({"name": "mmconform-reference", "version": env!("CARGO_PKG_VERSION")}),
    );
    let gated = "witnessable-gated";
    doc.insert(
        "supportedEnvelopes".into(),
        record(
            "stable",
            gated,
            json!({"kinds": supported_envelopes(config)}),
        ),
    );
    doc.insert(
        "schemaVersions".into(),
        record("stable", gated, json!({"kinds": schema_versions(config)})),
    );
    if !config.faulted(Fault::DiscoveryMissingRequired) {
        doc.insert("limits".into(), record("stable", gated, limits(config)));
    }
    let mut ai = ai_providers(config);
    if let Some(map) = ai.as_object_mut() {
        let providers = map.remove("supported").unwrap_or_else(|| json!([]));
        if config.faulted(Fault::V2RecordKeepsSupported) {
            map.insert("supported".into(), providers.clone());
        }
        map.insert("providers".into(), providers);
        if map.contains_key("selfHosted") {
            // v2: a boolean, which cannot say which provider it is (RFC 0108).
            map.insert("selfHosted".into(), json!(true));
        }
    }
    let ai = record("experimental", gated, ai);
    if config.faulted(Fault::WrapperOnlyDiscovery) {
        doc.insert("capabilities".into(), json!({ "aiProviders": ai }));
    } else {
        doc.insert("aiProviders".into(), ai);
    }
    Value::Object(doc)
}

/// A host with AI support SHOULD list all four universal envelope kinds (RFC 0021 §C).
fn supported_envelopes(config: &ReferenceConfig) -> Value {
    let listed: Vec<&str> = if config.faulted(Fault::DiscoveryMissingUniversalEnvelopes) {
        Vec::new()
    } else {
        UNIVERSAL_ENVELOPES.to_vec()
    };
    if config.faulted(Fault::DiscoveryEnvelopesNotArray) {
        return json!(listed.join(","));
    }
    json!(listed)
}

/// Version 1 of each universal kind's schema, the one this host implements (§C).
fn schema_versions(config: &ReferenceConfig) -> Value {
    let versions: Map<String, Value> = UNIVERSAL_ENVELOPES
        .iter()
        .map(|kind| {
            let wrong = config.faulted(Fault::DiscoveryWrongSchemaVersion);
            ((*kind).to_owned(), json!(if wrong { 2 } else { 1 }))
        })
        .collect();
    Value::Object(versions)
}

fn limits(config: &ReferenceConfig) -> Value {
    let mut limits = Map::new();
    limits.insert("clarificationRounds".into(), json!(3));
    limits.insert("schemaRounds".into(), json!(3));
    limits.insert("envelopesPerTurn".into(), json!(32));
    if let Some(max) = config.max_request_body_bytes {
        limits.insert("maxRequestBodyBytes".into(), json!(max));
    }
    Value::Object(limits)
}

/// `aiProviders`, a closed object: `supported` plus, unless the host is text-only,
/// the RFC 0091 `input` block.
fn ai_providers(config: &ReferenceConfig) -> Value {
    let mut providers = Map::new();
    let mut supported = vec!["reference"];
    let self_hosted = super::self_hosted::id(config);
    if let Some(id) = self_hosted {
        if !config.faulted(Fault::SelfHostedNotListed) {
            supported.push(id);
        }
    } else if config.upstream.is_some() {
        // The forwarding mode's provider (forward.rs).
        supported.push(super::forward::COMPAT_PROVIDER);
    }
    providers.insert("supported".into(), json!(supported));
    if let Some(id) = self_hosted {
        // RFC 0108: a subset of `supported` (the v2 root makes it a boolean).
        providers.insert("selfHosted".into(), json!([id]));
    }
    if let Some(modalities) = advertised_input(config) {
        let mut input = Map::new();
        input.insert("modalities".into(), json!(modalities));
        if let Some(max) = config.max_bytes_per_part {
            input.insert("maxBytesPerPart".into(), json!(max));
        }
        providers.insert("input".into(), Value::Object(input));
    }
    Value::Object(providers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_document_is_complete_and_root_level() {
        let doc = discovery_document(&ReferenceConfig::default());
        assert_eq!(doc["protocolVersion"], "1.0");
        assert_eq!(
            doc["supportedEnvelopes"],
            json!([
                "clarification.request",
                "schema.request",
                "schema.response",
                "error"
            ])
        );
        assert_eq!(doc["schemaVersions"]["schema.response"], 1);
        assert_eq!(
            doc["limits"],
            json!({"clarificationRounds": 3, "schemaRounds": 3, "envelopesPerTurn": 32})
        );
        assert_eq!(doc["implementation"]["name"], "mmconform-reference");
        assert_eq!(
            doc["aiProviders"],
            json!({"supported": ["reference"], "input": {"modalities": ["text", "image"], "maxBytesPerPart": 65536}})
        );
        assert!(doc.get("capabilities").is_none());
    }

    #[test]
    fn modalities_are_verbatim_and_optional_fields_follow_config() {
        let config = ReferenceConfig {
            modalities: vec!["document".into(), "audio".into()],
            max_bytes_per_part: None,
            max_request_body_bytes: Some(1_000_000),
            ..ReferenceConfig::default()
        };
        let doc = discovery_document(&config);
        assert_eq!(
            doc["aiProviders"]["input"],
            json!({"modalities": ["document", "audio"]})
        );
        assert_eq!(doc["limits"]["maxRequestBodyBytes"], 1_000_000);
    }

    #[test]
    fn a_forwarding_host_also_lists_the_compat_provider() {
        let config = ReferenceConfig {
            upstream: Some(url::Url::parse("http://127.0.0.1:4010/v1").unwrap()),
            ..ReferenceConfig::default()
        };
        let doc = discovery_document(&config);
        assert_eq!(
            doc["aiProviders"]["supported"],
            json!(["reference", "compat"])
        );
    }

    #[test]
    fn text_only_host_has_no_input_block() {
        let config = ReferenceConfig {
            advertise_input: false,
            ..ReferenceConfig::default()
        };
        let doc = discovery_document(&config);
        assert_eq!(doc["aiProviders"], json!({"supported": ["reference"]}));
    }

    #[test]
    fn discovery_faults_change_only_their_part() {
        let faithful = discovery_document(&ReferenceConfig::default());
        let faulted = |fault| {
            discovery_document(&ReferenceConfig {
                fault: Some(fault),
                ..ReferenceConfig::default()
            })
        };
        let mut expected = faithful.clone();
        expected.as_object_mut().unwrap().remove("limits");
        assert_eq!(faulted(Fault::DiscoveryMissingRequired), expected);

        let wrapped = faulted(Fault::WrapperOnlyDiscovery);
        assert!(wrapped.get("aiProviders").is_none());
        assert_eq!(
            wrapped["capabilities"]["aiProviders"],
            faithful["aiProviders"]
        );

        let mut expected = faithful.clone();
        expected["supportedEnvelopes"] = json!([]);
        assert_eq!(faulted(Fault::DiscoveryMissingUniversalEnvelopes), expected);

        let mut expected = faithful.clone();
        for kind in UNIVERSAL_ENVELOPES {
            expected["schemaVersions"][kind] = json!(2);
        }
        assert_eq!(faulted(Fault::DiscoveryWrongSchemaVersion), expected);

        let mut expected = faithful.clone();
        expected["supportedEnvelopes"] =
            json!("clarification.request,schema.request,schema.response,error");
        assert_eq!(faulted(Fault::DiscoveryEnvelopesNotArray), expected);

        let video = faulted(Fault::OutOfEnumModality);
        assert_eq!(
            video["aiProviders"]["input"]["modalities"],
            json!(["text", "image", "video"])
        );
    }
}
