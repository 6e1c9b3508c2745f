//! Reading a request body under a byte cap, as the reference hosts do
//! (`crates/reference-hosts/src/body_limit.rs`): axum's own 2 MiB limit is disabled so
//! the configured cap is the one enforced, and an over-cap body is drained (up to a
//! bound) before the 413, so the client reads the answer instead of a reset.

use axum::body::{Body, HttpBody};
use std::future::poll_fn;
use std::pin::Pin;

/// How much of an over-cap body is read and thrown away before answering anyway.
const DRAIN_ALLOWANCE: u64 = 64 * 1024 * 1024;

#[derive(Debug, PartialEq, Eq)]
pub enum BodyError {
    /// More than the cap arrived; `received` bytes were read before giving up.
    TooLarge { cap: u64, received: u64 },
    /// The connection failed mid-body.
    Transport { received: u64, why: String },
}

/// Reads all of `body`, keeping at most `cap` bytes.
pub async fn read_capped(mut body: Body, cap: u64) -> Result<Vec<u8>, BodyError> {
    let mut kept = Vec::new();
    let mut received: u64 = 0;
    while let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(|e| BodyError::Transport {
            received,
            why: e.to_string(),
        })?;
        let Ok(data) = frame.into_data() else {
            continue; // trailers carry no body bytes
        };
        received = received.saturating_add(data.len() as u64);
        if received <= cap {
            kept.extend_from_slice(&data);
        } else {
            // Over the cap: free what was kept at once, then only count.
            kept = Vec::new();
            if received > cap.saturating_add(DRAIN_ALLOWANCE) {
                break;
            }
        }
    }
    if received > cap {
        return Err(BodyError::TooLarge { cap, received });
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_cap_is_read_and_over_cap_is_refused_with_the_count() {
        let body = Body::from(vec![b'x'; 10]);
        assert_eq!(read_capped(body, 10).await.unwrap().len(), 10);
        let body = Body::from(vec![b'x'; 11]);
        assert_eq!(
            read_capped(body, 10).await,
            Err(BodyError::TooLarge {
                cap: 10,
                received: 11
            })
        );
    }
}
