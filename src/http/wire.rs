//! Every request the run sent, in the order sent: what the JSON report lists under
//! `requests`, so the evidence matches the wire (seam probes and retries included).
//! Cases cite their request by its sequence number.

use crate::event::WireEntry;
use std::sync::Mutex;

/// Requests listed at most; a run is not expected to come near it (each case sends
/// one request, retried at most five times), but a report must stay bounded.
const MAX_ENTRIES: usize = 100_000;

#[derive(Debug, Default)]
pub struct WireLog {
    entries: Mutex<Vec<WireEntry>>,
}

impl WireLog {
    /// Records a request about to be sent; returns its sequence number (from 1).
    pub fn begin(&self, method: &str, url: &str, purpose: &str) -> u64 {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let seq = entries.len() as u64 + 1;
        if entries.len() < MAX_ENTRIES {
            entries.push(WireEntry {
                seq,
                method: method.to_string(),
                url: url.to_string(),
                purpose: purpose.to_string(),
                status: None,
                failure: None,
            });
        }
        seq
    }

    /// What became of request `seq`: the status that answered it, or why none did.
    pub fn end(&self, seq: u64, status: Option<u16>, failure: Option<String>) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = entries.get_mut(seq as usize - 1) {
            entry.status = status;
            entry.failure = failure;
        }
    }

    /// Every request so far, in the order sent.
    pub fn entries(&self) -> Vec<WireEntry> {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_numbered_in_the_order_sent() {
        let log = WireLog::default();
        let a = log.begin("GET", "http://h/x", "discovery");
        let b = log.begin("POST", "http://h/y", "case-1");
        log.end(b, None, Some("refused".into()));
        log.end(a, Some(200), None);
        let entries = log.entries();
        assert_eq!((a, b), (1, 2));
        assert_eq!(entries[0].status, Some(200));
        assert_eq!(entries[1].failure.as_deref(), Some("refused"));
        assert_eq!(entries[1].purpose, "case-1");
    }
}
