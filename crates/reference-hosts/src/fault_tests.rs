//! Each fault changes exactly the behaviour it names.
//!
//! `signature` holds, per fault, one request on which the faithful and the faulted host
//! must answer differently, and the two expected verdicts. The match is exhaustive, so
//! a new fault cannot be added without its proof. Every probe goes over real HTTP on
//! loopback, so the router's wiring (404s, error-body shape, auth) is covered too.
//! `fault_controls_tests.rs` then checks that each fault leaves the other basics alone.

use serde_json::{Value, json};

use super::test_support::{
    FAITHFUL_DISCOVERY, FAITHFUL_ENVELOPES, Probe, SELF_HOSTED_ENDPOINT, accept, call, data,
    envelope, envelope_of, media, mp4, observe, plain, png, text, user, wav, without_meta,
};
use super::{Fault, ReferenceConfig, known_media_ref};

pub(super) struct Signature {
    config: ReferenceConfig,
    probe: Probe,
    faithful: &'static str,
    faulted: &'static str,
}

/// A WAV file, base64.
fn wav_data() -> String {
    base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        mmconform_media::generate("audio/wav", "0123456789abcdef"),
    )
}

fn vendor() -> Value {
    envelope_of("vendor.mmconform.demo", json!({"note": "free"}))
}

pub(super) fn sig(probe: Probe, faithful: &'static str, faulted: &'static str) -> Signature {
    Signature {
        config: ReferenceConfig::default(),
        probe,
        faithful,
        faulted,
    }
}

pub(super) fn with(config: ReferenceConfig, signature: Signature) -> Signature {
    Signature {
        config,
        ..signature
    }
}

fn capped(max: u64) -> ReferenceConfig {
    ReferenceConfig {
        max_bytes_per_part: Some(max),
        ..ReferenceConfig::default()
    }
}

/// A host with its self-hosted provider configured (RFC 0108).
fn self_hosting() -> ReferenceConfig {
    ReferenceConfig {
        compat_endpoint: Some(SELF_HOSTED_ENDPOINT.into()),
        ..ReferenceConfig::default()
    }
}

fn self_hosted(body: Value) -> Probe {
    Probe::SelfHosted { body }
}

fn negotiate(version: Option<&'static str>, revalidate: bool) -> Probe {
    Probe::Negotiate {
        version,
        revalidate,
    }
}

fn image(key: &str, value: &str) -> Value {
    media("image", "image/png", key, value)
}

