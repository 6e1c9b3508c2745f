//! Why a case did not apply, as `--require` weighs it: the host lacks something the
//! requirement needs (a failure under `--require`), the host has more than the case
//! looks for (a requirement about what is *not* advertised, vacuous for this host: the
//! unmet check is a `not_contains`, or a `contains` on a fact listing absences such as
//! `openai.undeclaredKinds`), the host does not offer an optional capability the
//! requirement is about (a check marked `optional`), or
//! the run lacks something only the user can give (`--media-base-url`, `--media-ref`, a
//! token: named, and waivable by name).

use super::predicate::{self, Resolve};
use crate::scenario::model::Predicate;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipCause {
    /// A `run.*` fact: what the user passed (or did not).
    RunInput,
    /// A `not_contains` on a host fact: the host advertises what the case needs absent.
    HostHasMore,
    /// Any other host fact: the host does not have what the case needs.
    HostLacks,
    /// A check marked `optional`: the host does not offer an optional capability the
    /// requirement is about (RFC 0108's self-hosted provider), so it does not apply.
    NotOffered,
}

/// The cause of the first predicate of `applies` that does not hold (`None` when all do,
/// or one cannot be evaluated).
pub fn first_unmet(applies: &[Predicate], context: &Value, resolve: Resolve) -> Option<SkipCause> {
    let unmet = applies
        .iter()
        .find(|p| predicate::evaluate(p, context, resolve).is_ok_and(|verdict| !verdict.holds))?;
    Some(match unmet {
        Predicate::Atom(check) if check.path.starts_with("run.") => SkipCause::RunInput,
        Predicate::Atom(check) if check.optional == Some(true) => SkipCause::NotOffered,
        Predicate::Atom(check) if check.not_contains.is_some() || names_absences(&check.path) => {
            SkipCause::HostHasMore
        }
        _ => SkipCause::HostLacks,
    })
}

/// A fact that lists what the host does *not* take (`openai.undeclaredKinds`): a case
/// that needs its value there is skipped because the host takes it.
fn names_absences(path: &str) -> bool {
    let last = path
        .rsplit(['.', '/'])
        .next()
        .unwrap_or(path)
        .to_ascii_lowercase();
    last.starts_with("undeclared") || last.starts_with("unadvertised")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn preds(v: Value) -> Vec<Predicate> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_first_unmet_predicate_names_the_cause() {
        let context =
            json!({"openwop": {"modalities": ["text", "image"]}, "run": {"mediaBaseUrl": null}});
        let resolve = |name: &str| (name == "m").then(|| json!("image"));
        let lacks = preds(json!([{"path": "openwop.modalities", "contains": "audio"}]));
        assert_eq!(
            first_unmet(&lacks, &context, &resolve),
            Some(SkipCause::HostLacks)
        );
        let has = preds(json!([{"path": "openwop.modalities", "not_contains": "{m}"}]));
        assert_eq!(
            first_unmet(&has, &context, &resolve),
            Some(SkipCause::HostHasMore)
        );
        let optional = preds(json!([
            {"path": "openwop.selfHosted", "equals": true, "optional": true}
        ]));
        let context_without = json!({"openwop": {"selfHosted": false}});
        assert_eq!(
            first_unmet(&optional, &context_without, &resolve),
            Some(SkipCause::NotOffered)
        );
        let user = preds(json!([
            {"path": "openwop.modalities", "contains": "{m}"},
            {"path": "run.mediaBaseUrl", "exists": true}
        ]));
        assert_eq!(
            first_unmet(&user, &context, &resolve),
            Some(SkipCause::RunInput)
        );
        let absent = preds(json!([{"path": "openai.undeclaredKinds", "contains": "image"}]));
        let context = json!({"openai": {"undeclaredKinds": []}});
        assert_eq!(
            first_unmet(&absent, &context, &resolve),
            Some(SkipCause::HostHasMore)
        );
        let context = json!({"openwop": {"modalities": ["text", "image"]}});
        let met = preds(json!([{"path": "openwop.modalities", "contains": "{m}"}]));
        assert_eq!(first_unmet(&met, &context, &resolve), None);
    }
}
