//! Reading a request body under a byte cap.
//!
//! axum's default 2 MiB extractor limit would refuse bodies a host configured to accept,
//! so the router disables it and the seam reads the raw body here instead: the cap is
//! `maxRequestBodyBytes` when configured (the advertised limit is the enforced one),
//! else [`DEFAULT_CAP`] so an unconfigured host still cannot be made to buffer without
//! bound.

use std::future::poll_fn;
use std::pin::Pin;

use axum::body::{Body, HttpBody};

/// The cap when `max_request_body_bytes` is not configured.
pub const DEFAULT_CAP: u64 = 64 * 1024 * 1024;

/// How much of an over-cap body is still read and discarded before answering 413.
/// Answering while the client is still sending makes many clients see a reset instead
/// of the 413, which would turn a clean verdict into "transport loss".
const DRAIN_ALLOWANCE: u64 = 64 * 1024 * 1024;

#[derive(Debug, PartialEq, Eq)]
pub enum BodyError {
    /// More than the cap arrived.
    TooLarge { cap: u64 },
    /// The connection failed mid-body.
    Transport(String),
}

/// Reads all of `body`, refusing more than `cap` bytes.
pub async fn read_capped(body: Body, cap: u64) -> Result<Vec<u8>, BodyError> {
    let mut buffer = Vec::new();
    consume(body, cap, Some(&mut buffer)).await?;
    Ok(buffer)
}

/// Reads and discards `body` (bounded like [`read_capped`]), for answers that do not
/// need it (a 401) but should still be read by the client rather than lost to a reset.
pub async fn drain(body: Body, cap: u64) {
    let _ = consume(body, cap, None).await;
}

/// Reads `body` frame by frame, keeping up to `cap` bytes in `keep` (when given), then
/// discarding up to [`DRAIN_ALLOWANCE`] more before giving up.
async fn consume(
    mut body: Body,
    cap: u64,
    mut keep: Option<&mut Vec<u8>>,
) -> Result<(), BodyError> {
    let mut received: u64 = 0;
    while let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(|err| BodyError::Transport(err.to_string()))?;
        let Ok(data) = frame.into_data() else {
            continue; // trailers carry no body bytes
        };
        received = received.saturating_add(data.len() as u64);
        if received <= cap {
            if let Some(buffer) = keep.as_deref_mut() {
                buffer.extend_from_slice(&data);
            }
        } else if received > cap.saturating_add(DRAIN_ALLOWANCE) {
            break;
        }
    }
    if received > cap {
        return Err(BodyError::TooLarge { cap });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_cap_is_read_and_over_cap_is_refused() {
        let body = Body::from(vec![b'x'; 10]);
        assert_eq!(read_capped(body, 10).await.unwrap().len(), 10);
        let body = Body::from(vec![b'x'; 11]);
        assert_eq!(
            read_capped(body, 10).await,
            Err(BodyError::TooLarge { cap: 10 })
        );
    }
}
