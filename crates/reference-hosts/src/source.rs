//! Where a non-text part's bytes come from: exactly one of `url`, `mediaRef` or `data`
//! (RFC 0091 §A), each checked on its own terms.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value};

use super::error_body::{ErrorCode, Rejection};
use super::media_ref::{KNOWN_BLOB_BYTES, known_media_ref};
use super::ssrf::{Guard, UrlProblem, check_url_with};
use super::{Fault, ReferenceConfig};

/// The source keys, in the order they are reported. `dataBase64` is the official
/// suite's spelling of `data` (docs/wire.md, "Content parts") and counts as the same kind of source,
/// so a part carrying both `data` and `dataBase64` has two sources.
const SOURCE_KEYS: [&str; 4] = ["url", "mediaRef", "data", "dataBase64"];

/// One source as found on the part: its key and its string value.
pub type Source<'a> = (&'static str, &'a str);

/// Finds the part's sources and enforces "exactly one". A key whose value is `null`
/// counts as absent, because JSON encoders commonly emit unset optionals that way.
pub fn collect<'a>(
    config: &ReferenceConfig,
    part: &'a Map<String, Value>,
    path: &str,
) -> Result<Vec<Source<'a>>, Rejection> {
    let mut sources = Vec::new();
    for key in SOURCE_KEYS {
        match part.get(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(value)) => sources.push((key, value.as_str())),
            Some(_) => {
                return Err(Rejection::new(
                    ErrorCode::InvalidRequest,
                    format!("{path}.{key} must be a string"),
                )
                .at(path));
            }
        }
    }
    let keys: Vec<&str> = sources.iter().map(|(key, _)| *key).collect();
    if sources.is_empty() && !config.faulted(Fault::AcceptsMissingSource) {
        return Err(Rejection::new(
            ErrorCode::InvalidRequest,
            format!("{path} needs exactly one of url, mediaRef or data; it has none"),
        )
        .at(path));
    }
    if sources.len() > 1 && !config.faulted(Fault::AcceptsTwoSources) {
        return Err(Rejection::new(
            ErrorCode::InvalidRequest,
            format!(
                "{path} needs exactly one of url, mediaRef or data; it has {}",
                keys.join(" and ")
            ),
        )
        .at(path)
        .with_detail("sources", keys));
    }
    Ok(sources)
}

/// `value`, or under the lax-base64 fault what Python's default decoder reads of it:
/// every character outside the alphabet skipped (RFC 4648 §3.3 says to reject them).
fn lax_base64(config: &ReferenceConfig, value: &str) -> String {
    if !config.faulted(Fault::LaxBase64) {
        return value.to_string();
    }
    value
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
        .collect()
}

/// Inline bytes are the type their `mimeType` says, when their signature names one (a
/// WAV file said to be image/png is refused: the model would read garbage).
pub fn check_declared(
    config: &ReferenceConfig,
    mime: &str,
    key: &str,
    value: &str,
    path: &str,
) -> Result<(), Rejection> {
    let Ok(bytes) = STANDARD.decode(lax_base64(config, value)) else {
        return Ok(());
    };
    let Some(sniffed) = mmconform_media::sniff_mime(&bytes) else {
        return Ok(());
    };
    let canonical = mmconform_media::canonical_mime;
    if canonical(mime) == canonical(sniffed) || config.faulted(Fault::AcceptsMismatchedMime) {
        return Ok(());
    }
    Err(Rejection::new(
        ErrorCode::InvalidRequest,
        format!("{path}.{key} is {sniffed}, not the {mime} its mimeType says"),
    )
    .at(path))
}

