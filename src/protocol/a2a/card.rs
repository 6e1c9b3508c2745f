//! Reading an agent card (1.0 §8, proto `AgentCard`; 0.3 §5.5, types.ts `AgentCard`)
//! into what the run needs: the interfaces mmconform speaks, the declared input modes
//! and skills, streaming, and the security schemes. A card is read as it is, never
//! repaired: what it gets wrong is said (the notes, and the card cases judge it);
//! nothing here decides a verdict.

use super::interface::{Binding, Interface, Version};
use super::security::Security;
use serde::Serialize;
use serde_json::Value;

/// Which specification's card this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CardVersion {
    /// It lists `supportedInterfaces`.
    #[serde(rename = "1.0")]
    V1,
    /// It has none: a main `url`, `preferredTransport`, `protocolVersion`.
    #[serde(rename = "0.3")]
    V03,
}

/// A skill as the card declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skill {
    pub id: String,
    /// `inputModes`, when the skill overrides the defaults.
    #[serde(rename = "inputModes", skip_serializing_if = "Option::is_none")]
    pub input_modes: Option<Vec<String>>,
}

/// What the run reads of a card.
#[derive(Debug, Clone, Serialize)]
pub struct Card {
    pub version: CardVersion,
    /// The interfaces mmconform speaks, in the card's order (the first is preferred).
    pub interfaces: Vec<Interface>,
    /// The interfaces it does not speak, each with why (`GRPC 1.0 at ...: ...`).
    pub unspoken: Vec<String>,
    /// `defaultInputModes` as written; `None` when the card has none.
    #[serde(rename = "defaultInputModes")]
    pub input_modes: Option<Vec<String>>,
    pub skills: Vec<Skill>,
    /// `capabilities.streaming` (absent: false, §3.3.4).
    pub streaming: bool,
    pub security: Security,
    /// What the run says once about the card (an interface on another origin).
    pub notes: Vec<String>,
}

fn strings(value: Option<&Value>) -> Option<Vec<String>> {
    value.and_then(Value::as_array).map(|items| {
        items
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect()
    })
}

fn text<'a>(object: &'a Value, key: &str) -> Option<&'a str> {
    object.get(key).and_then(Value::as_str)
}

/// Reads `card`, fetched from `origin` (the target's scheme, host and port).
pub fn read(card: &Value, origin: &url::Url) -> Card {
    let version = if card.get("supportedInterfaces").is_some_and(Value::is_array) {
        CardVersion::V1
    } else {
        CardVersion::V03
    };
    let mut read = Card {
        version,
        interfaces: Vec::new(),
        unspoken: Vec::new(),
        input_modes: strings(card.get("defaultInputModes")),
        skills: skills(card),
        streaming: card.pointer("/capabilities/streaming") == Some(&Value::Bool(true)),
        security: Security::read(card),
        notes: Vec::new(),
    };
    if version == CardVersion::V1 {
        for entry in card["supportedInterfaces"].as_array().into_iter().flatten() {
            let declared = Declared {
                url: text(entry, "url").unwrap_or_default(),
                binding: text(entry, "protocolBinding").unwrap_or_default(),
                version: text(entry, "protocolVersion").unwrap_or_default(),
                tenant: text(entry, "tenant"),
            };
            read.declare(declared, origin);
        }
    }
    // A 0.3 card's interfaces; on a 1.0 card, the 0.3 fields some agents keep beside
    // `supportedInterfaces` for 0.3 clients (a 0.3 interface they declare too).
    let version_03 = text(card, "protocolVersion").unwrap_or("0.3.0");
    let main = text(card, "url");
    let in_03 = version == CardVersion::V03 || Version::parse(version_03) == Some(Version::V03);
    if in_03 && (main.is_some() || version == CardVersion::V03) {
        let preferred = text(card, "preferredTransport").unwrap_or("JSONRPC");
        let mut declared_03 = vec![(main.unwrap_or_default(), preferred)];
        for extra in card
            .get("additionalInterfaces")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            declared_03.push((
                text(extra, "url").unwrap_or_default(),
                text(extra, "transport").unwrap_or_default(),
            ));
        }
        for (url, binding) in declared_03 {
            let declared = Declared {
                url,
                binding,
                version: version_03,
                tenant: None,
            };
            read.declare(declared, origin);
        }
    }
    read
}

fn skills(card: &Value) -> Vec<Skill> {
    card.get("skills")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|skill| Skill {
            id: text(skill, "id").unwrap_or("(no id)").to_string(),
            input_modes: strings(skill.get("inputModes")),
        })
        .collect()
}

