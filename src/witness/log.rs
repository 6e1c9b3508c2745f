//! The shared, bounded log of calls, and waiting for a call to arrive.
//!
//! The first `max_calls` calls are kept (a run judges cases in order, so the oldest are
//! the ones still to be read); later calls are counted as dropped until a reader
//! releases what it has judged ([`CallLog::forget_through`]). Every call takes a
//! sequence number, kept or not, so a gap shows.

use super::record::ModelCall;
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::watch;

pub struct CallLog {
    max_calls: usize,
    inner: Mutex<Inner>,
    /// The last sequence number recorded; waiters watch it change.
    latest: watch::Sender<u64>,
}

#[derive(Default)]
struct Inner {
    calls: VecDeque<ModelCall>,
    next_seq: u64,
    dropped: u64,
}

impl CallLog {
    pub fn new(max_calls: usize) -> CallLog {
        CallLog {
            max_calls,
            inner: Mutex::new(Inner {
                next_seq: 1,
                ..Inner::default()
            }),
            latest: watch::Sender::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a half-written entry (each
        // change is one push or pop), so a poisoned log is still usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the next sequence number.
    pub fn next_seq(&self) -> u64 {
        let mut inner = self.lock();
        let seq = inner.next_seq;
        inner.next_seq += 1;
        seq
    }

    /// Keeps `call` if there is room (else counts it as dropped), and wakes waiters.
    pub fn push(&self, call: ModelCall) {
        let seq = call.seq;
        {
            let mut inner = self.lock();
            if inner.calls.len() < self.max_calls {
                // Calls finish decoding out of order; keep the log sorted by number.
                let at = inner.calls.partition_point(|c| c.seq < seq);
                inner.calls.insert(at, call);
            } else {
                inner.dropped += 1;
            }
        }
        self.latest
            .send_modify(|latest| *latest = (*latest).max(seq));
    }

    /// Kept calls numbered above `seq`, in order.
    pub fn since(&self, seq: u64) -> Vec<ModelCall> {
        let inner = self.lock();
        let from = inner.calls.partition_point(|c| c.seq <= seq);
        inner.calls.range(from..).cloned().collect()
    }

    /// Kept calls carrying `nonce`, in order.
    pub fn carrying(&self, nonce: &str) -> Vec<ModelCall> {
        let inner = self.lock();
        inner
            .calls
            .iter()
            .filter(|c| c.carries(nonce))
            .cloned()
            .collect()
    }

    /// Releases the calls numbered up to `seq`, making room for new ones.
    pub fn forget_through(&self, seq: u64) {
        let mut inner = self.lock();
        while inner.calls.front().is_some_and(|c| c.seq <= seq) {
            inner.calls.pop_front();
        }
    }

    /// Releases the calls carrying `nonce` (one case's, judged), wherever they are in
    /// the log: cases finish out of order.
    pub fn forget_carrying(&self, nonce: &str) {
        self.lock().calls.retain(|c| !c.carries(nonce));
    }

    pub fn dropped(&self) -> u64 {
        self.lock().dropped
    }

    #[cfg(test)]
    /// Calls received so far, kept or not.
    pub fn received(&self) -> u64 {
        self.lock().next_seq - 1
    }

    /// Waits until `found` gives a non-empty list, or `timeout` passes (then returns
    /// what `found` gives at that moment). Cancelled by dropping the future.
    pub async fn wait_until<F>(&self, timeout: Duration, found: F) -> Vec<ModelCall>
    where
        F: Fn(&CallLog) -> Vec<ModelCall>,
    {
        // A timeout too large to add (Duration::MAX) means no deadline.
        let deadline = tokio::time::Instant::now().checked_add(timeout);
        // Subscribe before looking, so a call pushed in between still wakes us.
        let mut changes = self.latest.subscribe();
        loop {
            let calls = found(self);
            if !calls.is_empty() {
                return calls;
            }
            let changed = match deadline {
                Some(at) => tokio::time::timeout_at(at, changes.changed()).await,
                None => Ok(changes.changed().await),
            };
            // Timed out (or the log is gone, which cannot happen while borrowed).
            if !matches!(changed, Ok(Ok(()))) {
                return found(self);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::witness::record::{Part, Wire};
    use std::sync::Arc;

    pub(crate) fn call(seq: u64, stamp: &str) -> ModelCall {
        let mut part = Part::new(Some(0), "user", 0, "/messages/0/content/0".into());
        part.stamps.push(stamp.to_string());
        ModelCall {
            seq,
            wire: Wire::OpenaiChat,
            path: "/v1/chat/completions".into(),
            received_at: String::new(),
            stream: false,
            model: None,
            status: 200,
            body_bytes: 0,
            messages: 1,
            roles: vec!["user".into()],
            parts_total: 1,
            parts: vec![part],
            more_stamps: Vec::new(),
            problems: Vec::new(),
            problems_dropped: 0,
            tool_call: None,
        }
    }

    #[test]
    fn keeps_the_oldest_counts_the_rest_and_frees_room_on_forget() {
        let log = CallLog::new(2);
        for stamp in ["a", "b", "c"] {
            let seq = log.next_seq();
            log.push(call(seq, stamp));
        }
        assert_eq!(log.received(), 3);
        assert_eq!(log.dropped(), 1);
        let seqs: Vec<u64> = log.since(0).iter().map(|c| c.seq).collect();
        assert_eq!(seqs, [1, 2]);
        assert_eq!(log.since(1).len(), 1);
        assert_eq!(log.carrying("b").len(), 1);
        assert!(log.carrying("c").is_empty());
        log.forget_through(1);
        let seq = log.next_seq();
        log.push(call(seq, "d"));
        let seqs: Vec<u64> = log.since(0).iter().map(|c| c.seq).collect();
        assert_eq!(seqs, [2, 4]);
        // One case's calls go, wherever they are; a longer nonce is another case's.
        log.forget_carrying("b");
        let seq = log.next_seq();
        log.push(call(seq, "b-c10"));
        let left: Vec<u64> = log.since(0).iter().map(|c| c.seq).collect();
        assert_eq!(left, [4, 5]);
        log.forget_carrying("b-c1");
        assert_eq!(log.since(0).len(), 2);
        log.forget_carrying("b-c10");
        assert_eq!(log.since(0).len(), 1);
    }

    #[test]
    fn out_of_order_pushes_are_kept_in_number_order() {
        let log = CallLog::new(10);
        let (first, second) = (log.next_seq(), log.next_seq());
        log.push(call(second, "b"));
        log.push(call(first, "a"));
        let seqs: Vec<u64> = log.since(0).iter().map(|c| c.seq).collect();
        assert_eq!(seqs, [1, 2]);
    }

    #[tokio::test]
    async fn waiting_returns_on_arrival_or_after_the_timeout() {
        let log = Arc::new(CallLog::new(10));
        let started = tokio::time::Instant::now();
        let none = log
            .wait_until(Duration::from_millis(50), |l| l.carrying("x"))
            .await;
        assert!(none.is_empty());
        assert!(started.elapsed() >= Duration::from_millis(50));

        let pusher = Arc::clone(&log);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let seq = pusher.next_seq();
            pusher.push(call(seq, "other"));
            tokio::time::sleep(Duration::from_millis(20)).await;
            let seq = pusher.next_seq();
            pusher.push(call(seq, "x-p0"));
        });
        let started = tokio::time::Instant::now();
        let found = log
            .wait_until(Duration::from_secs(30), |l| l.carrying("x"))
            .await;
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].seq, 2);
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
