//! `lint`'s checks of `expect.witness` that every protocol shares: it needs a request
//! whose model calls the witness can find (by the case's nonce), and `reached` needs
//! parts a model could recognise as what was sent.

use super::checks::Finding;
use super::media_objects::{media_in_body, sources};
use super::model::{CaseSpec, WitnessExpectation};
use super::template;
use serde_json::Value;

pub fn check(case: &CaseSpec, raw: &Value, base: &str, out: &mut Vec<Finding>) {
    let delivers = matches!(
        case.expect.witness,
        Some(WitnessExpectation::Reached | WitnessExpectation::Delivered)
    );
    if case.expect.delivery.is_some() && !delivers {
        out.push((
            format!("{base}/expect/delivery"),
            true,
            "`expect.delivery` says how parts that reach the model may arrive: it needs `witness: reached` or `delivered`".into(),
        ));
    }
    let Some(expect) = case.expect.witness else {
        return;
    };
    let at = format!("{base}/expect/witness");
    if case.request.is_none() {
        out.push((
            at,
            true,
            "`expect.witness` judges the model calls a request leads to; an offline case sends none"
                .into(),
        ));
        return;
    }
    let media = media_in_body(raw, base);
    let stamped = media.iter().any(|(_, m)| generated(m));
    if !stamped && !names_nonce(raw.pointer("/request/body")) {
        out.push((
            at,
            true,
            "the witness finds a case's model calls by its nonce: the body needs a `{nonce}` placeholder or a `$media` part with generated data".into(),
        ));
    }
    if expect == WitnessExpectation::Reached {
        for (pointer, m) in &media {
            if let Some(why) = unrecognisable(m) {
                out.push((
                    pointer.clone(),
                    false,
                    format!(
                        "`witness: reached` needs parts a model can receive as sent; this one {why}"
                    ),
                ));
            }
        }
    }
}

/// A `$media` whose bytes mmconform generates (and stamps with the nonce).
fn generated(media: &Value) -> bool {
    media.get("data").is_none()
        && matches!(sources(media).as_slice(), [] | ["data"])
        && !matches!(media.get("source"), Some(Value::Array(a)) if a.is_empty())
}

/// Why a `$media` cannot arrive as sent: literal data, an omitted field, no source or
/// several.
fn unrecognisable(media: &Value) -> Option<&'static str> {
    if media.get("data").is_some() {
        return Some("carries literal `data`");
    }
    if media
        .get("omit")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty())
    {
        return Some("leaves fields out (`omit`)");
    }
    match media.get("source") {
        Some(Value::Array(a)) if a.len() != 1 => Some("has no source or several"),
        _ => None,
    }
}

fn names_nonce(body: Option<&Value>) -> bool {
    match body {
        Some(Value::String(s)) => {
            template::placeholders(s).is_ok_and(|names| names.iter().any(|n| n == "nonce"))
        }
        Some(Value::Array(items)) => items.iter().any(|i| names_nonce(Some(i))),
        Some(Value::Object(map)) => map.values().any(|v| names_nonce(Some(v))),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn findings(case: Value) -> Vec<Finding> {
        let spec: CaseSpec = serde_json::from_value(case.clone()).unwrap();
        let mut out = Vec::new();
        check(&spec, &case, "/cases/0", &mut out);
        out
    }

    fn case(body: Value, witness: &str) -> Value {
        json!({"id": "c", "title": "t",
            "requirement": {"source": "s", "level": "MUST", "text": "t"},
            "request": {"endpoint": "ai-call", "body": body},
            "expect": {"status": "2xx", "witness": witness}})
    }

    #[test]
    fn a_case_the_witness_can_find_and_recognise_passes() {
        let body = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "x"}, {"$media": {"type": "image"}}]}]});
        assert!(findings(case(body, "reached")).is_empty());
        let text = json!({"messages": [{"role": "user", "content": "hi {nonce}"}]});
        assert!(findings(case(text, "withheld")).is_empty());
    }

    #[test]
    fn delivery_needs_an_expectation_that_delivers() {
        let body = json!({"messages": [{"role": "user", "content": "hi {nonce}"}]});
        let mut reached = case(body.clone(), "reached");
        reached["expect"]["delivery"] = json!("intact");
        assert!(findings(reached).is_empty());
        let mut withheld = case(body, "withheld");
        withheld["expect"]["delivery"] = json!("intact");
        let found = findings(withheld);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, "/cases/0/expect/delivery");
    }

    #[test]
    fn no_nonce_offline_and_unrecognisable_parts_are_named() {
        let blind = json!({"messages": [{"role": "user", "content": "hi"}]});
        let found = findings(case(blind, "withheld"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "/cases/0/expect/witness");
        assert!(found[0].2.contains("`{nonce}`"), "{found:?}");
        let literal = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "{nonce}"}, {"$media": {"type": "image", "data": "junk"}}]}]});
        let found = findings(case(literal.clone(), "reached"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].0,
            "/cases/0/request/body/messages/0/content/1/$media"
        );
        assert!(findings(case(literal, "withheld")).is_empty());
        let offline = json!({"id": "c", "title": "t",
            "requirement": {"source": "s", "level": "MUST", "text": "t"},
            "validate": {"schema": "x"}, "expect": {"compiles": true, "witness": "reached"}});
        assert!(findings(offline)[0].2.contains("offline"));
    }
}