fn signature(fault: Fault) -> Signature {
    use Fault::*;
    let two_messages = |second: Value| {
        call(json!({"messages": [
            {"role": "user", "content": [text("look")]},
            second,
        ]}))
    };
    match fault {
        DiscoveryMissingRequired => sig(
            Probe::Discovery,
            FAITHFUL_DISCOVERY,
            "keys=protocolVersion,supportedEnvelopes,schemaVersions,implementation,aiProviders,protocolVersions,preferredVersion modalities=text,image",
        ),
        WrapperOnlyDiscovery => sig(
            Probe::Discovery,
            FAITHFUL_DISCOVERY,
            "keys=protocolVersion,supportedEnvelopes,schemaVersions,limits,implementation,capabilities,protocolVersions,preferredVersion modalities=-",
        ),
        OutOfEnumModality => sig(
            call(user(json!([text("a"), mp4()]))),
            "400 unsupported_modality",
            "200 text,video x2",
        ),
        RefusesStringContent => sig(
            call(user(json!("hello"))),
            "200 text x1",
            "400 invalid_request",
        ),
        RejectsTextPartUnlessListed => with(
            ReferenceConfig {
                modalities: vec!["image".into()],
                ..ReferenceConfig::default()
            },
            sig(
                call(user(json!([text("a")]))),
                "200 text x1",
                "400 unsupported_modality",
            ),
        ),
        RejectsAdvertisedModality => sig(
            call(user(json!([text("a"), png()]))),
            "200 text,image x2",
            "400 unsupported_modality",
        ),
        AcceptsPngOnly => sig(
            call(user(json!([media(
                "image",
                "image/jpeg",
                "data",
                &data(16)
            )]))),
            "200 image x1",
            "415 unsupported_media_type",
        ),
        RejectsMediaRef => sig(
            call(user(json!([image(
                "mediaRef",
                known_media_ref("image").unwrap()
            )]))),
            "200 image x1",
            "400 invalid_request",
        ),
        RejectsUrlSource => sig(
            call(user(json!([image("url", "https://example.com/cat.png")]))),
            "200 image x1",
            "400 invalid_request",
        ),
        AcceptsUnadvertised => sig(
            call(user(json!([text("a"), wav()]))),
            "400 unsupported_modality",
            "200 text,audio x2",
        ),
        SilentlyDropsUnadvertised => sig(
            call(user(json!([text("a"), wav()]))),
            "400 unsupported_modality",
            "200 text x1",
        ),
        WrongErrorCode => sig(
            call(user(json!([text("a"), mp4()]))),
            "400 unsupported_modality",
            "400 invalid_request",
        ),
        CrashOnUnknownType => sig(
            call(user(json!([mp4()]))),
            "400 unsupported_modality",
            "500 internal_error",
        ),
        ValidatesFirstPartOnly => sig(
            call(user(json!([png(), wav()]))),
            "400 unsupported_modality",
            "200 image,audio x2",
        ),
        ValidatesFirstMessageOnly => sig(
            two_messages(json!({"role": "user", "content": [wav()]})),
            "400 unsupported_modality",
            "200 text,audio x2",
        ),
        ValidatesUserMessagesOnly => sig(
            two_messages(json!({"role": "assistant", "content": [wav()]})),
            "400 unsupported_modality",
            "200 text,audio x2",
        ),
        NestedErrorBody => sig(
            call(user(json!([wav()]))),
            "400 unsupported_modality",
            "400 unsupported_modality nested",
        ),
        AcceptsMissingSource => sig(
            call(user(json!([{"type": "image", "mimeType": "image/png"}]))),
            "400 invalid_request",
            "200 image x1",
        ),
        // The second source is unusable too: the faulted host takes whichever works.
        AcceptsTwoSources => sig(
            call(user(json!([
                {"type": "image", "mimeType": "image/png", "data": data(8), "mediaRef": "blob:elsewhere"}
            ]))),
            "400 invalid_request",
            "200 image x1",
        ),
        AcceptsMissingMimeType => sig(
            call(user(json!([{"type": "image", "data": data(8)}]))),
            "400 invalid_request",
            "200 image x1",
        ),
        AcceptsInvalidBase64 => sig(
            call(user(json!([image("data", "not base64!")]))),
            "400 invalid_request",
            "200 image x1",
        ),
        AcceptsMismatchedMime => sig(
            call(user(
                json!([{"type": "image", "mimeType": "image/png", "data": wav_data()}]),
            )),
            "400 invalid_request",
            "200 image x1",
        ),
        CrashOnMalformed => sig(
            call(user(json!([{"type": "image", "mimeType": "image/png"}]))),
            "400 invalid_request",
            "500 internal_error",
        ),
        AcceptsEmptyText => sig(
            call(user(json!([text("")]))),
            "400 invalid_request",
            "200 text x1",
        ),
        AcceptsNumericContent => sig(call(user(json!(42))), "400 invalid_request", "200 - x0"),
        AcceptsEmptyMessages => sig(
            call(json!({"messages": []})),
            "400 validation_error",
            "200 - x0",
        ),
        OffByOneLimit => with(
            capped(16),
            sig(
                call(user(json!([image("data", &data(16))]))),
                "200 image x1",
                "413 payload_too_large",
            ),
        ),
        IgnoresMaxBytesPerPart => with(
            capped(16),
            sig(
                call(user(json!([image("data", &data(17))]))),
                "413 payload_too_large",
                "200 image x1",
            ),
        ),
        AcceptsLoopbackUrl => sig(
            call(user(json!([image("url", "http://127.0.0.1:9/a.png")]))),
            "400 invalid_request",
            "200 image x1",
        ),
        AcceptsUnknownMediaRef => sig(
            call(user(json!([image("mediaRef", "blob:run-7/chart")]))),
            "400 invalid_request",
            "200 image x1",
        ),
        IgnoresAuth => with(
            ReferenceConfig {
                token: Some("s3cret".into()),
                ..ReferenceConfig::default()
            },
            sig(
                call(user(json!("hi"))),
                "401 unauthenticated",
                "200 text x1",
            ),
        ),
        SeamMissing => sig(call(user(json!("hi"))), "200 text x1", "404 not_found"),
        // "hello!" with a `*` inside: only a decoder that skips it reads bytes.
        LaxBase64 => sig(
            call(user(json!([image("data", "aGVs*bG8h")]))),
            "400 invalid_request",
            "200 image x1",
        ),
        AcceptsNonHttpUrl => sig(
            call(user(json!([image("url", "file:///etc/passwd")]))),
            "400 invalid_request",
            "200 image x1",
        ),
        EnvelopeAcceptsMissingMeta => sig(
            without_meta(),
            "200 invalid details=1",
            "200 accepted trust=trusted",
        ),
        EnvelopeInvalidWithoutDetails => sig(
            without_meta(),
            "200 invalid details=1",
            "200 invalid details=-",
        ),
        EnvelopeGatedWithoutAllowedKinds => sig(
            accept(vendor(), json!({})),
            "200 gated allowed=4",
            "200 gated allowed=-",
        ),
        EnvelopeBreachAboveCapOnly => sig(
            accept(
                envelope_of("error", json!({"code": "c", "message": "m"})),
                json!({"counters": {"envelopesPerTurn": {"current": 32, "cap": 32}}}),
            ),
            "200 breached envelopes 32/32",
            "200 accepted trust=trusted",
        ),
        EnvelopeRunBoundaryWins => {
            let mut own = envelope();
            own["meta"]["contentTrust"] = json!("trusted");
            sig(
                accept(own, json!({"runTrustBoundary": "untrusted"})),
                "200 accepted trust=trusted",
                "200 accepted trust=untrusted",
            )
        }
        EnvelopeTsUnchecked => {
            let mut tomorrow = envelope();
            tomorrow["meta"]["ts"] = json!("tomorrow");
            sig(
                accept(tomorrow, json!({})),
                "200 invalid details=1 iso8601",
                "200 accepted trust=trusted",
            )
        }
        EnvelopeUniversalNodeGated => sig(
            accept(
                envelope(),
                json!({"nodeAllowedKinds": ["vendor.mmconform.other"]}),
            ),
            "200 accepted trust=trusted",
            "200 gated allowed=1",
        ),
        EnvelopeHttp400 => sig(
            without_meta(),
            "200 invalid details=1",
            "400 invalid details=1",
        ),
        EnvelopePayloadUnchecked => sig(
            accept(
                envelope_of("clarification.request", json!({"questions": []})),
                json!({}),
            ),
            "200 invalid details=1",
            "200 accepted trust=trusted",
        ),
        EnvelopeWrongCapKind => sig(
            accept(
                envelope_of("schema.request", json!({"envelopeType": "error"})),
                json!({"counters": {"schemaRounds": {"current": 3, "cap": 3}}}),
            ),
            "200 breached schema 3/3",
            "200 accepted trust=trusted",
        ),
        EnvelopeMissingAccepted => sig(
            Probe::Envelope {
                body: json!({"hostSupportedEnvelopes": ["clarification.request"]}),
            },
            "400 invalid_request",
            "200 accepted trust=-",
        ),
        EnvelopeIgnoresHostSupported => sig(
            accept(
                vendor(),
                json!({"hostSupportedEnvelopes": ["vendor.mmconform.demo"]}),
            ),
            "200 accepted trust=trusted",
            "200 gated allowed=4",
        ),
        EnvelopeDefaultUntrusted => sig(
            plain(),
            "200 accepted trust=trusted",
            "200 accepted trust=untrusted",
        ),
        EnvelopeSeamMissing => sig(plain(), "200 accepted trust=trusted", "404 not_found"),
        DiscoveryMissingUniversalEnvelopes => sig(
            Probe::DiscoveryEnvelopes,
            FAITHFUL_ENVELOPES,
            "envelopes= versions=",
        ),
        DiscoveryWrongSchemaVersion => sig(
            Probe::DiscoveryEnvelopes,
            FAITHFUL_ENVELOPES,
            "envelopes=clarification.request,schema.request,schema.response,error versions=2,2,2,2",
        ),
        EnvelopeBreachOneEarly => sig(
            accept(
                envelope_of("schema.request", json!({"envelopeType": "error"})),
                json!({"counters": {"schemaRounds": {"current": 2, "cap": 3}}}),
            ),
            "200 accepted trust=trusted",
            "200 breached schema 2/3",
        ),
        EnvelopeIgnoresRunBoundary => sig(
            accept(envelope(), json!({"runTrustBoundary": "untrusted"})),
            "200 accepted trust=untrusted",
            "200 accepted trust=trusted",
        ),
        EnvelopeGatesUniversalKinds => {
            sig(plain(), "200 accepted trust=trusted", "200 gated allowed=4")
        }
        EnvelopeChecksRequiredOnly => sig(
            accept(
                {
                    let mut envelope = envelope();
                    envelope["envelopeId"] = json!(42);
                    envelope
                },
                json!({}),
            ),
            "200 invalid details=1",
            "200 accepted trust=trusted",
        ),
        DiscoveryEnvelopesNotArray => sig(
            Probe::DiscoveryEnvelopes,
            FAITHFUL_ENVELOPES,
            "envelopes=\"clarification.request,schema.request,schema.response,error\" (a string)",
        ),
        AcceptsMappedHex => sig(
            call(user(json!([
                text("a"),
                image("url", "http://[::ffff:7f00:1]:9/x")
            ]))),
            "400 invalid_request",
            "200 text,image x2",
        ),
        AcceptsNat64Loopback => sig(
            call(user(json!([
                text("a"),
                image("url", "http://[64:ff9b::7f00:1]:9/x")
            ]))),
            "400 invalid_request",
            "200 text,image x2",
        ),
        V2RequestGetsV1Document => sig(
            negotiate(Some("2"), false),
            "200 etag root=v2 versions=1.0,2.0",
            "200 etag root=v1 versions=1.0,2.0",
        ),
        V1DocumentWithoutVersions => sig(
            negotiate(None, false),
            "200 etag root=v1 versions=1.0,2.0",
            "200 etag root=v1 versions=-",
        ),
        V2RecordKeepsSupported => sig(
            negotiate(Some("2"), false),
            "200 etag root=v2 versions=1.0,2.0",
            "200 etag root=v2 supported versions=1.0,2.0",
        ),
        V2MinorSpellingRefused => sig(
            negotiate(Some("2.0"), false),
            "200 etag root=v2 versions=1.0,2.0",
            "406 protocol_version_unsupported versions=1.0,2.0",
        ),
        UnknownMajorServed => sig(
            negotiate(Some("99"), false),
            "406 protocol_version_unsupported versions=1.0,2.0",
            "200 etag root=v1 versions=1.0,2.0",
        ),
        UnknownMajorWithoutVersions => sig(
            negotiate(Some("99"), false),
            "406 protocol_version_unsupported versions=1.0,2.0",
            "406 protocol_version_unsupported versions=-",
        ),
        DiscoveryWithoutEtag => sig(
            negotiate(Some("2"), false),
            "200 etag root=v2 versions=1.0,2.0",
            "200 no-etag root=v2 versions=1.0,2.0",
        ),
        IgnoresIfNoneMatch => sig(negotiate(None, true), "304", "200"),
        V2LegacyErrorCodes => sig(
            Probe::CallV2 {
                body: json!({"messages": "not an array"}),
            },
            "400 validation_error",
            "400 invalid_request",
        ),
        V2RefusalStatus400 => sig(
            Probe::CallV2 {
                body: user(json!([text("hear"), wav()])),
            },
            "422 capability_not_provided",
            "400 capability_not_provided",
        ),
        V2RefusalValidationError => sig(
            Probe::CallV2 {
                body: user(json!([text("hear"), wav()])),
            },
            "422 capability_not_provided",
            "400 validation_error",
        ),
        V2ShapeCapabilityCode => sig(
            Probe::CallV2 {
                body: user(json!([{"type": "image", "mimeType": "image/png"}])),
            },
            "400 validation_error",
            "422 capability_not_provided",
        ),
        V2PartTooLarge => with(
            capped(16),
            sig(
                Probe::CallV2 {
                    body: user(json!([image("data", &data(17))])),
                },
                "413 payload_too_large",
                "413 part_too_large",
            ),
        ),
        V2ErrorExtraMember => sig(
            Probe::CallV2 {
                body: user(json!([text("hear"), wav()])),
            },
            "422 capability_not_provided",
            "422 capability_not_provided +status",
        ),
        SelfHostedEndpointLeaks => with(
            self_hosting(),
            sig(
                self_hosted(user(json!([text("ping")]))),
                "selfHosted=compat 200 text x1",
                "selfHosted=compat 200 text x1 +endpoint",
            ),
        ),
        SelfHostedNotConfigured => with(
            self_hosting(),
            sig(
                self_hosted(user(json!([text("ping")]))),
                "selfHosted=compat 200 text x1",
                "selfHosted=compat 422 provider_not_configured",
            ),
        ),
        SelfHostedUrlId => with(
            self_hosting(),
            sig(
                self_hosted(user(json!([text("ping")]))),
                "selfHosted=compat 200 text x1",
                "selfHosted=http://compat.example.invalid:8089/v1 200 text x1 +endpoint",
            ),
        ),
        SelfHostedNotListed => with(
            self_hosting(),
            sig(
                self_hosted(user(json!([text("ping")]))),
                "selfHosted=compat 200 text x1",
                "selfHosted=compat (not in supported) 200 text x1",
            ),
        ),
        SelfHostedAcceptsUnadvertised => with(
            self_hosting(),
            sig(
                self_hosted(user(json!([text("hear"), wav()]))),
                "selfHosted=compat 400 unsupported_modality",
                "selfHosted=compat 200 text x1",
            ),
        ),
        ForwardSkipsModel
        | ForwardDropsMedia
        | ForwardDropsAudio
        | ForwardDocumentAsImage
        | ForwardWrongMime
        | ForwardTruncatesBytes
        | ForwardReordersParts
        | ForwardReencodesImages
        | ForwardDownscalesImages
        | ForwardImagePlaceholder
        | ForwardExtractsPdfText
        | ForwardThenRefuses => super::forward_tests::signature(fault),
    }
}

