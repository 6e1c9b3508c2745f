//! Our shipped envelope schemas (the repository's `schemas/`, the same files the tool's
//! offline cases validate against), compiled once and turned into the `details[]` the
//! invalid outcome lists.

use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::{Value, json};

use super::outcome::Detail;

/// A top-level violation, plus the property a `required` error names, so the pipeline
/// can recognise "meta is missing" without parsing a human message.
#[derive(Debug, Clone)]
pub struct Violation {
    pub detail: Detail,
    pub missing: Option<String>,
}

struct Validators {
    envelope: Validator,
    payloads: Vec<(&'static str, Validator)>,
    date_time: Validator,
}

/// Formats are assertions: `meta.ts: "tomorrow"` must fail (docs/wire.md, "AI envelopes"). The schemas
/// are embedded in the binary and a test compiles each, so a failure here is a broken
/// build, never a consequence of request input.
fn compile(schema: &Value) -> Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .expect("embedded envelope schema compiles")
}

/// `schemas/ai-envelope.schema.json`.
const ENVELOPE_SCHEMA: &str = include_str!("../../../../schemas/ai-envelope.schema.json");

/// `schemas/envelopes/<kind>.schema.json` of every universal kind, in the order of
/// [`UNIVERSAL_ENVELOPES`](super::kinds::UNIVERSAL_ENVELOPES).
const PAYLOAD_SCHEMAS: [(&str, &str); 4] = [
    (
        "clarification.request",
        include_str!("../../../../schemas/envelopes/clarification.request.schema.json"),
    ),
    (
        "schema.request",
        include_str!("../../../../schemas/envelopes/schema.request.schema.json"),
    ),
    (
        "schema.response",
        include_str!("../../../../schemas/envelopes/schema.response.schema.json"),
    ),
    (
        "error",
        include_str!("../../../../schemas/envelopes/error.schema.json"),
    ),
];

fn parsed(text: &str) -> Validator {
    compile(&serde_json::from_str(text).expect("embedded envelope schema is JSON"))
}

fn validators() -> &'static Validators {
    static VALIDATORS: OnceLock<Validators> = OnceLock::new();
    VALIDATORS.get_or_init(|| Validators {
        envelope: parsed(ENVELOPE_SCHEMA),
        payloads: PAYLOAD_SCHEMAS
            .iter()
            .map(|(kind, text)| (*kind, parsed(text)))
            .collect(),
        date_time: compile(&json!({"type": "string", "format": "date-time"})),
    })
}

/// `prefix` re-roots the error's instance path so every detail points into the envelope.
fn detail(error: &ValidationError<'_>, prefix: &str) -> Detail {
    Detail {
        keyword: error.kind().keyword().to_owned(),
        instance_path: format!("{prefix}{}", error.instance_path().as_str()),
        message: error.to_string(),
    }
}

/// Every way `envelope` fails `ai-envelope.schema.json` (empty when it conforms).
pub fn envelope_violations(envelope: &Value) -> Vec<Violation> {
    validators()
        .envelope
        .iter_errors(envelope)
        .map(|error| Violation {
            detail: detail(&error, ""),
            missing: match error.kind() {
                ValidationErrorKind::Required { property } => property.as_str().map(str::to_owned),
                _ => None,
            },
        })
        .collect()
}

/// How `payload` fails the schema of universal `kind`, with paths under `/payload`;
/// `None` when we hold no schema for `kind` (every non-universal kind).
pub fn payload_details(kind: &str, payload: &Value) -> Option<Vec<Detail>> {
    let (_, validator) = validators()
        .payloads
        .iter()
        .find(|(name, _)| *name == kind)?;
    Some(
        validator
            .iter_errors(payload)
            .map(|error| detail(&error, "/payload"))
            .collect(),
    )
}

/// The detail for a `meta.ts` that is not an RFC 3339 date-time, or `None` when it is.
pub fn ts_detail(ts: &Value) -> Option<Detail> {
    let error = validators().date_time.iter_errors(ts).next()?;
    Some(detail(&error, "/meta/ts"))
}

#[cfg(test)]
mod tests {
    use super::super::kinds::UNIVERSAL_ENVELOPES;
    use super::*;

    #[test]
    fn every_schema_compiles_once() {
        let all = validators();
        let kinds: Vec<&str> = all.payloads.iter().map(|(kind, _)| *kind).collect();
        assert_eq!(kinds, UNIVERSAL_ENVELOPES);
        assert!(std::ptr::eq(all, validators()));
    }

    #[test]
    fn date_times_follow_rfc_3339() {
        for good in ["2026-11-22T08:00:00Z", "2026-11-22T08:00:00.5+02:00"] {
            assert_eq!(ts_detail(&json!(good)), None, "{good}");
        }
        for bad in [json!("tomorrow"), json!("2026-11-22"), json!(7)] {
            let detail = ts_detail(&bad).expect("rejected");
            assert_eq!(detail.instance_path, "/meta/ts");
        }
    }

    #[test]
    fn payload_paths_point_into_the_envelope() {
        let details = payload_details("clarification.request", &json!({"questions": []}))
            .expect("universal kind has a schema");
        assert_eq!(details[0].keyword, "minItems");
        assert_eq!(details[0].instance_path, "/payload/questions");
        assert_eq!(payload_details("vendor.acme.x", &json!({})), None);
    }

    #[test]
    fn a_missing_property_is_named() {
        let violations = envelope_violations(&json!({}));
        let missing: Vec<_> = violations
            .iter()
            .filter_map(|v| v.missing.clone())
            .collect();
        for field in ["type", "envelopeId", "correlationId", "payload", "meta"] {
            assert!(missing.iter().any(|m| m == field), "{field}: {missing:?}");
        }
    }
}
