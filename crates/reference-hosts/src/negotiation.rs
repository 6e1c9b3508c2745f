//! Which discovery representation a request gets (openwop `spec/v2/core/versioning.md`
//! §1.1-§1.4, `capabilities.md` §1.1). This host serves two majors from one resource:
//! no header (or major 1) gets the v1 document with `protocolVersions` and
//! `preferredVersion` added, `OpenWOP-Version: 2` (or `2.<minor>`) the closed v2 root,
//! any other major `406 protocol_version_unsupported` naming what it serves. Every
//! answer carries an `ETag`; a matching `If-None-Match` gets `304`.

use std::hash::{DefaultHasher, Hash, Hasher};

use axum::Json;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::discovery::{discovery_document, discovery_document_v2};
use super::error_body::{ErrorCode, Rejection};
use super::{Fault, ReferenceConfig};

/// Every `<major>.<minor>` this host serves.
pub const PROTOCOL_VERSIONS: [&str; 2] = ["1.0", "2.0"];
/// Through the overlap the preferred version names a 1.x member (versioning.md §1.1).
pub const PREFERRED_VERSION: &str = "1.0";
/// The request header selecting the major.
pub const VERSION_HEADER: &str = "OpenWOP-Version";

/// The major a discovery request selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requested {
    V1,
    V2,
    /// A major not in `protocolVersions` (or no version at all).
    Unsupported,
}

/// Reads `OpenWOP-Version`: `2` and `2.0` select the same major (§1.3); no header
/// selects `preferredVersion`'s major.
pub fn requested(config: &ReferenceConfig, header: Option<&str>) -> Requested {
    let Some(value) = header.map(str::trim) else {
        return Requested::V1;
    };
    let (major, minor) = match value.split_once('.') {
        Some((major, minor)) => (major, Some(minor)),
        None => (value, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || minor.is_some_and(|m| !digits(m)) {
        return Requested::Unsupported;
    }
    match major {
        "1" => Requested::V1,
        "2" if minor.is_some() && config.faulted(Fault::V2MinorSpellingRefused) => {
            Requested::Unsupported
        }
        "2" => Requested::V2,
        _ if config.faulted(Fault::UnknownMajorServed) => Requested::V1,
        _ => Requested::Unsupported,
    }
}

/// The v1 document with the overlap's version fields.
fn v1_with_versions(config: &ReferenceConfig) -> Value {
    let mut doc = discovery_document(config);
    if !config.faulted(Fault::V1DocumentWithoutVersions)
        && let Some(map) = doc.as_object_mut()
    {
        map.insert("protocolVersions".into(), json!(PROTOCOL_VERSIONS));
        map.insert("preferredVersion".into(), json!(PREFERRED_VERSION));
    }
    doc
}

fn etag(body: &Value) -> String {
    let mut hasher = DefaultHasher::new();
    body.to_string().hash(&mut hasher);
    format!("\"{:016x}\"", hasher.finish())
}

/// The whole discovery answer for a request's headers.
pub fn discovery_response(config: &ReferenceConfig, headers: &HeaderMap) -> Response {
    let header_value = headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok());
    let (document, answered) = match requested(config, header_value) {
        Requested::Unsupported => {
            let mut refusal = Rejection::new(
                ErrorCode::ProtocolVersionUnsupported,
                format!(
                    "OpenWOP-Version `{}` is not served; this host serves {}",
                    header_value.unwrap_or(""),
                    PROTOCOL_VERSIONS.join(", ")
                ),
            );
            if !config.faulted(Fault::UnknownMajorWithoutVersions) {
                refusal = refusal.with_detail("protocolVersions", json!(PROTOCOL_VERSIONS));
            }
            return refusal.into_response(false);
        }
        Requested::V2 if !config.faulted(Fault::V2RequestGetsV1Document) => {
            (discovery_document_v2(config), "2.0")
        }
        _ => (v1_with_versions(config), "1.0"),
    };
    let tag = etag(&document);
    let matched = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let tagged = !config.faulted(Fault::DiscoveryWithoutEtag);
    let mut response = if tagged && matched && !config.faulted(Fault::IgnoresIfNoneMatch) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Json(document).into_response()
    };
    let out = response.headers_mut();
    if tagged && let Ok(value) = HeaderValue::from_str(&tag) {
        out.insert(header::ETAG, value);
    }
    out.insert(header::VARY, HeaderValue::from_static(VERSION_HEADER));
    out.insert(VERSION_HEADER, HeaderValue::from_static(answered));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(fault: Fault) -> ReferenceConfig {
        ReferenceConfig {
            fault: Some(fault),
            ..ReferenceConfig::default()
        }
    }

    #[test]
    fn both_spellings_of_a_major_select_it_and_others_are_refused() {
        let config = ReferenceConfig::default();
        assert_eq!(requested(&config, None), Requested::V1);
        assert_eq!(requested(&config, Some("1")), Requested::V1);
        assert_eq!(requested(&config, Some("1.3")), Requested::V1);
        assert_eq!(requested(&config, Some("2")), Requested::V2);
        assert_eq!(requested(&config, Some(" 2.0 ")), Requested::V2);
        for other in ["99", "3.0", "two", "2.x", ""] {
            assert_eq!(
                requested(&config, Some(other)),
                Requested::Unsupported,
                "{other}"
            );
        }
        let refused = with(Fault::V2MinorSpellingRefused);
        assert_eq!(requested(&refused, Some("2.0")), Requested::Unsupported);
        assert_eq!(requested(&refused, Some("2")), Requested::V2);
        assert_eq!(
            requested(&with(Fault::UnknownMajorServed), Some("99")),
            Requested::V1
        );
    }

    #[test]
    fn the_v1_document_names_both_majors_unless_faulted() {
        let doc = v1_with_versions(&ReferenceConfig::default());
        assert_eq!(doc["protocolVersions"], json!(["1.0", "2.0"]));
        assert_eq!(doc["preferredVersion"], "1.0");
        let bare = v1_with_versions(&with(Fault::V1DocumentWithoutVersions));
        assert!(bare.get("protocolVersions").is_none());
    }

    #[test]
    fn the_tag_follows_the_representation() {
        let config = ReferenceConfig::default();
        assert_ne!(
            etag(&v1_with_versions(&config)),
            etag(&discovery_document_v2(&config))
        );
        assert_eq!(
            etag(&discovery_document_v2(&config)),
            etag(&discovery_document_v2(&config))
        );
    }
}
