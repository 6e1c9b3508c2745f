//! Stage 7, the per-turn caps: each kind spends one counter the caller reports as
//! `counters.<name>: {current, cap}`, and reaching the cap is a breach.

use serde_json::Value;

use super::outcome::{CapKind, Outcome};
use crate::{Fault, ReferenceConfig};

/// The counter `kind` spends and the `capKind` a breach names: clarifications and
/// schema requests have their own rounds (capabilities §limits), all else shares
/// `envelopesPerTurn`.
fn counter_of(config: &ReferenceConfig, kind: &str) -> (&'static str, CapKind) {
    if config.faulted(Fault::EnvelopeWrongCapKind) {
        return ("envelopesPerTurn", CapKind::Envelopes);
    }
    match kind {
        "clarification.request" => ("clarificationRounds", CapKind::Clarification),
        "schema.request" => ("schemaRounds", CapKind::Schema),
        _ => ("envelopesPerTurn", CapKind::Envelopes),
    }
}

/// `(current, cap)` when the counter is present with two integers. A malformed counter
/// counts as absent: the seam answers 200 for every request with an envelope, and an
/// unreadable counter cannot prove a breach.
fn reading(body: &Value, name: &str) -> Option<(i64, i64)> {
    let counter = body.get("counters")?.get(name)?;
    Some((
        counter.get("current")?.as_i64()?,
        counter.get("cap")?.as_i64()?,
    ))
}

/// Breached when `current >= cap`: `current` is what was already spent this turn, so
/// at the cap there is no room left for this envelope.
pub fn check_caps(config: &ReferenceConfig, kind: &str, body: &Value) -> Result<(), Outcome> {
    let (name, cap_kind) = counter_of(config, kind);
    let Some((current, cap)) = reading(body, name) else {
        return Ok(());
    };
    let breached = if config.faulted(Fault::EnvelopeBreachAboveCapOnly) {
        current > cap
    } else if config.faulted(Fault::EnvelopeBreachOneEarly) {
        current.saturating_add(1) >= cap
    } else {
        current >= cap
    };
    if breached {
        Err(Outcome::Breached {
            cap_kind,
            current,
            cap,
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(name: &str, current: i64, cap: i64) -> Value {
        json!({"counters": {name: {"current": current, "cap": cap}}})
    }

    #[test]
    fn each_kind_spends_its_own_counter() {
        let config = ReferenceConfig::default();
        let cases = [
            (
                "clarification.request",
                "clarificationRounds",
                CapKind::Clarification,
            ),
            ("schema.request", "schemaRounds", CapKind::Schema),
            ("schema.response", "envelopesPerTurn", CapKind::Envelopes),
            ("error", "envelopesPerTurn", CapKind::Envelopes),
            ("vendor.acme.prd", "envelopesPerTurn", CapKind::Envelopes),
        ];
        for (kind, name, cap_kind) in cases {
            assert_eq!(check_caps(&config, kind, &at(name, 2, 3)), Ok(()), "{kind}");
            assert_eq!(
                check_caps(&config, kind, &at(name, 3, 3)),
                Err(Outcome::Breached {
                    cap_kind,
                    current: 3,
                    cap: 3
                }),
                "{kind}"
            );
            assert!(
                check_caps(&config, kind, &at(name, 4, 3)).is_err(),
                "{kind}"
            );
        }
        // Another kind's counter at its cap is not this kind's business.
        let body = at("schemaRounds", 9, 3);
        assert_eq!(check_caps(&config, "clarification.request", &body), Ok(()));
    }

    #[test]
    fn absent_or_malformed_counters_never_breach() {
        let config = ReferenceConfig::default();
        for body in [
            json!({}),
            json!({"counters": 3}),
            json!({"counters": {"envelopesPerTurn": {"current": 40}}}),
            json!({"counters": {"envelopesPerTurn": {"current": "40", "cap": 3}}}),
            json!({"counters": {"envelopesPerTurn": {"current": 4.5, "cap": 3}}}),
        ] {
            assert_eq!(check_caps(&config, "error", &body), Ok(()), "{body}");
        }
    }
}
