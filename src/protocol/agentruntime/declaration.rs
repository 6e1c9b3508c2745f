//! What a runtime declares: `mediaCapabilities` from `describe` (the contract's
//! declaration), or `--accepts` given by the user, which overrides it and is reported
//! as such. ChannelBridge's partition rule decides what is accepted: `acceptsInbound`
//! absent lets everything through, `[]` nothing, otherwise a MIME type passes when it
//! starts with a `type/` entry or equals a full type.

use mmconform_media as media;
use serde_json::{Map, Value, json};

/// Names available under `agentruntime.` in predicates and placeholders.
pub const FACT_NAMES: [&str; 8] = [
    "acceptsInbound",
    "emitsOutbound",
    "acceptedMimes",
    "undeclaredMimes",
    "firstMime",
    "witness",
    "declaredBy",
    "described",
];

/// The declaration a run is planned on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capabilities {
    /// `None`: the key is absent (everything passes).
    pub accepts_inbound: Option<Vec<String>>,
    pub emits_outbound: Option<bool>,
    /// `describe`, `--accepts (overrides describe)`, `no declaration`.
    pub declared_by: String,
}

impl Capabilities {
    /// Reads `mediaCapabilities` from a describe answer's object (well-formedness is
    /// the `capabilities` case's to judge; planning takes what it can read).
    pub fn from_describe(object: &Map<String, Value>) -> Capabilities {
        let caps = object.get("mediaCapabilities");
        let accepts_inbound = caps
            .and_then(|c| c.get("acceptsInbound"))
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(|s| s.trim().to_ascii_lowercase())
                    .collect()
            });
        let emits_outbound = caps
            .and_then(|c| c.get("emitsOutbound"))
            .and_then(Value::as_bool);
        let declared_by = if caps.is_some() {
            "describe"
        } else {
            "describe (no mediaCapabilities: everything passes)"
        };
        Capabilities {
            accepts_inbound,
            emits_outbound,
            declared_by: declared_by.into(),
        }
    }

    /// `--accepts` in place of what describe said (emitsOutbound is kept).
    pub fn overridden(mut self, accepts: &[String]) -> Capabilities {
        self.accepts_inbound = Some(
            accepts
                .iter()
                .map(|a| a.trim().to_ascii_lowercase())
                .filter(|a| !a.is_empty())
                .collect(),
        );
        self.declared_by = "--accepts (overrides describe)".into();
        self
    }

    /// Nothing known (describe failed): planning sees no accepted type.
    pub fn unknown(why: &str) -> Capabilities {
        Capabilities {
            accepts_inbound: Some(Vec::new()),
            emits_outbound: None,
            declared_by: format!("unknown ({why})"),
        }
    }

    /// ChannelBridge's rule.
    pub fn accepts_mime(&self, mime: &str) -> bool {
        let Some(list) = &self.accepts_inbound else {
            return true;
        };
        // The same prefix rule as --accepts (AgentRuntime #385 is where it comes from).
        list.iter()
            .any(|entry| crate::protocol::declared_media::prefix_accepts(entry, mime))
    }

    pub fn accepted_mimes(&self) -> Vec<&'static str> {
        media::supported_mimes()
            .iter()
            .copied()
            .filter(|m| self.accepts_mime(m))
            .collect()
    }

    pub fn undeclared_mimes(&self) -> Vec<&'static str> {
        media::supported_mimes()
            .iter()
            .copied()
            .filter(|m| !self.accepts_mime(m))
            .collect()
    }

    /// The facts scenario predicates see under `agentruntime.`.
    pub fn facts(&self, witness: bool, described: bool) -> Value {
        let mut first = Map::new();
        for mime in self.accepted_mimes() {
            first.entry(kind(mime)).or_insert_with(|| json!(mime));
        }
        json!({
            "acceptsInbound": self.accepts_inbound,
            "emitsOutbound": self.emits_outbound,
            "acceptedMimes": self.accepted_mimes(),
            "undeclaredMimes": self.undeclared_mimes(),
            "firstMime": first,
            "witness": witness,
            "declaredBy": self.declared_by,
            "described": described,
        })
    }

    #[cfg(test)]
    pub fn summary(&self) -> String {
        let accepts = match &self.accepts_inbound {
            None => "acceptsInbound absent (everything)".to_string(),
            Some(list) if list.is_empty() => "acceptsInbound [] (nothing)".to_string(),
            Some(list) => format!(
                "accepts {}",
                crate::quoted::list(list.iter().cloned(), ", ")
            ),
        };
        let emits = match self.emits_outbound {
            Some(true) => "emits media",
            Some(false) => "emits no media",
            None => "emitsOutbound not declared",
        };
        format!("{accepts}; {emits}; declared by {}", self.declared_by)
    }
}

/// The kind a MIME type is named by in `firstMime`: image, audio, video, document.
pub fn kind(mime: &str) -> &'static str {
    match mime.split('/').next().unwrap_or("") {
        "image" => "image",
        "audio" => "audio",
        "video" => "video",
        _ => "document",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn described(value: Value) -> Capabilities {
        Capabilities::from_describe(value.as_object().unwrap())
    }

    #[test]
    fn channel_bridge_partitions_by_prefix_or_full_type() {
        let caps = described(
            json!({"mediaCapabilities": {"acceptsInbound": ["image/", "audio/wav"], "emitsOutbound": false}}),
        );
        assert!(caps.accepts_mime("image/webp") && caps.accepts_mime("audio/wav"));
        assert!(!caps.accepts_mime("audio/mpeg") && !caps.accepts_mime("application/pdf"));
        assert_eq!(
            caps.undeclared_mimes(),
            ["audio/mpeg", "application/pdf", "video/mp4"]
        );
        let facts = caps.facts(true, true);
        assert_eq!(
            facts["firstMime"],
            json!({"image": "image/png", "audio": "audio/wav"})
        );
        for name in FACT_NAMES {
            assert!(facts.get(name).is_some(), "{name}");
        }
    }

    #[test]
    fn absent_lets_everything_through_and_empty_nothing() {
        let absent = described(json!({}));
        assert_eq!(absent.undeclared_mimes().len(), 0);
        let empty = described(json!({"mediaCapabilities": {"acceptsInbound": []}}));
        assert_eq!(empty.accepted_mimes().len(), 0);
        let over = empty.overridden(&["application/pdf".to_string()]);
        assert_eq!(over.accepted_mimes(), ["application/pdf"]);
        assert!(over.summary().contains("--accepts (overrides describe)"));
    }
}
