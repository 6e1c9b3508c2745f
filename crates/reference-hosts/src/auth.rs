//! Bearer authentication on the ai/call and envelope accept seams (discovery stays
//! public, docs/wire.md, "Discovery").

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;

use super::error_body::{ErrorCode, Rejection};
use super::{Fault, ReferenceConfig};

/// Ok when no token is configured, or the request carries `Authorization: Bearer <token>`.
///
/// The scheme name is case-insensitive (RFC 9110 §11.1); the token is compared
/// exactly. A plain comparison is fine here: the reference host serves test tokens on
/// loopback, so a timing side channel protects nothing.
pub fn check_auth(config: &ReferenceConfig, headers: &HeaderMap) -> Result<(), Rejection> {
    let Some(expected) = config.token.as_deref() else {
        return Ok(());
    };
    if config.faulted(Fault::IgnoresAuth) {
        return Ok(());
    }
    match presented_bearer(headers) {
        Some(token) if token == expected => Ok(()),
        Some(_) => Err(Rejection::new(
            ErrorCode::Unauthenticated,
            "bearer token is not valid",
        )),
        None => Err(Rejection::new(
            ErrorCode::Unauthenticated,
            "missing `Authorization: Bearer <token>` header",
        )),
    }
}

/// The token of an `Authorization: Bearer <token>` header, if there is one (every
/// reference host reads it the same way).
pub(crate) fn presented_bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(value: Option<&str>) -> HeaderMap {
        let mut map = HeaderMap::new();
        if let Some(value) = value {
            map.insert(AUTHORIZATION, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn no_token_configured_means_open() {
        assert!(check_auth(&ReferenceConfig::default(), &headers(None)).is_ok());
    }

    #[test]
    fn token_is_required_and_compared() {
        let cfg = ReferenceConfig {
            token: Some("s3cret".into()),
            ..ReferenceConfig::default()
        };
        assert!(check_auth(&cfg, &headers(Some("Bearer s3cret"))).is_ok());
        assert!(check_auth(&cfg, &headers(Some("bearer s3cret"))).is_ok());
        for bad in [
            None,
            Some("Bearer nope"),
            Some("Basic s3cret"),
            Some("s3cret"),
            Some("Bearer "),
        ] {
            let err = check_auth(&cfg, &headers(bad)).unwrap_err();
            assert_eq!(err.code, ErrorCode::Unauthenticated, "{bad:?}");
            assert_eq!(err.status().as_u16(), 401);
            assert!(
                !err.message.contains("s3cret"),
                "the token must never be echoed"
            );
        }
    }
}
