//! Probing a protocol that sends to one endpoint only (AG-UI's run endpoint, OpenAI's
//! chat completions): one plain call, read the same way whatever the wire.

use super::Probed;
use crate::outcome::Outcome;
use futures_util::future::Future;
use std::collections::BTreeSet;

/// Probes `own` with `probe_own` when a runnable case sends to it, and refuses every
/// other endpoint (a scenario of a different wire) as a tool error.
pub async fn probe(
    endpoints: &BTreeSet<String>,
    own: &str,
    profile: &str,
    probe_own: impl Future<Output = Probed>,
) -> Probed {
    let mut probed = if endpoints.contains(own) {
        probe_own.await
    } else {
        Probed::default()
    };
    super::refuse_other_endpoints(&mut probed, endpoints, &[own], profile);
    probed
}

/// What the probe's answer says about `own` at `url`: no answer at all is the target
/// unreachable (exit 4, and the cases blocked); a 404 or 405 blocks the cases, with
/// `hint` asking whether the target is what the protocol expects; any other status is
/// an endpoint that is there.
pub fn from_status(own: &str, url: &str, status: Result<u16, &str>, hint: &str) -> Probed {
    let mut probed = Probed::default();
    let reason = match status {
        Err(e) => {
            let reason = format!("POST {url} got no answer: {e}");
            probed.problem = Some(reason.clone());
            reason
        }
        Ok(status @ (404 | 405)) => format!("POST {url} answered {status}: {hint}"),
        Ok(_) => return probed,
    };
    probed
        .unusable
        .insert(own.to_string(), (Outcome::Blocked, reason));
    probed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_answer_is_unreachable_404_and_405_block_and_any_other_status_is_there() {
        let none = from_status("e", "http://h/x", Err("refused"), "hint?");
        assert_eq!(
            none.problem.as_deref(),
            Some("POST http://h/x got no answer: refused")
        );
        assert_eq!(none.unusable["e"].0, Outcome::Blocked);
        for status in [404, 405] {
            let missing = from_status("e", "http://h/x", Ok(status), "hint?");
            assert!(missing.problem.is_none());
            assert_eq!(
                missing.unusable["e"],
                (
                    Outcome::Blocked,
                    format!("POST http://h/x answered {status}: hint?")
                )
            );
        }
        for status in [200, 400, 500] {
            let there = from_status("e", "http://h/x", Ok(status), "hint?");
            assert!(there.problem.is_none() && there.unusable.is_empty());
        }
    }
}
