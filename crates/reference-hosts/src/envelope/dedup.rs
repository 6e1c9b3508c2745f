//! Stage 2, correlation dedup: an envelope seen before (same correlationId and
//! envelopeId) gets its first outcome back unchanged, so a retried delivery is an
//! idempotent replay rather than a second decision (a second decision could differ,
//! e.g. after a counter moved).

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use super::outcome::Outcome;

/// How many decisions are remembered. The reference host is long-lived under `serve`,
/// so the map must not grow without bound; past this, the oldest are forgotten first.
const REMEMBERED: usize = 4096;

type Key = (String, String);

#[derive(Debug, Default)]
struct Seen {
    outcomes: HashMap<Key, Outcome>,
    order: VecDeque<Key>,
}

/// The accept seam's memory, shared by every request to one host.
#[derive(Debug, Default)]
pub struct EnvelopeState {
    seen: Mutex<Seen>,
}

/// The dedup key of an envelope; `None` when either id is not a string (only possible
/// for an envelope that failed stage 1, which is never remembered).
pub fn key(envelope: &Value) -> Option<Key> {
    let id = |field: &str| envelope.get(field)?.as_str().map(str::to_owned);
    Some((id("correlationId")?, id("envelopeId")?))
}

impl EnvelopeState {
    /// The remembered outcome for `key`, or `decide()`'s, remembered. The lock is held
    /// while deciding (every stage is pure and quick) so two concurrent deliveries of
    /// one envelope cannot both decide.
    pub fn replay_or(&self, key: Key, decide: impl FnOnce() -> Outcome) -> Outcome {
        // A poisoned lock only means another request panicked mid-insert; the map is
        // still a valid map, so keep serving.
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(first) = seen.outcomes.get(&key) {
            return first.clone();
        }
        let outcome = decide();
        if seen.order.len() >= REMEMBERED
            && let Some(oldest) = seen.order.pop_front()
        {
            seen.outcomes.remove(&oldest);
        }
        seen.order.push_back(key.clone());
        seen.outcomes.insert(key, outcome.clone());
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    fn accepted(trust: &str) -> Outcome {
        let mut meta = Map::new();
        meta.insert("contentTrust".into(), json!(trust));
        Outcome::Accepted {
            normalized_meta: meta,
        }
    }

    fn k(c: &str, e: &str) -> Key {
        (c.to_owned(), e.to_owned())
    }

    #[test]
    fn a_repeat_replays_the_first_outcome() {
        let state = EnvelopeState::default();
        assert_eq!(
            state.replay_or(k("c", "e"), || accepted("trusted")),
            accepted("trusted")
        );
        let replay = state.replay_or(k("c", "e"), || panic!("must not decide again"));
        assert_eq!(replay, accepted("trusted"));
        // Either id differing is a different envelope.
        assert_eq!(
            state.replay_or(k("c", "e2"), || accepted("untrusted")),
            accepted("untrusted")
        );
        assert_eq!(
            state.replay_or(k("c2", "e"), || accepted("untrusted")),
            accepted("untrusted")
        );
    }

    #[test]
    fn memory_is_bounded_oldest_first() {
        let state = EnvelopeState::default();
        for i in 0..=REMEMBERED {
            state.replay_or(k("c", &i.to_string()), || accepted("trusted"));
        }
        assert_eq!(state.seen.lock().unwrap().outcomes.len(), REMEMBERED);
        // The first was forgotten, so it is decided afresh; the newest is replayed.
        assert_eq!(
            state.replay_or(k("c", "0"), || accepted("untrusted")),
            accepted("untrusted")
        );
        let newest = REMEMBERED.to_string();
        assert_eq!(
            state.replay_or(k("c", &newest), || accepted("untrusted")),
            accepted("trusted")
        );
    }

    #[test]
    fn keys_need_both_string_ids() {
        assert_eq!(
            key(&json!({"correlationId": "c", "envelopeId": "e"})),
            Some(k("c", "e"))
        );
        assert_eq!(key(&json!({"correlationId": "c", "envelopeId": 1})), None);
        assert_eq!(key(&json!({"envelopeId": "e"})), None);
    }
}
