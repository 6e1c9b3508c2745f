//! When a request is sent again: only when the host never answered (the connection
//! failed or closed before a response), or answered 429/503 with `Retry-After`. Never
//! because of what an answer said: a wrong answer is a verdict, and asking again until
//! it looks right would hide it. Every retry is recorded on the exchange, and a case
//! that needed one is counted as flaky.

use std::time::{Duration, SystemTime};

/// The longest `Retry-After` mmconform honours; a host asking for more is unavailable.
pub const MAX_RETRY_WAIT: Duration = Duration::from_secs(10);

/// The wait before the first retry after a transport failure; it doubles each time.
pub const TRANSPORT_BACKOFF: Duration = Duration::from_millis(250);

/// Whether a status means "ask again later" when it carries `Retry-After`.
pub fn is_retry_later(status: u16) -> bool {
    matches!(status, 429 | 503)
}

/// Reads `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The wait before transport retry number `retry` (0-based).
pub fn transport_backoff(retry: u32) -> Duration {
    TRANSPORT_BACKOFF.saturating_mul(1 << retry.min(6))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_takes_seconds_or_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
        assert_eq!(parse_retry_after(" 1 ", now), Some(Duration::from_secs(1)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(parse_retry_after(&later, now), Some(Duration::from_secs(7)));
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(7));
        assert_eq!(parse_retry_after(&earlier, now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("-1", now), None);
    }

    #[test]
    fn backoff_doubles_and_stays_bounded() {
        assert_eq!(transport_backoff(0), Duration::from_millis(250));
        assert_eq!(transport_backoff(1), Duration::from_millis(500));
        assert_eq!(transport_backoff(60), transport_backoff(6));
        assert!(is_retry_later(429) && is_retry_later(503) && !is_retry_later(500));
    }
}
