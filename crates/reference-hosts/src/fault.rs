//! Single-fault variants of the reference host.
//!
//! Each variant breaks exactly ONE requirement and leaves every other behaviour
//! spec-faithful, so the test-suite can prove that each conformance case is able to
//! fail (a case that passes against every variant proves nothing).

use super::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken requirement. See [`Fault::description`] for which.
    pub enum Fault / UnknownFault, an "fault" listed by "serve-reference --list-faults" {
        DiscoveryMissingRequired => "discovery-missing-required",
            "Discovery omits the required `limits` object.";
        WrapperOnlyDiscovery => "wrapper-only-discovery",
            "Discovery advertises aiProviders only inside a deprecated `capabilities` wrapper, not at the document root (RFC 0073).";
        OutOfEnumModality => "out-of-enum-modality",
            "Discovery advertises `video`, outside the closed modality enum, and accepts video parts.";
        RefusesStringContent => "refuses-string-content",
            "Plain string message content, valid forever per RFC 0091 §A, is rejected with invalid_request.";
        RejectsTextPartUnlessListed => "rejects-text-part-unless-listed",
            "A `text` content part is rejected with unsupported_modality when `text` is not listed, although text is implicit.";
        RejectsAdvertisedModality => "rejects-advertised-modality",
            "Every non-text part is rejected with unsupported_modality, even for advertised modalities.";
        AcceptsPngOnly => "accepts-png-only",
            "Image parts other than image/png (JPEG, WEBP, ...) are rejected with unsupported_media_type.";
        RejectsMediaRef => "rejects-media-ref",
            "Every `mediaRef` source is rejected with invalid_request.";
        RejectsUrlSource => "rejects-url-source",
            "Every `url` source, even a public one, is rejected with invalid_request.";
        AcceptsUnadvertised => "accepts-unadvertised",
            "Parts of unadvertised modalities (image/audio/document) are accepted instead of rejected with unsupported_modality.";
        SilentlyDropsUnadvertised => "silently-drops-unadvertised",
            "Parts of unadvertised modalities are silently dropped and the call answers 200 without them.";
        WrongErrorCode => "wrong-error-code",
            "Unadvertised and unknown part types are rejected with invalid_request instead of unsupported_modality.";
        CrashOnUnknownType => "crash-on-unknown-type",
            "A part type outside text/image/audio/document makes the host answer 500 internal_error.";
        ValidatesFirstPartOnly => "validates-first-part-only",
            "Only the first non-text part of each message is validated; later parts are accepted unchecked.";
        ValidatesFirstMessageOnly => "validates-first-message-only",
            "Only messages[0] is validated; later messages are accepted unchecked.";
        ValidatesUserMessagesOnly => "validates-user-messages-only",
            "Assistant and system messages are accepted unchecked; only user messages are validated.";
        NestedErrorBody => "nested-error-body",
            "Error bodies use the legacy nested {error: {code, message}} shape instead of the flat envelope.";
        AcceptsMissingSource => "accepts-missing-source",
            "A non-text part with none of url/mediaRef/data is accepted (exactly one is required).";
        AcceptsTwoSources => "accepts-two-sources",
            "A non-text part with more than one of url/mediaRef/data is accepted when any one of them is usable (exactly one is required).";
        AcceptsMissingMimeType => "accepts-missing-mime-type",
            "A non-text part without the required `mimeType` is accepted.";
        AcceptsInvalidBase64 => "accepts-invalid-base64",
            "Inline `data` that is not valid base64 is accepted.";
        LaxBase64 => "lax-base64",
            "Inline `data` is decoded as Python's default decoder does: characters outside the alphabet are skipped, so base64 with `*` inserted is accepted.";
        AcceptsEmptyText => "accepts-empty-text",
            "An empty text part is accepted (and forwarded to the model as it came).";
        AcceptsMismatchedMime => "accepts-mismatched-mime",
            "Inline `data` whose bytes are not its `mimeType` (a WAV file said to be image/png) is accepted.";
        CrashOnMalformed => "crash-on-malformed",
            "Every shape error of an ai/call (a part or message that deserves a 400: no or two sources, no mimeType, bad base64, empty or numeric content) is answered 500 internal_error.";
        AcceptsNumericContent => "accepts-numeric-content",
            "Message content that is neither a string nor an array (a number, an object) is accepted.";
        AcceptsEmptyMessages => "accepts-empty-messages",
            "An empty `messages` array is accepted instead of rejected with validation_error.";
        OffByOneLimit => "off-by-one-limit",
            "A part of exactly maxBytesPerPart bytes is rejected (the cap is applied with >=).";
        IgnoresMaxBytesPerPart => "ignores-max-bytes-per-part",
            "The advertised maxBytesPerPart is not enforced.";
        AcceptsLoopbackUrl => "accepts-loopback-url",
            "The SSRF guard is off: loopback, private, link-local and metadata URLs are accepted.";
        AcceptsNonHttpUrl => "accepts-non-http-url",
            "A url source of any scheme (file://, ftp://, gopher://) is accepted (never opened).";
        AcceptsUnknownMediaRef => "accepts-unknown-media-ref",
            "A `mediaRef` the host never issued is accepted.";
        IgnoresAuth => "ignores-auth",
            "The configured bearer token is not checked on the ai/call and envelope accept seams.";
        SeamMissing => "seam-missing",
            "Both ai/call seam paths answer 404 not_found.";
        EnvelopeAcceptsMissingMeta => "envelope-accepts-missing-meta",
            "The envelope accept seam ignores a missing `meta` at the schema stage and accepts the envelope.";
        EnvelopeInvalidWithoutDetails => "envelope-invalid-without-details",
            "Invalid envelope outcomes carry no `details` array.";
        EnvelopeGatedWithoutAllowedKinds => "envelope-gated-without-allowed-kinds",
            "Gated envelope outcomes omit `allowedKinds`.";
        EnvelopeBreachAboveCapOnly => "envelope-breach-above-cap-only",
            "An envelope cap is breached only when current > cap, so an envelope at its cap is accepted.";
        EnvelopeRunBoundaryWins => "envelope-run-boundary-wins",
            "runTrustBoundary overrides the envelope's own meta.contentTrust.";
        EnvelopeTsUnchecked => "envelope-ts-unchecked",
            "The format of meta.ts is not checked at all, so `tomorrow` is accepted.";
        EnvelopeUniversalNodeGated => "envelope-universal-node-gated",
            "Universal envelope kinds are gated by nodeAllowedKinds instead of being exempt.";
        EnvelopeHttp400 => "envelope-http-400",
            "Every non-accepted envelope outcome is sent as HTTP 400 instead of 200.";
        EnvelopePayloadUnchecked => "envelope-payload-unchecked",
            "Universal envelope payloads are not validated against their schemas.";
        EnvelopeWrongCapKind => "envelope-wrong-cap-kind",
            "Every envelope kind counts envelopesPerTurn, so capKind is always `envelopes`.";
        EnvelopeMissingAccepted => "envelope-missing-accepted",
            "An accept request without an `envelope` answers 200 {status: accepted} instead of 400.";
        EnvelopeIgnoresHostSupported => "envelope-ignores-host-supported",
            "A vendor envelope kind listed in hostSupportedEnvelopes is still gated.";
        EnvelopeDefaultUntrusted => "envelope-default-untrusted",
            "With no meta.contentTrust and no runTrustBoundary an envelope is untrusted instead of trusted.";
        EnvelopeSeamMissing => "envelope-seam-missing",
            "Both envelope accept seam paths answer 404 not_found.";
        DiscoveryMissingUniversalEnvelopes => "discovery-missing-universal-envelopes",
            "Discovery's supportedEnvelopes lists none of the four universal kinds.";
        DiscoveryWrongSchemaVersion => "discovery-wrong-schema-version",
            "Discovery's schemaVersions gives every universal kind version 2 instead of 1.";
        EnvelopeBreachOneEarly => "envelope-breach-one-early",
            "An envelope cap is breached one envelope early (current + 1 >= cap), so an envelope one below its cap is refused.";
        EnvelopeIgnoresRunBoundary => "envelope-ignores-run-boundary",
            "runTrustBoundary is ignored: an envelope without its own meta.contentTrust is always trusted.";
        EnvelopeGatesUniversalKinds => "envelope-gates-universal-kinds",
            "Universal envelope kinds are gated unless hostSupportedEnvelopes lists them, instead of always passing the host kind gate.";
        DiscoveryEnvelopesNotArray => "discovery-envelopes-not-array",
            "Discovery's supportedEnvelopes is one comma-separated string instead of an array of strings.";
        EnvelopeChecksRequiredOnly => "envelope-checks-required-only",
            "The envelope schema stage only checks that required fields are present: wrong types, values outside an enum, lengths, ranges and unknown keys are accepted.";
        ForwardSkipsModel => "forward-skips-model",
            "With an upstream model configured, a `provider: compat` call is answered 200 without calling the model.";
        ForwardDropsMedia => "forward-drops-media",
            "Only the text parts of a call reach the upstream model; every media part is left out.";
        ForwardDropsAudio => "forward-drops-audio",
            "Audio parts are left out of the request forwarded to the upstream model.";
        ForwardDocumentAsImage => "forward-document-as-image",
            "Document parts are forwarded to the upstream model as `image_url` instead of `file`.";
        ForwardWrongMime => "forward-wrong-mime",
            "Every data URL forwarded to the upstream model names application/octet-stream instead of the part's MIME type.";
        ForwardTruncatesBytes => "forward-truncates-bytes",
            "Inline media reach the upstream model one byte short (the nonce stamp survives).";
        ForwardReordersParts => "forward-reorders-parts",
            "The parts of each message reach the upstream model in reverse order.";
        ForwardReencodesImages => "forward-reencodes-images",
            "Inline images reach the upstream model re-encoded (a PNG as JPEG, anything else as PNG): the same picture in other bytes, a faithful transformation that `witness: reached` accepts with a note and `delivery: intact` refuses.";
        ForwardDownscalesImages => "forward-downscales-images",
            "Inline images reach the upstream model scaled to half their size, in their own format: the same picture, a faithful transformation that `witness: reached` accepts with a note and `delivery: intact` refuses.";
        ForwardImagePlaceholder => "forward-image-placeholder",
            "Every image part reaches the upstream model as the text `[image]` instead of the picture.";
        ForwardExtractsPdfText => "forward-extracts-pdf-text",
            "Inline PDF documents reach the upstream model as a text part holding their page text instead of the file.";
        ForwardThenRefuses => "forward-then-refuses",
            "A call with an unadvertised part is forwarded to the upstream model, that part included, and only then refused with unsupported_modality.";
        AcceptsMappedHex => "accepts-mapped-hex",
            "The SSRF guard recognises IPv4-mapped addresses only in dotted form, so `[::ffff:7f00:1]` (loopback) is accepted (RFC 0196 §B.5).";
        AcceptsNat64Loopback => "accepts-nat64-loopback",
            "The SSRF guard does not judge NAT64, 6to4 and IPv4-compatible addresses by the IPv4 they embed, so `[64:ff9b::7f00:1]` is accepted (RFC 0196 §B.6).";
        V2RequestGetsV1Document => "v2-request-gets-v1-document",
            "Discovery answers `OpenWOP-Version: 2` with the v1 document instead of the closed v2 root.";
        V1DocumentWithoutVersions => "v1-document-without-versions",
            "The v1 discovery document of this two-major host omits `protocolVersions` and `preferredVersion`.";
        V2RecordKeepsSupported => "v2-record-keeps-supported",
            "The v2 aiProviders record keeps the v1 `supported` list beside `providers`.";
        V2MinorSpellingRefused => "v2-minor-spelling-refused",
            "`OpenWOP-Version: 2.0` is refused with 406; only the bare `2` selects v2.";
        UnknownMajorServed => "unknown-major-served",
            "A major the host does not serve (`OpenWOP-Version: 99`) gets the v1 document instead of 406 protocol_version_unsupported.";
        UnknownMajorWithoutVersions => "unknown-major-without-versions",
            "The 406 protocol_version_unsupported answer carries no `details.protocolVersions`.";
        DiscoveryWithoutEtag => "discovery-without-etag",
            "Discovery carries no ETag, so a client cannot revalidate it.";
        IgnoresIfNoneMatch => "ignores-if-none-match",
            "Discovery sends an ETag but answers a matching If-None-Match with 200 and the whole document instead of 304.";
        V2LegacyErrorCodes => "v2-legacy-error-codes",
            "At major 2 the seams keep v1's unregistered invalid_request for shape errors and SSRF refusals.";
        V2RefusalStatus400 => "v2-refusal-status-400",
            "At major 2 an unadvertised modality is refused with capability_not_provided but HTTP 400, not the registered 422.";
        V2RefusalValidationError => "v2-refusal-validation-error",
            "At major 2 an unadvertised modality is refused with validation_error instead of capability_not_provided.";
        V2ShapeCapabilityCode => "v2-shape-capability-code",
            "At major 2 a shape error (no or two sources, no `mimeType`, bad base64, bad content) is refused with capability_not_provided 422, the code for an unadvertised modality, instead of validation_error.";
        V2PartTooLarge => "v2-part-too-large",
            "At major 2 a part over maxBytesPerPart is refused with the unregistered code part_too_large (413) instead of payload_too_large.";
        V2ErrorExtraMember => "v2-error-extra-member",
            "At major 2 error bodies carry a top-level `status` member besides {error, message, details}.";
        SelfHostedEndpointLeaks => "self-hosted-endpoint-leaks",
            "Answers and refusals of calls naming the self-hosted provider carry its configured endpoint (RFC 0108 §A.3).";
        SelfHostedNotConfigured => "self-hosted-not-configured",
            "The self-hosted provider is advertised, but a call naming it is refused with provider_not_configured (RFC 0108 §A.2).";
        SelfHostedUrlId => "self-hosted-url-id",
            "The self-hosted provider's id is its endpoint URL, so the location is on the wire (RFC 0108 §A.3).";
        SelfHostedNotListed => "self-hosted-not-listed",
            "The self-hosted provider is advertised in selfHosted but missing from supported (v1) and providers (v2).";
        SelfHostedAcceptsUnadvertised => "self-hosted-accepts-unadvertised",
            "A call naming the self-hosted provider skips the modality check: unadvertised parts are dropped and the call answers 200 (RFC 0108 §B).";
    }
}