/// One interface entry as written.
struct Declared<'a> {
    url: &'a str,
    binding: &'a str,
    version: &'a str,
    tenant: Option<&'a str>,
}

impl Card {
    /// Adds one declared interface: spoken (once per binding and version), or said
    /// why not.
    fn declare(&mut self, declared: Declared, origin: &url::Url) {
        let shown = format!(
            "{} {} at {}",
            if declared.binding.is_empty() {
                "(no binding)"
            } else {
                declared.binding
            },
            if declared.version.is_empty() {
                "(no version)"
            } else {
                declared.version
            },
            if declared.url.is_empty() {
                "(no url)"
            } else {
                declared.url
            },
        );
        let Some(binding) = Binding::parse(declared.binding) else {
            let why = if declared.binding.eq_ignore_ascii_case("GRPC") {
                "gRPC is not judged (mmconform has no gRPC client; see docs/guide/profiles/a2a.md)"
            } else {
                "not a binding mmconform speaks (JSONRPC, HTTP+JSON)"
            };
            self.unspoken.push(format!("{shown}: {why}"));
            return;
        };
        let Some(version) = Version::parse(declared.version) else {
            self.unspoken.push(format!(
                "{shown}: not a version mmconform speaks (1.0, 0.3)"
            ));
            return;
        };
        let Ok(url) = origin.join(declared.url) else {
            self.unspoken
                .push(format!("{shown}: its url does not parse"));
            return;
        };
        if url.origin() != origin.origin() {
            self.notes.push(format!(
                "the card names {} for {} {}; mmconform sends to the same path on the target ({}), never to another host",
                declared.url,
                binding.name(),
                version.number(),
                origin.origin().ascii_serialization()
            ));
        }
        if self
            .interfaces
            .iter()
            .any(|i| i.binding == binding && i.version == version)
        {
            return;
        }
        self.interfaces.push(Interface {
            binding,
            version,
            url: declared.url.to_string(),
            path: url.path().trim_end_matches('/').to_string(),
            tenant: declared
                .tenant
                .filter(|t| !t.is_empty())
                .map(str::to_string),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn origin() -> url::Url {
        url::Url::parse("http://127.0.0.1:9/").unwrap()
    }

    #[test]
    fn a_1_0_card_lists_its_interfaces_in_order_and_names_what_it_cannot_speak() {
        let card = json!({
            "supportedInterfaces": [
                {"url": "http://127.0.0.1:9/rpc/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                {"url": "http://127.0.0.1:9/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
                {"url": "https://agent.example.com/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0", "tenant": "t1"},
                {"url": "http://127.0.0.1:9/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "2.1"}
            ],
            "defaultInputModes": ["text/plain", "image/*"],
            "capabilities": {"streaming": true},
            "skills": [{"id": "s", "inputModes": ["audio/wav"]}, {"id": "t"}]
        });
        let read = read(&card, &origin());
        assert_eq!(read.version, CardVersion::V1);
        assert_eq!(read.interfaces.len(), 2);
        assert_eq!(read.interfaces[0].path, "/rpc");
        assert_eq!(read.interfaces[1].tenant.as_deref(), Some("t1"));
        assert_eq!(read.unspoken.len(), 2);
        assert!(
            read.unspoken[0].contains("gRPC is not judged"),
            "{:?}",
            read.unspoken
        );
        assert!(
            read.notes[0].contains("never to another host"),
            "{:?}",
            read.notes
        );
        assert!(read.streaming);
        assert_eq!(
            read.skills[0].input_modes.as_deref(),
            Some(&["audio/wav".to_string()][..])
        );
    }

    #[test]
    fn a_0_3_card_has_a_main_url_and_additional_interfaces() {
        let card = json!({
            "protocolVersion": "0.3.0",
            "url": "http://127.0.0.1:9/",
            "additionalInterfaces": [
                {"url": "http://127.0.0.1:9/", "transport": "JSONRPC"},
                {"url": "http://127.0.0.1:9/rest", "transport": "HTTP+JSON"}
            ]
        });
        let read = read(&card, &origin());
        assert_eq!(read.version, CardVersion::V03);
        let spoken: Vec<_> = read
            .interfaces
            .iter()
            .map(|i| (i.binding, i.version, i.path.as_str()))
            .collect();
        assert_eq!(
            spoken,
            [
                (Binding::JsonRpc, Version::V03, ""),
                (Binding::HttpJson, Version::V03, "/rest")
            ]
        );
        assert!(read.input_modes.is_none() && !read.streaming);
    }
}
