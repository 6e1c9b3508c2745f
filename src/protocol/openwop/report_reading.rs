//! What openwop reads in a saved report of one of its runs that the evidence merge
//! cannot read generically (`evidence::input::ReportReading`): the wire (major and
//! dialect), what the host's discovery document advertised, and the variant (`v2`)
//! every case of a `--openwop-major 2` run was judged at.

use crate::evidence::identity::list;
use crate::evidence::input::ReportReading;
use serde_json::Value;

/// The report's reading: see the module comment.
pub fn read(report: &Value) -> ReportReading {
    let run = &report["run"];
    let wire = format!(
        "openwop {}, {} dialect",
        match &run["openwop_major"] {
            Value::String(s) if s == "auto" => "auto (v1, v2 where listed)".into(),
            other => format!("v{other}"),
        },
        run["dialect"].as_str().unwrap_or("?")
    );
    ReportReading {
        wire: Some(wire),
        advertised: advertisement(&report["discovery"]["document"]),
        variant: (run["openwop_major"] == 2)
            .then(|| (super::major::V2.to_string(), "openwop 2".to_string())),
    }
}

/// What the discovery document advertises, one fact a line.
fn advertisement(document: &Value) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn advertisement_names_modalities_wrappers_and_envelopes() {
        let doc = |d: Value| d;
        assert_eq!(
            advertisement(&doc(
                json!({"aiProviders": {"input": {"modalities": ["text", "image"],
                "maxBytesPerPart": 10}}, "supportedEnvelopes": ["error"]})
            )),
            vec![
                "modalities: text, image",
                "maxBytesPerPart: 10",
                "supportedEnvelopes: error"
            ]
        );
        let wrapped = advertisement(&doc(json!({"capabilities": {"aiProviders": {}}})));
        assert!(
            wrapped[0].contains("not at the document root"),
            "{wrapped:?}"
        );
        assert_eq!(
            advertisement(&doc(json!({}))),
            vec!["no aiProviders (text-only)"]
        );
    }
}