impl HostFault for Fault {
    fn needs_upstream(&self) -> bool {
        Fault::needs_upstream(*self)
    }

    /// A missing seam: the cases that need it are blocked, and the run never exits 0.
    fn blocks_cases(&self) -> bool {
        matches!(self, Fault::SeamMissing | Fault::EnvelopeSeamMissing)
    }

    fn is_faithful_transformation(&self) -> bool {
        Fault::is_faithful_transformation(*self)
    }
}

impl Fault {
    /// Faults of the forwarding path (docs/wire.md, "Forwarding to a model"): they
    /// change nothing unless the host has an upstream model, so only a run with one can
    /// catch them: calibration runs them only in its setups that forward to a witness.
    pub fn needs_upstream(self) -> bool {
        use Fault::*;
        matches!(
            self,
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
                | ForwardThenRefuses
        )
    }

    /// Faults that transform media the way real agents do without breaking delivery:
    /// no case may fail against them, and the witness must say what changed.
    pub fn is_faithful_transformation(self) -> bool {
        matches!(
            self,
            Fault::ForwardReencodesImages | Fault::ForwardDownscalesImages
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut seen = HashSet::new();
        for &fault in Fault::all() {
            assert!(seen.insert(fault.name()), "duplicate name {}", fault.name());
            assert_eq!(fault.name().parse::<Fault>(), Ok(fault));
            assert!(!fault.description().is_empty());
            assert!(fault.description().ends_with('.'));
        }
        assert_eq!(Fault::all().len(), 88);
        let forwarding = Fault::all().iter().filter(|f| f.needs_upstream());
        assert!(forwarding.clone().all(|f| f.name().starts_with("forward-")));
        assert_eq!(forwarding.count(), 12);
    }

    #[test]
    fn unknown_name_lists_valid_ones() {
        let err = "no-such-fault".parse::<Fault>().unwrap_err();
        let text = err.to_string();
        assert!(text.contains("no-such-fault"));
        assert!(text.contains("seam-missing"));
        assert!(text.contains("accepts-png-only"));
    }
}
