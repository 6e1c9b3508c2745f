//! `describe`: the runtime's declaration, fetched once per run (discovery), and the
//! `capabilities` case judged on it: exit 0, one JSON object line, and a well-formed
//! `mediaCapabilities` (each `acceptsInbound` entry a `type/` prefix or a full
//! `type/subtype`; `emitsOutbound` a boolean).

use super::classify::{BridgeRun, Observed};
use super::declaration::Capabilities;
use crate::outcome::AssertionResult;
use serde_json::{Map, Value};

/// What `describe` gave.
pub struct Described {
    pub finished: BridgeRun,
    /// The object it printed, when its first line was one (read within the JSON bound,
    /// `EventReader::describing`).
    pub object: Option<Map<String, Value>>,
}

impl Described {
    pub fn new(finished: BridgeRun, object: Option<Map<String, Value>>) -> Described {
        Described { finished, object }
    }

    /// The declaration it makes; unreadable: nothing accepted (the case fails on it).
    pub fn capabilities(&self) -> Capabilities {
        match &self.object {
            Some(object) => Capabilities::from_describe(object),
            None => Capabilities::unknown("describe printed no JSON object"),
        }
    }
}

/// `run.capabilities`: the assertions of the `capabilities` case.
pub fn judge(described: &Described) -> Vec<AssertionResult> {
    let run = Observed::new(&described.finished);
    let lines = described.finished.lines.len();
    let shape = AssertionResult::new(
        "run.describe",
        "describe prints one JSON object line and exits 0".into(),
        format!(
            "{lines} line(s), {}, {}",
            if described.object.is_some() {
                "the first a JSON object"
            } else {
                "no JSON object first"
            },
            run.ending()
        ),
        lines == 1 && described.object.is_some() && run.exited_zero(),
    );
    let problems = described
        .object
        .as_ref()
        .map(capability_problems)
        .unwrap_or_else(|| vec!["nothing to read".into()]);
    let well_formed = problems.is_empty();
    let caps = AssertionResult::new(
        "run.capabilities",
        "mediaCapabilities, when present, is well formed".into(),
        if well_formed {
            "well formed".into()
        } else {
            crate::quoted::list(problems, "; ")
        },
        well_formed,
    );
    vec![shape, caps]
}

fn capability_problems(object: &Map<String, Value>) -> Vec<String> {
    let Some(caps) = object.get("mediaCapabilities") else {
        return Vec::new();
    };
    let Some(caps) = caps.as_object() else {
        return vec!["mediaCapabilities is not an object".into()];
    };
    let mut out = Vec::new();
    match caps.get("acceptsInbound") {
        None => {}
        Some(Value::Array(list)) => {
            for entry in list {
                match entry.as_str() {
                    Some(s) if is_prefix_or_type(s) => {}
                    _ => out.push(format!(
                        "acceptsInbound entry {} is neither `type/` nor `type/subtype`",
                        super::event::clip(&entry.to_string(), 80)
                    )),
                }
            }
        }
        Some(other) => out.push(format!(
            "acceptsInbound is {}, not a list",
            super::event::clip(&other.to_string(), 80)
        )),
    }
    if let Some(v) = caps.get("emitsOutbound").filter(|v| !v.is_boolean()) {
        out.push(format!(
            "emitsOutbound is {}, not a boolean",
            super::event::clip(&v.to_string(), 80)
        ));
    }
    out
}

/// `image/` or `audio/wav` (RFC 6838 token characters on each side).
fn is_prefix_or_type(entry: &str) -> bool {
    let token = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
    };
    match entry.split_once('/') {
        Some((kind, "")) => token(kind),
        Some((kind, sub)) => token(kind) && token(sub),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_are_prefixes_or_full_types() {
        assert!(is_prefix_or_type("image/") && is_prefix_or_type("application/pdf"));
        assert!(
            !is_prefix_or_type("image")
                && !is_prefix_or_type("/png")
                && !is_prefix_or_type("a b/c")
        );
        let ok =
            json!({"mediaCapabilities": {"acceptsInbound": ["image/"], "emitsOutbound": false}});
        assert!(capability_problems(ok.as_object().unwrap()).is_empty());
        let bad =
            json!({"mediaCapabilities": {"acceptsInbound": ["image"], "emitsOutbound": "no"}});
        assert_eq!(capability_problems(bad.as_object().unwrap()).len(), 2);
        assert!(capability_problems(json!({}).as_object().unwrap()).is_empty());
    }
}
