//! Errors at major 2 (openwop `spec/v2/core/errors.md`): a host answers with a code of
//! the v2 registry and that code's registered status, in the closed envelope
//! `{error, message, details?}`. The v1 rules decide WHETHER to refuse; this module only
//! spells the refusal for a v2 request. The v2 registry has no `unsupported_modality`
//! and no `invalid_request`: an unadvertised modality is `capability_not_provided`
//! (422, host-services.md §aiProviders), a shape error `validation_error` (400), a url
//! the SSRF guard refuses `egress_denied` (403, `details.reason: ssrf-blocked`).

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::error_body::{ErrorCode, Rejection};
use super::source::SSRF_BLOCKED;
use super::{Fault, ReferenceConfig};

/// The v2 code for a refusal the v1 rules made (a fault may keep a wrong one).
fn v2_code(config: &ReferenceConfig, rejection: &Rejection) -> ErrorCode {
    let detail = |key: &str| rejection.details.as_ref().and_then(|d| d.get(key));
    let ssrf = detail("reason").and_then(Value::as_str) == Some(SSRF_BLOCKED);
    let part_cap = detail("maxBytesPerPart").is_some();
    match rejection.code {
        ErrorCode::UnsupportedModality if config.faulted(Fault::V2RefusalValidationError) => {
            ErrorCode::ValidationError
        }
        ErrorCode::UnsupportedModality => ErrorCode::CapabilityNotProvided,
        // Unregistered at v2: a provider the host cannot serve is not provided.
        ErrorCode::ProviderNotConfigured => ErrorCode::CapabilityNotProvided,
        ErrorCode::InvalidRequest if config.faulted(Fault::V2LegacyErrorCodes) => {
            ErrorCode::InvalidRequest
        }
        ErrorCode::InvalidRequest if ssrf => ErrorCode::EgressDenied,
        ErrorCode::InvalidRequest if config.faulted(Fault::V2ShapeCapabilityCode) => {
            ErrorCode::CapabilityNotProvided
        }
        ErrorCode::InvalidRequest => ErrorCode::ValidationError,
        ErrorCode::PayloadTooLarge if part_cap && config.faulted(Fault::V2PartTooLarge) => {
            ErrorCode::PartTooLarge
        }
        other => other,
    }
}

/// The refusal as a v2 host sends it.
pub fn respond(config: &ReferenceConfig, rejection: Rejection) -> Response {
    let code = v2_code(config, &rejection);
    let status =
        if code == ErrorCode::CapabilityNotProvided && config.faulted(Fault::V2RefusalStatus400) {
            StatusCode::BAD_REQUEST
        } else {
            code.status()
        };
    let v2 = Rejection { code, ..rejection };
    let mut body = v2.body(config.faulted(Fault::NestedErrorBody));
    if config.faulted(Fault::V2ErrorExtraMember)
        && let Some(map) = body.as_object_mut()
    {
        map.insert("status".into(), json!(status.as_u16()));
    }
    let mut response = (status, Json(body)).into_response();
    if code == ErrorCode::Unauthenticated {
        // The same RFC 6750 header a v1 answer carries.
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn answer(fault: Option<Fault>, rejection: Rejection) -> (u16, Value) {
        let config = ReferenceConfig {
            fault,
            ..ReferenceConfig::default()
        };
        let response = respond(&config, rejection);
        let status = response.status().as_u16();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    #[tokio::test]
    async fn v1_codes_become_registered_ones() {
        let modality = || Rejection::new(ErrorCode::UnsupportedModality, "no audio");
        let (status, body) = answer(None, modality()).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (422, Some("capability_not_provided"))
        );
        let (status, body) = answer(None, Rejection::new(ErrorCode::InvalidRequest, "bad")).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("validation_error"))
        );
        let ssrf = Rejection::new(ErrorCode::InvalidRequest, "loopback")
            .with_detail("reason", SSRF_BLOCKED);
        let (status, body) = answer(None, ssrf).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (403, Some("egress_denied"))
        );
        assert_eq!(body["details"]["reason"], SSRF_BLOCKED);
        let keys: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["error", "message", "details"]);
    }

    #[tokio::test]
    async fn each_v2_fault_breaks_its_one_rule() {
        let modality = || Rejection::new(ErrorCode::UnsupportedModality, "no audio");
        let (status, body) = answer(Some(Fault::V2RefusalStatus400), modality()).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("capability_not_provided"))
        );
        let (status, body) = answer(Some(Fault::V2RefusalValidationError), modality()).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("validation_error"))
        );
        let bad = Rejection::new(ErrorCode::InvalidRequest, "bad");
        let (_, body) = answer(Some(Fault::V2LegacyErrorCodes), bad).await;
        assert_eq!(body["error"], "invalid_request");
        let (_, body) = answer(Some(Fault::V2ErrorExtraMember), modality()).await;
        assert_eq!(body["status"], 422);
        let (status, body) = answer(
            Some(Fault::V2ShapeCapabilityCode),
            Rejection::new(ErrorCode::InvalidRequest, "no source"),
        )
        .await;
        assert_eq!(
            (status, body["error"].as_str()),
            (422, Some("capability_not_provided"))
        );
        let ssrf = Rejection::new(ErrorCode::InvalidRequest, "loopback")
            .with_detail("reason", SSRF_BLOCKED);
        let (_, body) = answer(Some(Fault::V2ShapeCapabilityCode), ssrf).await;
        assert_eq!(body["error"], "egress_denied");
        let over = || {
            Rejection::new(ErrorCode::PayloadTooLarge, "over the cap")
                .with_detail("maxBytesPerPart", 2048)
        };
        let (status, body) = answer(Some(Fault::V2PartTooLarge), over()).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (413, Some("part_too_large"))
        );
        let (_, body) = answer(None, over()).await;
        assert_eq!(body["error"], "payload_too_large");
        let body_cap = Rejection::new(ErrorCode::PayloadTooLarge, "request body too large");
        let (_, body) = answer(Some(Fault::V2PartTooLarge), body_cap).await;
        assert_eq!(body["error"], "payload_too_large");
    }
}
