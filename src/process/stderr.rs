//! A process's stderr, kept as evidence: its first `max_bytes`, the count of the rest,
//! read to the end concurrently so a chatty process never blocks on a full pipe.

use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncReadExt};

/// What stderr said, bounded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// The first bytes, as text (non-UTF-8 bytes replaced). Not yet redacted: the
    /// caller's redactor runs over it before it goes anywhere.
    pub text: String,
    /// Bytes read past the kept ones.
    pub dropped: u64,
}

impl Captured {
    /// The kept text, with a note of how much was left out.
    pub fn shown(&self) -> String {
        if self.dropped == 0 {
            self.text.clone()
        } else {
            // `…` marks the cut, where a secret cut in two is still masked.
            format!(
                "{}{}\n[{} more bytes of stderr not kept]",
                self.text,
                crate::redact::CUT,
                self.dropped
            )
        }
    }
}

/// Reads `source` to its end (or until it fails) into `into`, keeping at most
/// `max_bytes`. Shared, so a caller that stops waiting (a process whose children keep
/// stderr open) still has what arrived.
pub async fn capture<R: AsyncRead + Unpin>(
    mut source: R,
    max_bytes: usize,
    into: Arc<Mutex<Captured>>,
) {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match source.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = max_bytes.saturating_sub(kept.len()).min(n);
                kept.extend_from_slice(&chunk[..room]);
                let mut shared = into.lock().unwrap_or_else(|e| e.into_inner());
                shared.text = String::from_utf8_lossy(&kept).into_owned();
                shared.dropped += (n - room) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stderr_past_the_bound_is_counted_not_kept() {
        let into = Arc::new(Mutex::new(Captured::default()));
        capture(&b"0123456789"[..], 4, into.clone()).await;
        let captured = into.lock().unwrap().clone();
        assert_eq!(captured.text, "0123");
        assert_eq!(captured.dropped, 6);
        assert!(
            captured
                .shown()
                .ends_with("[6 more bytes of stderr not kept]")
        );
        let short = Arc::new(Mutex::new(Captured::default()));
        capture(&b"ok"[..], 4, short.clone()).await;
        assert_eq!(short.lock().unwrap().shown(), "ok");
    }
}
