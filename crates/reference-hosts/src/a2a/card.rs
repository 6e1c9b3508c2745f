//! The agent card (§8; 0.3 §5): a 1.0 card (`supportedInterfaces`) when the agent
//! speaks 1.0 anywhere, a 0.3 card (`url`, `preferredTransport`,
//! `additionalInterfaces`, `protocolVersion`) when it speaks 0.3 only. Its interface
//! URLs are absolute, on the origin the card was asked for.

use super::{A2aFault, AgentConfig, Binding, JSONRPC_PATH, REST_PATH, Version};
use serde_json::{Value, json};

/// The URL of an interface of `binding` below `origin` (`http://127.0.0.1:PORT`).
pub fn interface_url(origin: &str, binding: Binding) -> String {
    match binding {
        Binding::JsonRpc => format!("{origin}{JSONRPC_PATH}"),
        Binding::HttpJson => format!("{origin}{REST_PATH}"),
    }
}

/// The declared input modes: `text/plain`, then each accepted prefix as a media range
/// (`image/*`), or, under `card-modes-not-media-types`, as the word agents often write
/// (`text`, `image`).
fn input_modes(config: &AgentConfig) -> Vec<String> {
    let words = config.faulted(A2aFault::CardModesNotMediaTypes);
    let mut modes = vec![if words { "text" } else { "text/plain" }.to_string()];
    for prefix in config.accepts.prefixes() {
        modes.push(match prefix.strip_suffix('/') {
            Some(top) if words => top.to_string(),
            _ => range(prefix),
        });
    }
    modes
}

/// A prefix as a media range: `image/` is `image/*`, a full type is itself.
fn range(prefix: &str) -> String {
    match prefix.strip_suffix('/') {
        Some(top) => format!("{top}/*"),
        None => prefix.to_string(),
    }
}

/// The skills: one taking the defaults, and one narrowing them to audio when the
/// agent takes audio (a request cannot name a skill; the card says what it prefers).
fn skills(config: &AgentConfig) -> Value {
    let mut skills = vec![json!({
        "id": "describe",
        "name": "Describe",
        "description": "Describes the text and media it is given.",
        "tags": ["media"],
    })];
    let audio: Vec<&String> = config
        .accepts
        .prefixes()
        .iter()
        .filter(|p| p.starts_with("audio/"))
        .collect();
    if !audio.is_empty() {
        skills.push(json!({
            "id": "transcribe",
            "name": "Transcribe",
            "description": "Transcribes a recording.",
            "tags": ["audio"],
            "inputModes": audio.iter().map(|p| range(p)).collect::<Vec<_>>(),
        }));
    }
    Value::Array(skills)
}

/// The card the agent serves, its URLs on `origin`.
pub fn card(config: &AgentConfig, origin: &str) -> Value {
    let speaks_v1 = config.interfaces.iter().any(|(_, v)| *v == Version::V1);
    let mut card = json!({
        "name": "mmconform reference A2A agent",
        "description": "A strict A2A agent that hands what it accepts to its model.",
        "version": "0.1.0",
        "capabilities": {
            "streaming": config.streaming && !config.faulted(A2aFault::StreamsWithoutCapability),
            "pushNotifications": false,
        },
        "defaultOutputModes": ["text/plain"],
        "skills": skills(config),
    });
    if !config.faulted(A2aFault::CardWithoutDefaultInputModes) {
        card["defaultInputModes"] = json!(input_modes(config));
    }
    if speaks_v1 {
        card["supportedInterfaces"] = config
            .interfaces
            .iter()
            .map(|(binding, version)| {
                json!({
                    "url": interface_url(origin, *binding),
                    "protocolBinding": binding.name(),
                    "protocolVersion": version.number(),
                })
            })
            .collect();
        if config.token.is_some() {
            card["securitySchemes"] =
                json!({"bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}});
            card["securityRequirements"] = json!([{"schemes": {"bearer": {"list": []}}}]);
        }
    } else {
        let (binding, _) = config
            .interfaces
            .first()
            .copied()
            .unwrap_or((Binding::JsonRpc, Version::V03));
        card["protocolVersion"] = json!("0.3.0");
        card["url"] = json!(interface_url(origin, binding));
        card["preferredTransport"] = json!(binding.name());
        card["additionalInterfaces"] = config
            .interfaces
            .iter()
            .map(|(b, _)| json!({"url": interface_url(origin, *b), "transport": b.name()}))
            .collect();
        if config.token.is_some() {
            card["securitySchemes"] = json!({"bearer": {"type": "http", "scheme": "bearer"}});
            card["security"] = json!([{"bearer": []}]);
        }
    }
    card
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_1_0_agent_declares_its_interfaces_and_media_types() {
        let card = card(&AgentConfig::default(), "http://h");
        assert_eq!(
            card["supportedInterfaces"][0]["url"],
            "http://h/a2a/jsonrpc"
        );
        assert_eq!(
            card["supportedInterfaces"][1]["protocolBinding"],
            "HTTP+JSON"
        );
        assert_eq!(
            card["defaultInputModes"],
            json!(["text/plain", "image/*", "audio/wav", "application/pdf"])
        );
        assert_eq!(card["skills"][1]["inputModes"], json!(["audio/wav"]));
        assert!(card.get("protocolVersion").is_none());
    }

    #[test]
    fn a_0_3_agent_has_a_main_url_and_faults_bend_the_modes() {
        let config = AgentConfig::default().with_interfaces(vec![
            (Binding::HttpJson, Version::V03),
            (Binding::JsonRpc, Version::V03),
        ]);
        let card = card(&config, "http://h");
        assert_eq!(card["protocolVersion"], "0.3.0");
        assert_eq!(card["url"], "http://h/a2a/rest");
        assert_eq!(card["preferredTransport"], "HTTP+JSON");
        assert_eq!(card["additionalInterfaces"][1]["transport"], "JSONRPC");
        let words = AgentConfig {
            fault: Some(A2aFault::CardModesNotMediaTypes),
            ..AgentConfig::default()
        };
        assert_eq!(
            super::card(&words, "http://h")["defaultInputModes"],
            json!(["text", "image", "audio/wav", "application/pdf"])
        );
        let without = AgentConfig {
            fault: Some(A2aFault::CardWithoutDefaultInputModes),
            ..AgentConfig::default()
        };
        assert!(
            super::card(&without, "http://h")
                .get("defaultInputModes")
                .is_none()
        );
    }
}
