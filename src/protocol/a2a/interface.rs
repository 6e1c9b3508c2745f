//! An interface the card declares (1.0 `AgentInterface`: url, protocolBinding,
//! protocolVersion, tenant; 0.3: the main `url` with `preferredTransport`, and
//! `additionalInterfaces`), the ones mmconform speaks (JSON-RPC and HTTP+JSON, at 1.0
//! and 0.3), and the variant tag each further interface's cases carry.

use serde::{Deserialize, Serialize};

/// A protocol binding (§5, §9-§11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Binding {
    #[serde(rename = "JSONRPC")]
    JsonRpc,
    #[serde(rename = "HTTP+JSON")]
    HttpJson,
}

impl Binding {
    /// How a card names it.
    pub fn name(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
        }
    }

    /// In a variant tag (`http-json`).
    fn slug(self) -> &'static str {
        match self {
            Binding::JsonRpc => "jsonrpc",
            Binding::HttpJson => "http-json",
        }
    }

    /// A card's binding name, read case-insensitively (`JSONRPC`, `HTTP+JSON`; 0.3
    /// cards also wrote `jsonrpc`); `None` for any other (gRPC, custom URIs).
    pub fn parse(name: &str) -> Option<Binding> {
        match name.trim().to_ascii_uppercase().as_str() {
            "JSONRPC" | "JSON-RPC" => Some(Binding::JsonRpc),
            "HTTP+JSON" | "REST" => Some(Binding::HttpJson),
            _ => None,
        }
    }
}

/// An A2A version mmconform speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Version {
    #[serde(rename = "1.0")]
    V1,
    #[serde(rename = "0.3")]
    V03,
}

impl Version {
    pub fn number(self) -> &'static str {
        match self {
            Version::V1 => "1.0",
            Version::V03 => "0.3",
        }
    }

    /// A declared `protocolVersion` (`1.0`, `0.3.0`): its `Major.Minor` (§3.6: a patch
    /// does not matter), when it is one mmconform speaks.
    pub fn parse(declared: &str) -> Option<Version> {
        let mut numbers = declared.trim().split('.');
        match (numbers.next(), numbers.next()) {
            (Some("1"), Some("0")) => Some(Version::V1),
            (Some("0"), Some("3")) => Some(Version::V03),
            _ => None,
        }
    }
}

/// One declared interface mmconform can speak to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interface {
    pub binding: Binding,
    pub version: Version,
    /// As the card wrote it.
    pub url: String,
    /// The path requests go to on the target's origin (the URL's own path: mmconform
    /// never follows a card to another host).
    pub path: String,
    /// 1.0: the `tenant` every request names (§8.3.2); `None` when the card sets none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
}

impl Interface {
    /// `JSONRPC 1.0 at http://...`.
    pub fn describe(&self) -> String {
        format!(
            "{} {} at {}",
            self.binding.name(),
            self.version.number(),
            self.url
        )
    }

    /// The variant tag of this interface's cases, against the run's first interface
    /// `main`: what differs (`v0.3`, `http-json`, `http-json-v0.3`); `None` for `main`'s
    /// binding and version.
    pub fn tag(&self, main: &Interface) -> Option<String> {
        let version = format!("v{}", self.version.number());
        match (self.binding == main.binding, self.version == main.version) {
            (true, true) => None,
            (true, false) => Some(version),
            (false, true) => Some(self.binding.slug().to_string()),
            (false, false) => Some(format!("{}-{version}", self.binding.slug())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(binding: Binding, version: Version) -> Interface {
        Interface {
            binding,
            version,
            url: "http://h/a".into(),
            path: "/a".into(),
            tenant: None,
        }
    }

    #[test]
    fn tags_name_what_differs_from_the_first_interface() {
        let main = at(Binding::JsonRpc, Version::V1);
        assert_eq!(main.tag(&main), None);
        assert_eq!(
            at(Binding::JsonRpc, Version::V03).tag(&main).as_deref(),
            Some("v0.3")
        );
        assert_eq!(
            at(Binding::HttpJson, Version::V1).tag(&main).as_deref(),
            Some("http-json")
        );
        assert_eq!(
            at(Binding::HttpJson, Version::V03).tag(&main).as_deref(),
            Some("http-json-v0.3")
        );
    }

    #[test]
    fn versions_and_bindings_are_read_as_cards_write_them() {
        assert_eq!(Version::parse("0.3.0"), Some(Version::V03));
        assert_eq!(Version::parse("1.0"), Some(Version::V1));
        assert_eq!(Version::parse("0.2.5"), None);
        assert_eq!(Binding::parse("http+json"), Some(Binding::HttpJson));
        assert_eq!(Binding::parse("GRPC"), None);
    }
}
