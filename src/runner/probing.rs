//! Sending while the probes are in flight (`ProtocolRun::send_while_probing`): the
//! cases go out as soon as the plan is known, and each one, once sent, waits for the
//! probes' findings. A case on an endpoint the probes found unusable is then blocked
//! with their reason, as it would have been without being sent: its exchange stays in
//! the record (it happened), its answer is not judged.

use crate::http::HttpClient;
use crate::outcome::CaseResult;
use crate::plan::settle::Probed;
use crate::protocol::ProtocolRun;
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::watch;

/// Where the executor publishes what the probes found, once.
pub struct ProbeGate {
    found: watch::Sender<Option<Arc<Probed>>>,
}

/// A sent case's side of the gate.
pub type ProbeWait = watch::Receiver<Option<Arc<Probed>>>;

impl Default for ProbeGate {
    fn default() -> ProbeGate {
        ProbeGate {
            found: watch::Sender::new(None),
        }
    }
}

impl ProbeGate {
    pub fn wait(&self) -> ProbeWait {
        self.found.subscribe()
    }

    /// Publishes the probes' findings to every case waiting, and to any sent later.
    pub fn open(self, probed: Probed) {
        self.found.send_replace(Some(Arc::new(probed)));
    }
}

/// Probes `endpoints` while the sent cases wait at `gate`, opens it with what was
/// found, and returns why the target cannot be reached at all, when it cannot.
pub async fn probe_and_open(
    gate: ProbeGate,
    protocol: &dyn ProtocolRun,
    client: &HttpClient,
    endpoints: &BTreeSet<String>,
    nonce: &str,
) -> Option<String> {
    let probed = protocol.probe(client, endpoints, nonce).await;
    let unreachable = probed.problem.clone();
    gate.open(probed);
    unreachable
}

/// Waits for the probes, then blocks `result` when `endpoint` turned out unusable. A
/// gate dropped unopened (the run ended first) leaves the result as it is: the
/// ledger's own stop handling decides what an unfinished run reports.
pub async fn settle_sent(mut wait: ProbeWait, endpoint: Option<&str>, result: &mut CaseResult) {
    let Ok(found) = wait.wait_for(Option::is_some).await else {
        return;
    };
    let Some(probed) = found.as_ref() else {
        return;
    };
    let Some((outcome, reason)) = endpoint.and_then(|e| probed.unusable.get(e)) else {
        return;
    };
    result.outcome = *outcome;
    result.reason = Some(reason.clone());
    // Nothing of the answer was judged: what judging it said (assertions, stream
    // classification, model calls, notes) goes; the exchange stays, it happened.
    result.assertions.clear();
    result.stream = None;
    result.model_calls = None;
    result.notes = vec![
        "sent while its endpoint was being probed; the probe found it unusable, so the answer is not judged"
            .into(),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;

    fn sent() -> CaseResult {
        let mut result = crate::event_fixtures::cases().remove(0);
        result.outcome = Outcome::Fail;
        result.reason = Some("HTTP 404".into());
        result
    }

    #[tokio::test]
    async fn a_case_on_an_endpoint_the_probe_found_missing_is_blocked_with_its_reason() {
        let gate = ProbeGate::default();
        let wait = gate.wait();
        let mut probed = Probed::default();
        probed.unusable.insert(
            "ai-call".into(),
            (Outcome::Blocked, "seam POST /ai/call answered 404".into()),
        );
        let waiting = tokio::spawn(async move {
            let mut result = sent();
            settle_sent(wait, Some("ai-call"), &mut result).await;
            result
        });
        gate.open(probed);
        let result = waiting.await.unwrap();
        assert_eq!(result.outcome, Outcome::Blocked);
        assert_eq!(
            result.reason.as_deref(),
            Some("seam POST /ai/call answered 404")
        );
        assert!(result.assertions.is_empty());
        assert_eq!(result.notes.len(), 1);
        assert!(result.notes[0].contains("being probed"));
        assert!(
            !result.exchanges.is_empty(),
            "what was sent stays in the record"
        );
    }

    #[tokio::test]
    async fn a_case_on_a_usable_endpoint_keeps_its_verdict() {
        let gate = ProbeGate::default();
        let wait = gate.wait();
        gate.open(Probed::default());
        let mut result = sent();
        settle_sent(wait, Some("ai-call"), &mut result).await;
        assert_eq!(result.outcome, Outcome::Fail);
        assert_eq!(result.reason.as_deref(), Some("HTTP 404"));
    }

    #[tokio::test]
    async fn a_gate_dropped_unopened_leaves_the_result_alone() {
        let gate = ProbeGate::default();
        let wait = gate.wait();
        drop(gate);
        let mut result = sent();
        settle_sent(wait, Some("ai-call"), &mut result).await;
        assert_eq!(result.outcome, Outcome::Fail);
    }
}