/// Checks one source of a part whose modality is `modality` (canonical name).
pub fn check(
    config: &ReferenceConfig,
    modality: &str,
    (key, value): Source<'_>,
    path: &str,
) -> Result<(), Rejection> {
    let invalid =
        |message: String| Err(Rejection::new(ErrorCode::InvalidRequest, message).at(path));
    match key {
        "data" | "dataBase64" => match STANDARD.decode(lax_base64(config, value)) {
            Ok(bytes) => check_size(config, bytes.len() as u64, path),
            // Under the fault the size is unknowable, so the cap is not applied either.
            Err(_) if config.faulted(Fault::AcceptsInvalidBase64) => Ok(()),
            Err(err) => invalid(format!(
                "{path}.{key} is not valid standard (padded) base64: {err}"
            )),
        },
        "mediaRef" => {
            if config.faulted(Fault::RejectsMediaRef) {
                return invalid(format!("{path}.mediaRef is not supported"));
            }
            let known = known_media_ref(modality) == Some(value);
            if !known && !config.faulted(Fault::AcceptsUnknownMediaRef) {
                return invalid(format!(
                    "unknown mediaRef `{value}` at {path}: this host issued no such {modality} blob"
                ));
            }
            check_size(config, KNOWN_BLOB_BYTES, path)
        }
        _ => {
            if config.faulted(Fault::RejectsUrlSource) {
                return invalid(format!("{path}.url is not supported"));
            }
            // The fault takes any absolute URL, whatever its scheme (still never opened).
            let other_scheme =
                url::Url::parse(value).is_ok_and(|u| !matches!(u.scheme(), "http" | "https"));
            if config.faulted(Fault::AcceptsNonHttpUrl) && other_scheme {
                return Ok(());
            }
            let guard = if config.faulted(Fault::AcceptsLoopbackUrl) {
                Guard::Off
            } else if config.faulted(Fault::AcceptsMappedHex) {
                Guard::DottedMappedOnly
            } else if config.faulted(Fault::AcceptsNat64Loopback) {
                Guard::NoEmbeddedPrefixes
            } else {
                Guard::Full
            };
            match check_url_with(value, guard) {
                // Accepted WITHOUT fetching: the reference host never makes outbound
                // requests (it must be safe to run anywhere, offline, in CI), and a
                // fetch would make its verdict depend on somebody else's server.
                Ok(_) => Ok(()),
                Err(UrlProblem::Malformed(why)) => {
                    invalid(format!("{path}.url must be an absolute http(s) URL: {why}"))
                }
                Err(UrlProblem::Blocked(why)) => Err(Rejection::new(
                    ErrorCode::InvalidRequest,
                    format!("{path}.url refused by the SSRF guard: {why}"),
                )
                .at(path)
                // What the v2 registry's `egress_denied` carries (host-services.md
                // §httpClient); at major 2 `v2_errors.rs` answers with that code.
                .with_detail("reason", SSRF_BLOCKED)),
            }
        }
    }
}

/// `details.reason` of a url part the SSRF guard refused.
pub const SSRF_BLOCKED: &str = "ssrf-blocked";

/// Applies `maxBytesPerPart` (when configured) to a part of `bytes` bytes.
fn check_size(config: &ReferenceConfig, bytes: u64, path: &str) -> Result<(), Rejection> {
    let Some(max) = config.max_bytes_per_part else {
        return Ok(());
    };
    if config.faulted(Fault::IgnoresMaxBytesPerPart) {
        return Ok(());
    }
    let too_large = if config.faulted(Fault::OffByOneLimit) {
        bytes >= max
    } else {
        bytes > max
    };
    if too_large {
        return Err(Rejection::new(
            ErrorCode::PayloadTooLarge,
            format!("{path} is {bytes} bytes; maxBytesPerPart is {max}"),
        )
        .at(path)
        .with_detail("bytes", bytes)
        .with_detail("maxBytesPerPart", max));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn part(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn exactly_one_source() {
        let cfg = ReferenceConfig::default();
        let one = part(json!({"data": "AA==", "url": null}));
        assert_eq!(collect(&cfg, &one, "p").unwrap(), [("data", "AA==")]);
        let none = part(json!({}));
        assert!(
            collect(&cfg, &none, "p")
                .unwrap_err()
                .message
                .contains("none")
        );
        let two = part(json!({"data": "AA==", "dataBase64": "AA=="}));
        assert_eq!(
            collect(&cfg, &two, "p").unwrap_err().code,
            ErrorCode::InvalidRequest
        );
        let number = part(json!({"url": 7}));
        assert_eq!(
            collect(&cfg, &number, "p").unwrap_err().code,
            ErrorCode::InvalidRequest
        );
    }

    #[test]
    fn size_cap_is_inclusive() {
        let cfg = ReferenceConfig {
            max_bytes_per_part: Some(3),
            ..ReferenceConfig::default()
        };
        assert!(check(&cfg, "image", ("data", "AAAA"), "p").is_ok()); // 3 bytes
        let err = check(&cfg, "image", ("data", "AAAAAA=="), "p").unwrap_err(); // 4 bytes
        assert_eq!(err.code, ErrorCode::PayloadTooLarge);
        let uncapped = ReferenceConfig {
            max_bytes_per_part: None,
            ..cfg
        };
        assert!(check(&uncapped, "image", ("data", "AAAAAA=="), "p").is_ok());
    }
}
