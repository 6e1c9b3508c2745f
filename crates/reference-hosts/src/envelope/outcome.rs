//! What the accept seam answers: one outcome object per well-formed request, always
//! HTTP 200 (docs/wire.md, "AI envelopes"), in the shape the official suite reads.

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use crate::{Fault, ReferenceConfig};

/// One schema violation, as the invalid outcome lists it. `instance_path` is a JSON
/// pointer into the envelope (`""` for the envelope itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detail {
    pub keyword: String,
    pub instance_path: String,
    pub message: String,
}

impl Detail {
    fn to_json(&self) -> Value {
        json!({
            "keyword": self.keyword,
            "instancePath": self.instance_path,
            "message": self.message,
        })
    }
}

/// Which limit a breach hit, spelled as `capKind` on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapKind {
    Clarification,
    Schema,
    Envelopes,
}

impl CapKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CapKind::Clarification => "clarification",
            CapKind::Schema => "schema",
            CapKind::Envelopes => "envelopes",
        }
    }
}

/// The decision of the accept pipeline.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Accepted {
        normalized_meta: Map<String, Value>,
    },
    Invalid {
        reason: String,
        details: Vec<Detail>,
    },
    Gated {
        reason: String,
        allowed_kinds: Vec<String>,
    },
    Breached {
        cap_kind: CapKind,
        current: i64,
        cap: i64,
    },
}

impl Outcome {
    /// The HTTP answer for this outcome. Faithfully every outcome is a 200: the seam
    /// reports a decision, it does not refuse the request. The three rendering faults
    /// live here because they change the wire shape, not the decision.
    pub fn render(&self, config: &ReferenceConfig) -> (StatusCode, Value) {
        let mut body = Map::new();
        match self {
            Outcome::Accepted { normalized_meta } => {
                body.insert("status".into(), json!("accepted"));
                body.insert(
                    "normalizedMeta".into(),
                    Value::Object(normalized_meta.clone()),
                );
            }
            Outcome::Invalid { reason, details } => {
                body.insert("status".into(), json!("invalid"));
                body.insert("reason".into(), json!(reason));
                if !config.faulted(Fault::EnvelopeInvalidWithoutDetails) {
                    let details = details.iter().map(Detail::to_json).collect();
                    body.insert("details".into(), Value::Array(details));
                }
            }
            Outcome::Gated {
                reason,
                allowed_kinds,
            } => {
                body.insert("status".into(), json!("gated"));
                body.insert("reason".into(), json!(reason));
                if !config.faulted(Fault::EnvelopeGatedWithoutAllowedKinds) {
                    body.insert("allowedKinds".into(), json!(allowed_kinds));
                }
            }
            Outcome::Breached {
                cap_kind,
                current,
                cap,
            } => {
                body.insert("status".into(), json!("breached"));
                body.insert("capKind".into(), json!(cap_kind.as_str()));
                body.insert("current".into(), json!(current));
                body.insert("cap".into(), json!(cap));
            }
        }
        let accepted = matches!(self, Outcome::Accepted { .. });
        let status = if !accepted && config.faulted(Fault::EnvelopeHttp400) {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::OK
        };
        (status, Value::Object(body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn faulted(fault: Fault) -> ReferenceConfig {
        ReferenceConfig {
            fault: Some(fault),
            ..ReferenceConfig::default()
        }
    }

    fn invalid() -> Outcome {
        Outcome::Invalid {
            reason: "bad".into(),
            details: vec![Detail {
                keyword: "required".into(),
                instance_path: String::new(),
                message: "\"meta\" is a required property".into(),
            }],
        }
    }

    fn gated() -> Outcome {
        Outcome::Gated {
            reason: "no".into(),
            allowed_kinds: vec!["error".into()],
        }
    }

    #[test]
    fn shapes_are_exact() {
        let config = ReferenceConfig::default();
        assert_eq!(
            invalid().render(&config),
            (
                StatusCode::OK,
                json!({"status": "invalid", "reason": "bad", "details": [
                    {"keyword": "required", "instancePath": "", "message": "\"meta\" is a required property"}
                ]})
            )
        );
        assert_eq!(
            gated().render(&config).1,
            json!({"status": "gated", "reason": "no", "allowedKinds": ["error"]})
        );
        let breached = Outcome::Breached {
            cap_kind: CapKind::Schema,
            current: 3,
            cap: 3,
        };
        assert_eq!(
            breached.render(&config).1,
            json!({"status": "breached", "capKind": "schema", "current": 3, "cap": 3})
        );
        let mut meta = Map::new();
        meta.insert("contentTrust".into(), json!("trusted"));
        let accepted = Outcome::Accepted {
            normalized_meta: meta,
        };
        assert_eq!(
            accepted.render(&config).1,
            json!({"status": "accepted", "normalizedMeta": {"contentTrust": "trusted"}})
        );
    }

    #[test]
    fn rendering_faults_change_only_their_part() {
        let no_details = invalid().render(&faulted(Fault::EnvelopeInvalidWithoutDetails));
        assert_eq!(no_details.1, json!({"status": "invalid", "reason": "bad"}));
        let no_kinds = gated().render(&faulted(Fault::EnvelopeGatedWithoutAllowedKinds));
        assert_eq!(no_kinds.1, json!({"status": "gated", "reason": "no"}));

        let http = faulted(Fault::EnvelopeHttp400);
        assert_eq!(invalid().render(&http).0, StatusCode::BAD_REQUEST);
        assert_eq!(gated().render(&http).0, StatusCode::BAD_REQUEST);
        assert_eq!(
            invalid().render(&http).1,
            invalid().render(&ReferenceConfig::default()).1
        );
        let accepted = Outcome::Accepted {
            normalized_meta: Map::new(),
        };
        assert_eq!(accepted.render(&http).0, StatusCode::OK);
    }
}
