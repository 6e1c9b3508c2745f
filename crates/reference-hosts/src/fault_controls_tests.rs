//! Each fault leaves the basics it does not name untouched (the counterpart of
//! `fault_tests.rs`, which proves each fault changes what it names).

use serde_json::json;

use super::test_support::{
    FAITHFUL_DISCOVERY, FAITHFUL_ENVELOPES, Probe, SELF_HOSTED_ENDPOINT, call, plain, png, text,
    user, wav, without_meta,
};
use super::{Fault, ReferenceConfig, spawn};

/// The discovery document, the canonical positive call, the canonical
/// unadvertised-modality refusal, and the envelope seam's plain acceptance and
/// missing-meta refusal; at v2 the root and the refusal's registered code.
#[tokio::test]
async fn controls_are_unchanged() {
    use Fault::*;
    let client = super::test_support::client();
    let positive = call(user(json!([text("what is this?"), png()])));
    let negative = call(user(json!([text("listen"), wav()])));
    for &fault in Fault::all() {
        // Every host has its self-hosted provider configured (RFC 0108), so each fault
        // is also seen to leave that provider served and its endpoint unsaid.
        let config = ReferenceConfig {
            fault: Some(fault),
            compat_endpoint: Some(SELF_HOSTED_ENDPOINT.into()),
            ..ReferenceConfig::default()
        };
        let host = spawn(config, super::test_support::loopback())
            .await
            .unwrap();
        let base = host.base_url();
        let send = |probe| {
            let client = client.clone();
            let base = base.clone();
            async move { super::test_support::send(&client, &base, &probe).await }
        };
        if !matches!(
            fault,
            DiscoveryMissingRequired
                | WrapperOnlyDiscovery
                | OutOfEnumModality
                | V1DocumentWithoutVersions
        ) {
            assert_eq!(
                send(Probe::Discovery).await,
                FAITHFUL_DISCOVERY,
                "{fault}: discovery"
            );
        }
        if !matches!(fault, RejectsAdvertisedModality | SeamMissing) {
            assert_eq!(
                send(positive.clone()).await,
                "200 text,image x2",
                "{fault}: positive"
            );
        }
        let negative_faults = [
            AcceptsUnadvertised,
            SilentlyDropsUnadvertised,
            WrongErrorCode,
            NestedErrorBody,
            SeamMissing,
        ];
        if !negative_faults.contains(&fault) {
            assert_eq!(
                send(negative.clone()).await,
                "400 unsupported_modality",
                "{fault}: negative"
            );
        }
        if !matches!(
            fault,
            DiscoveryMissingUniversalEnvelopes
                | DiscoveryWrongSchemaVersion
                | DiscoveryEnvelopesNotArray
        ) {
            assert_eq!(
                send(Probe::DiscoveryEnvelopes).await,
                FAITHFUL_ENVELOPES,
                "{fault}: discovery envelopes"
            );
        }
        if !matches!(
            fault,
            EnvelopeDefaultUntrusted | EnvelopeSeamMissing | EnvelopeGatesUniversalKinds
        ) {
            assert_eq!(
                send(plain()).await,
                "200 accepted trust=trusted",
                "{fault}: envelope positive"
            );
        }
        let envelope_negative_faults = [
            EnvelopeAcceptsMissingMeta,
            EnvelopeInvalidWithoutDetails,
            EnvelopeHttp400,
            EnvelopeSeamMissing,
        ];
        if !envelope_negative_faults.contains(&fault) {
            assert_eq!(
                send(without_meta()).await,
                "200 invalid details=1",
                "{fault}: envelope negative"
            );
        }
        let v2_discovery_faults = [
            V2RequestGetsV1Document,
            V2RecordKeepsSupported,
            DiscoveryWithoutEtag,
        ];
        if !v2_discovery_faults.contains(&fault) {
            assert_eq!(
                send(Probe::Negotiate {
                    version: Some("2"),
                    revalidate: false
                })
                .await,
                "200 etag root=v2 versions=1.0,2.0",
                "{fault}: v2 discovery"
            );
        }
        let v2_negative_faults = [
            V2RefusalStatus400,
            V2RefusalValidationError,
            V2ErrorExtraMember,
        ];
        if !negative_faults.contains(&fault) && !v2_negative_faults.contains(&fault) {
            let body = user(json!([text("listen"), wav()]));
            assert_eq!(
                send(Probe::CallV2 { body }).await,
                "422 capability_not_provided",
                "{fault}: v2 negative"
            );
        }
        let self_hosted_faults = [
            SelfHostedEndpointLeaks,
            SelfHostedNotConfigured,
            SelfHostedUrlId,
            SelfHostedNotListed,
            SeamMissing,
            // The probe reads selfHosted at the document root.
            WrapperOnlyDiscovery,
        ];
        if !self_hosted_faults.contains(&fault) {
            let body = user(json!([text("ping")]));
            assert_eq!(
                send(Probe::SelfHosted { body }).await,
                "selfHosted=compat 200 text x1",
                "{fault}: self-hosted call"
            );
        }
        host.shutdown().await;
    }
}
