//! Sending while the probes are in flight (`ProtocolRun::send_while_probing`): the
//! cases go out as soon as the plan is known, and each one, once sent, waits for the
//! probes' findings. A case on an endpoint the probes found unusable is then blocked
//! with their reason (`runner::verdict`), as it would have been without being sent:
//! its exchange stays in the record (it happened), its answer is not judged.

use crate::http::HttpClient;
use crate::outcome::Outcome;
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

/// Waits for the probes and returns their verdict on `endpoint` when they found it
/// unusable (`runner::verdict` then blocks the case with it). A gate dropped unopened
/// (the run ended first) finds nothing: the ledger's own stop handling decides what an
/// unfinished run reports.
pub async fn probe_finding(
    mut wait: ProbeWait,
    endpoint: Option<&str>,
) -> Option<(Outcome, String)> {
    let found = wait.wait_for(Option::is_some).await.ok()?;
    let probed = found.as_ref()?;
    endpoint.and_then(|e| probed.unusable.get(e)).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_endpoint_the_probe_found_missing_gives_its_verdict() {
        let gate = ProbeGate::default();
        let wait = gate.wait();
        let mut probed = Probed::default();
        probed.unusable.insert(
            "ai-call".into(),
            (Outcome::Blocked, "seam POST /ai/call answered 404".into()),
        );
        let waiting = tokio::spawn(async move { probe_finding(wait, Some("ai-call")).await });
        gate.open(probed);
        assert_eq!(
            waiting.await.unwrap(),
            Some((Outcome::Blocked, "seam POST /ai/call answered 404".into()))
        );
    }

    #[tokio::test]
    async fn a_usable_endpoint_gives_nothing() {
        let gate = ProbeGate::default();
        let wait = gate.wait();
        gate.open(Probed::default());
        assert_eq!(probe_finding(wait, Some("ai-call")).await, None);
    }

    #[tokio::test]
    async fn a_gate_dropped_unopened_gives_nothing() {
        let gate = ProbeGate::default();
        let wait = gate.wait();
        drop(gate);
        assert_eq!(probe_finding(wait, Some("ai-call")).await, None);
    }
}
