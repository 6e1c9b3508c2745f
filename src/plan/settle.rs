//! Settling the plan: after the protocol has discovered and probed, every planned case
//! gets its final disposition here, so the executor only executes. A case is decided
//! without a request when it is excluded, skipped or a scenario defect; when it needs a
//! target the run does not have (`--offline`); or when the protocol found the endpoint
//! it sends to unusable (missing, or the target's description unusable).

use super::{Disposition, PlannedCase};
use crate::outcome::Outcome;
use crate::scenario::suite::Suite;
use std::collections::BTreeMap;

/// What probing a run's endpoints found.
#[derive(Default)]
pub struct Probed {
    /// Endpoints whose cases cannot run, with the outcome and reason they get.
    pub unusable: BTreeMap<String, (Outcome, String)>,
    /// The target cannot be reached at all (exit 4).
    pub problem: Option<String>,
}

/// How a planned case will be decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Settled {
    /// Without sending anything, with this outcome and reason.
    Decided(Outcome, String),
    /// Offline: a schema check on a document, no target involved.
    Validate,
    /// By the protocol: its request is sent and the answer judged.
    Send,
}

/// What the run knows before any case is sent.
pub struct Situation<'a> {
    pub offline: bool,
    pub probed: &'a Probed,
    /// Set when the target's own description (discovery) could not be used: the one
    /// reason every case that would have depended on it is blocked with.
    pub unusable: Option<&'a str>,
}

pub fn settle(planned: &PlannedCase, suite: &Suite, situation: &Situation) -> Settled {
    let endpoint = suite.cases[planned.case].spec.endpoint();
    match &planned.disposition {
        Disposition::Excluded(r) => return Settled::Decided(Outcome::Excluded, r.clone()),
        // Offline, a case that needs a target is not evaluated at all: its applicability
        // would be judged against a discovery document that does not exist.
        _ if situation.offline && endpoint.is_some() => {
            return Settled::Decided(
                Outcome::Excluded,
                "needs a target: this is an --offline run".into(),
            );
        }
        // A skip is evidence about the host; without its description there is none.
        Disposition::Skip(_) if endpoint.is_some() && situation.unusable.is_some() => {
            let reason = situation.unusable.unwrap_or_default().to_string();
            return Settled::Decided(Outcome::Blocked, reason);
        }
        Disposition::Skip(r) => return Settled::Decided(Outcome::Skip, r.clone()),
        Disposition::Error(r) => return Settled::Decided(Outcome::Error, r.clone()),
        Disposition::Run => {}
    }
    let Some(endpoint) = endpoint else {
        return Settled::Validate;
    };
    match situation.probed.unusable.get(endpoint) {
        Some((outcome, reason)) => Settled::Decided(*outcome, reason.clone()),
        None => Settled::Send,
    }
}

/// The endpoints the runnable cases send to: what the protocol must probe.
pub fn endpoints(planned: &[PlannedCase], suite: &Suite) -> std::collections::BTreeSet<String> {
    planned
        .iter()
        .filter(|p| p.disposition == Disposition::Run)
        .filter_map(|p| suite.cases[p.case].spec.endpoint())
        .map(str::to_string)
        .collect()
}