async fn check(fault: Fault) {
    let Signature {
        config,
        probe,
        faithful,
        faulted,
    } = signature(fault);
    assert_ne!(
        faithful, faulted,
        "{fault}: a signature must tell the hosts apart"
    );
    let broken = ReferenceConfig {
        fault: Some(fault),
        ..config.clone()
    };
    assert_eq!(
        observe(config, &probe).await,
        faithful,
        "{fault}: faithful host"
    );
    assert_eq!(
        observe(broken, &probe).await,
        faulted,
        "{fault}: faulted host"
    );
}

macro_rules! fault_tests {
    ($($test:ident => $fault:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $test() {
                check(Fault::$fault).await;
            }
        )*

        #[test]
        fn every_fault_has_a_test() {
            let tested = [$(Fault::$fault),*];
            for fault in Fault::all() {
                assert!(tested.contains(fault), "no test for {fault}");
            }
        }
    };
}

fault_tests! {
    discovery_missing_required => DiscoveryMissingRequired,
    wrapper_only_discovery => WrapperOnlyDiscovery,
    out_of_enum_modality => OutOfEnumModality,
    refuses_string_content => RefusesStringContent,
    rejects_text_part_unless_listed => RejectsTextPartUnlessListed,
    rejects_advertised_modality => RejectsAdvertisedModality,
    accepts_png_only => AcceptsPngOnly,
    rejects_media_ref => RejectsMediaRef,
    rejects_url_source => RejectsUrlSource,
    accepts_unadvertised => AcceptsUnadvertised,
    silently_drops_unadvertised => SilentlyDropsUnadvertised,
    wrong_error_code => WrongErrorCode,
    crash_on_unknown_type => CrashOnUnknownType,
    validates_first_part_only => ValidatesFirstPartOnly,
    validates_first_message_only => ValidatesFirstMessageOnly,
    validates_user_messages_only => ValidatesUserMessagesOnly,
    nested_error_body => NestedErrorBody,
    accepts_missing_source => AcceptsMissingSource,
    accepts_two_sources => AcceptsTwoSources,
    accepts_missing_mime_type => AcceptsMissingMimeType,
    accepts_invalid_base64 => AcceptsInvalidBase64,
    accepts_numeric_content => AcceptsNumericContent,
    accepts_empty_messages => AcceptsEmptyMessages,
    off_by_one_limit => OffByOneLimit,
    ignores_max_bytes_per_part => IgnoresMaxBytesPerPart,
    accepts_loopback_url => AcceptsLoopbackUrl,
    accepts_unknown_media_ref => AcceptsUnknownMediaRef,
    ignores_auth => IgnoresAuth,
    lax_base64 => LaxBase64,
    accepts_non_http_url => AcceptsNonHttpUrl,
    seam_missing => SeamMissing,
    envelope_accepts_missing_meta => EnvelopeAcceptsMissingMeta,
    envelope_invalid_without_details => EnvelopeInvalidWithoutDetails,
    envelope_gated_without_allowed_kinds => EnvelopeGatedWithoutAllowedKinds,
    envelope_breach_above_cap_only => EnvelopeBreachAboveCapOnly,
    envelope_run_boundary_wins => EnvelopeRunBoundaryWins,
    envelope_ts_unchecked => EnvelopeTsUnchecked,
    envelope_universal_node_gated => EnvelopeUniversalNodeGated,
    envelope_http_400 => EnvelopeHttp400,
    envelope_payload_unchecked => EnvelopePayloadUnchecked,
    envelope_wrong_cap_kind => EnvelopeWrongCapKind,
    envelope_missing_accepted => EnvelopeMissingAccepted,
    envelope_ignores_host_supported => EnvelopeIgnoresHostSupported,
    envelope_default_untrusted => EnvelopeDefaultUntrusted,
    envelope_seam_missing => EnvelopeSeamMissing,
    discovery_missing_universal_envelopes => DiscoveryMissingUniversalEnvelopes,
    discovery_wrong_schema_version => DiscoveryWrongSchemaVersion,
    envelope_breach_one_early => EnvelopeBreachOneEarly,
    envelope_ignores_run_boundary => EnvelopeIgnoresRunBoundary,
    envelope_gates_universal_kinds => EnvelopeGatesUniversalKinds,
    discovery_envelopes_not_array => DiscoveryEnvelopesNotArray,
    envelope_checks_required_only => EnvelopeChecksRequiredOnly,
    forward_skips_model => ForwardSkipsModel,
    forward_drops_media => ForwardDropsMedia,
    forward_drops_audio => ForwardDropsAudio,
    forward_document_as_image => ForwardDocumentAsImage,
    forward_wrong_mime => ForwardWrongMime,
    forward_truncates_bytes => ForwardTruncatesBytes,
    forward_reorders_parts => ForwardReordersParts,
    forward_reencodes_images => ForwardReencodesImages,
    forward_downscales_images => ForwardDownscalesImages,
    forward_image_placeholder => ForwardImagePlaceholder,
    forward_extracts_pdf_text => ForwardExtractsPdfText,
    forward_then_refuses => ForwardThenRefuses,
    accepts_mapped_hex => AcceptsMappedHex,
    accepts_nat64_loopback => AcceptsNat64Loopback,
    v2_request_gets_v1_document => V2RequestGetsV1Document,
    v1_document_without_versions => V1DocumentWithoutVersions,
    v2_record_keeps_supported => V2RecordKeepsSupported,
    v2_minor_spelling_refused => V2MinorSpellingRefused,
    unknown_major_served => UnknownMajorServed,
    unknown_major_without_versions => UnknownMajorWithoutVersions,
    discovery_without_etag => DiscoveryWithoutEtag,
    ignores_if_none_match => IgnoresIfNoneMatch,
    v2_legacy_error_codes => V2LegacyErrorCodes,
    v2_refusal_status_400 => V2RefusalStatus400,
    v2_refusal_validation_error => V2RefusalValidationError,
    v2_shape_capability_code => V2ShapeCapabilityCode,
    v2_part_too_large => V2PartTooLarge,
    v2_error_extra_member => V2ErrorExtraMember,
    accepts_mismatched_mime => AcceptsMismatchedMime,
    crash_on_malformed => CrashOnMalformed,
    accepts_empty_text => AcceptsEmptyText,
    self_hosted_endpoint_leaks => SelfHostedEndpointLeaks,
    self_hosted_not_configured => SelfHostedNotConfigured,
    self_hosted_url_id => SelfHostedUrlId,
    self_hosted_not_listed => SelfHostedNotListed,
    self_hosted_accepts_unadvertised => SelfHostedAcceptsUnadvertised,
}
