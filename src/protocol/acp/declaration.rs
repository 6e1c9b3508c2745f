//! What `initialize` declares: `agentCapabilities.promptCapabilities` (`image`, `audio`,
//! `embeddedContext`; text and `resource_link` are always allowed), the protocol
//! version and the authentication methods, as the `acp.*` facts the pack is planned on;
//! and whether the answer is well formed (read with the protocol's own types, and the
//! capability values checked for their JSON type, which those types forgive).

use agent_client_protocol_schema::v1::InitializeResponse;
use serde_json::{Value, json};

pub const FACT_NAMES: [&str; 7] = [
    "image",
    "audio",
    "embeddedContext",
    "protocolVersion",
    "authMethods",
    "initialized",
    "witness",
];

/// Authentication method ids kept from an `initialize` answer.
const KEPT_AUTH_METHODS: usize = 100;

/// The declaration read from an `initialize` result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    pub image: bool,
    pub audio: bool,
    pub embedded_context: bool,
    pub protocol_version: Option<u64>,
    /// The ids of the first listed authentication methods (clipped), and how many
    /// were listed.
    pub auth_methods: Vec<String>,
    pub auth_methods_listed: usize,
    pub initialized: bool,
}

impl Declared {
    /// Reads `result` (absent: the agent never initialized). A capability that is not
    /// `true` is not advertised.
    pub fn of(result: Option<&Value>) -> Declared {
        let Some(result) = result else {
            return Declared::default();
        };
        let caps = &result["agentCapabilities"]["promptCapabilities"];
        let flag = |name: &str| caps.get(name) == Some(&json!(true));
        Declared {
            image: flag("image"),
            audio: flag("audio"),
            embedded_context: flag("embeddedContext"),
            protocol_version: result.get("protocolVersion").and_then(Value::as_u64),
            // The ids a run can choose from (`--acp-auth`), as many as a person reads.
            auth_methods: result
                .get("authMethods")
                .and_then(Value::as_array)
                .map(|methods| {
                    methods
                        .iter()
                        .filter_map(|m| m.get("id").and_then(Value::as_str))
                        .take(KEPT_AUTH_METHODS)
                        .map(super::connection::clip)
                        .collect()
                })
                .unwrap_or_default(),
            auth_methods_listed: result
                .get("authMethods")
                .and_then(Value::as_array)
                .map_or(0, Vec::len),
            initialized: true,
        }
    }

    /// The listed methods as a report quotes them.
    pub fn auth_methods_quoted(&self) -> String {
        crate::quoted::list_of(
            self.auth_methods.iter().cloned(),
            self.auth_methods_listed,
            ", ",
        )
    }

    pub fn facts(&self, witness: bool) -> Value {
        json!({
            "image": self.image,
            "audio": self.audio,
            "embeddedContext": self.embedded_context,
            "protocolVersion": self.protocol_version,
            "authMethods": self.auth_methods,
            "initialized": self.initialized,
            "witness": witness,
        })
    }

    /// The capabilities `prompt`'s blocks need that this declaration does not
    /// advertise (`image`, `audio`, `embeddedContext`), in block order, once each.
    pub fn unadvertised_in(&self, prompt: &Value) -> Vec<&'static str> {
        let mut out = Vec::new();
        for block in prompt.as_array().into_iter().flatten() {
            let needs = match block.get("type").and_then(Value::as_str) {
                Some("image") if !self.image => "image",
                Some("audio") if !self.audio => "audio",
                Some("resource") if !self.embedded_context => "embeddedContext",
                _ => continue,
            };
            if !out.contains(&needs) {
                out.push(needs);
            }
        }
        out
    }

    pub fn summary(&self) -> String {
        if !self.initialized {
            return "not initialized".into();
        }
        let mut kinds = vec!["text", "resource_link"];
        for (on, name) in [
            (self.image, "image"),
            (self.audio, "audio"),
            (self.embedded_context, "resource"),
        ] {
            if on {
                kinds.push(name);
            }
        }
        format!(
            "protocol {}; prompt blocks {}; auth methods [{}]",
            self.protocol_version
                .map_or("?".to_string(), |v| v.to_string()),
            kinds.join(", "),
            self.auth_methods_quoted()
        )
    }
}

/// Problems with an `initialize` result: each one a sentence (none: well formed).
pub fn problems(result: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = serde_json::from_value::<InitializeResponse>(result.clone()) {
        out.push(format!("not an InitializeResponse: {e}"));
    }
    match result.get("protocolVersion").and_then(Value::as_u64) {
        Some(1) => {}
        Some(v) => out.push(format!(
            "protocolVersion {v}: the client asked for 1, which an agent that supports it must answer"
        )),
        None => out.push("protocolVersion is not an integer".into()),
    }
    let caps = &result["agentCapabilities"];
    if !caps.is_null() && !caps.is_object() {
        out.push("agentCapabilities is not an object".into());
    }
    let prompt = &caps["promptCapabilities"];
    if !prompt.is_null() && !prompt.is_object() {
        out.push("promptCapabilities is not an object".into());
    }
    for name in ["image", "audio", "embeddedContext"] {
        if let Some(v) = prompt.get(name)
            && !v.is_boolean()
        {
            out.push(format!(
                "promptCapabilities.{name} is {}, not a boolean",
                super::connection::clip(&v.to_string())
            ));
        }
    }
    if let Some(methods) = result.get("authMethods")
        && !methods.is_array()
    {
        out.push("authMethods is not an array".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_are_read_and_malformed_ones_named() {
        let good = json!({"protocolVersion": 1, "agentCapabilities": {"promptCapabilities":
            {"image": true, "audio": false, "embeddedContext": true}},
            "authMethods": [{"id": "gateway", "name": "Gateway"}]});
        let declared = Declared::of(Some(&good));
        assert!(declared.image && !declared.audio && declared.embedded_context);
        assert_eq!(declared.auth_methods, ["gateway"]);
        assert!(problems(&good).is_empty(), "{:?}", problems(&good));
        let bad = json!({"protocolVersion": "1", "agentCapabilities": {"promptCapabilities":
            {"image": "yes"}}});
        let found = problems(&bad);
        assert!(found.iter().any(|p| p.contains("not an integer")));
        assert!(found.iter().any(|p| p.contains("image is \"yes\"")));
        assert!(!Declared::of(Some(&bad)).image);
        assert!(!Declared::of(None).initialized);
        let prompt = json!([{"type": "text", "text": "hi"}, {"type": "audio", "data": "AAAA"},
            {"type": "image", "data": "AAAA"}, {"type": "resource_link", "uri": "file:///a"},
            {"type": "audio", "data": "BBBB"}]);
        assert_eq!(declared.unadvertised_in(&prompt), ["audio"]);
        assert_eq!(
            Declared::default().unadvertised_in(&prompt),
            ["audio", "image"]
        );
    }
}
