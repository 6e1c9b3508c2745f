//! Single-fault variants of the reference host.
//!
//! Each variant breaks exactly ONE requirement and leaves every other behaviour
//! spec-faithful, so the test-suite can prove that each conformance case is able to
//! fail (a case that passes against every variant proves nothing).

use std::fmt;
use std::str::FromStr;

/// One deliberately broken requirement. See [`Fault::description`] for which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    DiscoveryMissingRequired,
    WrapperOnlyDiscovery,
    OutOfEnumModality,
    RefusesStringContent,
    RejectsTextPartUnlessListed,
    RejectsAdvertisedModality,
    AcceptsPngOnly,
    RejectsMediaRef,
    RejectsUrlSource,
    AcceptsUnadvertised,
    SilentlyDropsUnadvertised,
    WrongErrorCode,
    CrashOnUnknownType,
    ValidatesFirstPartOnly,
    ValidatesFirstMessageOnly,
    ValidatesUserMessagesOnly,
    NestedErrorBody,
    AcceptsMissingSource,
    AcceptsTwoSources,
    AcceptsMissingMimeType,
    AcceptsInvalidBase64,
    AcceptsNumericContent,
    AcceptsEmptyMessages,
    OffByOneLimit,
    IgnoresMaxBytesPerPart,
    AcceptsLoopbackUrl,
    AcceptsUnknownMediaRef,
    IgnoresAuth,
    SeamMissing,
    EnvelopeAcceptsMissingMeta,
    EnvelopeInvalidWithoutDetails,
    EnvelopeGatedWithoutAllowedKinds,
    EnvelopeBreachAboveCapOnly,
    EnvelopeRunBoundaryWins,
    EnvelopeTsUnchecked,
    EnvelopeUniversalNodeGated,
    EnvelopeHttp400,
    EnvelopePayloadUnchecked,
    EnvelopeWrongCapKind,
    EnvelopeMissingAccepted,
    EnvelopeIgnoresHostSupported,
    EnvelopeDefaultUntrusted,
    EnvelopeSeamMissing,
    DiscoveryMissingUniversalEnvelopes,
    DiscoveryWrongSchemaVersion,
    EnvelopeBreachOneEarly,
    EnvelopeIgnoresRunBoundary,
    EnvelopeGatesUniversalKinds,
    DiscoveryEnvelopesNotArray,
}

/// Every variant with its kebab-case name, in one table so `all`, `name` and
/// `FromStr` can never disagree.
const TABLE: &[(Fault, &str)] = &[
    (
        Fault::DiscoveryMissingRequired,
        "discovery-missing-required",
    ),
    (Fault::WrapperOnlyDiscovery, "wrapper-only-discovery"),
    (Fault::OutOfEnumModality, "out-of-enum-modality"),
    (Fault::RefusesStringContent, "refuses-string-content"),
    (
        Fault::RejectsTextPartUnlessListed,
        "rejects-text-part-unless-listed",
    ),
    (
        Fault::RejectsAdvertisedModality,
        "rejects-advertised-modality",
    ),
    (Fault::AcceptsPngOnly, "accepts-png-only"),
    (Fault::RejectsMediaRef, "rejects-media-ref"),
    (Fault::RejectsUrlSource, "rejects-url-source"),
    (Fault::AcceptsUnadvertised, "accepts-unadvertised"),
    (
        Fault::SilentlyDropsUnadvertised,
        "silently-drops-unadvertised",
    ),
    (Fault::WrongErrorCode, "wrong-error-code"),
    (Fault::CrashOnUnknownType, "crash-on-unknown-type"),
    (Fault::ValidatesFirstPartOnly, "validates-first-part-only"),
    (
        Fault::ValidatesFirstMessageOnly,
        "validates-first-message-only",
    ),
    (
        Fault::ValidatesUserMessagesOnly,
        "validates-user-messages-only",
    ),
    (Fault::NestedErrorBody, "nested-error-body"),
    (Fault::AcceptsMissingSource, "accepts-missing-source"),
    (Fault::AcceptsTwoSources, "accepts-two-sources"),
    (Fault::AcceptsMissingMimeType, "accepts-missing-mime-type"),
    (Fault::AcceptsInvalidBase64, "accepts-invalid-base64"),
    (Fault::AcceptsNumericContent, "accepts-numeric-content"),
    (Fault::AcceptsEmptyMessages, "accepts-empty-messages"),
    (Fault::OffByOneLimit, "off-by-one-limit"),
    (Fault::IgnoresMaxBytesPerPart, "ignores-max-bytes-per-part"),
    (Fault::AcceptsLoopbackUrl, "accepts-loopback-url"),
    (Fault::AcceptsUnknownMediaRef, "accepts-unknown-media-ref"),
    (Fault::IgnoresAuth, "ignores-auth"),
    (Fault::SeamMissing, "seam-missing"),
    (
        Fault::EnvelopeAcceptsMissingMeta,
        "envelope-accepts-missing-meta",
    ),
    (
        Fault::EnvelopeInvalidWithoutDetails,
        "envelope-invalid-without-details",
    ),
    (
        Fault::EnvelopeGatedWithoutAllowedKinds,
        "envelope-gated-without-allowed-kinds",
    ),
    (
        Fault::EnvelopeBreachAboveCapOnly,
        "envelope-breach-above-cap-only",
    ),
    (Fault::EnvelopeRunBoundaryWins, "envelope-run-boundary-wins"),
    (Fault::EnvelopeTsUnchecked, "envelope-ts-unchecked"),
    (
        Fault::EnvelopeUniversalNodeGated,
        "envelope-universal-node-gated",
    ),
    (Fault::EnvelopeHttp400, "envelope-http-400"),
    (
        Fault::EnvelopePayloadUnchecked,
        "envelope-payload-unchecked",
    ),
    (Fault::EnvelopeWrongCapKind, "envelope-wrong-cap-kind"),
    (Fault::EnvelopeMissingAccepted, "envelope-missing-accepted"),
    (
        Fault::EnvelopeIgnoresHostSupported,
        "envelope-ignores-host-supported",
    ),
    (
        Fault::EnvelopeDefaultUntrusted,
        "envelope-default-untrusted",
    ),
    (Fault::EnvelopeSeamMissing, "envelope-seam-missing"),
    (
        Fault::DiscoveryMissingUniversalEnvelopes,
        "discovery-missing-universal-envelopes",
    ),
    (
        Fault::DiscoveryWrongSchemaVersion,
        "discovery-wrong-schema-version",
    ),
    (Fault::EnvelopeBreachOneEarly, "envelope-breach-one-early"),
    (
        Fault::EnvelopeIgnoresRunBoundary,
        "envelope-ignores-run-boundary",
    ),
    (
        Fault::EnvelopeGatesUniversalKinds,
        "envelope-gates-universal-kinds",
    ),
    (
        Fault::DiscoveryEnvelopesNotArray,
        "discovery-envelopes-not-array",
    ),
];

static ALL: [Fault; TABLE.len()] = {
    let mut all = [Fault::DiscoveryMissingRequired; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        all[i] = TABLE[i].0;
        i += 1;
    }
    all
};

impl Fault {
    /// Every fault, in a stable order (the order of `--list-faults` style output).
    pub fn all() -> &'static [Fault] {
        &ALL
    }

    /// The stable kebab-case name used on the command line and in test names.
    pub fn name(self) -> &'static str {
        TABLE
            .iter()
            .find(|(fault, _)| *fault == self)
            .map(|(_, name)| *name)
            .expect("every Fault variant is in TABLE")
    }

    /// One sentence: which requirement this variant breaks.
    pub fn description(self) -> &'static str {
        match self {
            Fault::DiscoveryMissingRequired => "Discovery omits the required `limits` object.",
            Fault::WrapperOnlyDiscovery => {
                "Discovery advertises aiProviders only inside a deprecated `capabilities` wrapper, not at the document root (RFC 0073)."
            }
            Fault::OutOfEnumModality => {
                "Discovery advertises `video`, outside the closed modality enum, and accepts video parts."
            }
            Fault::RefusesStringContent => {
                "Plain string message content, valid forever per RFC 0091 §A, is rejected with invalid_request."
            }
            Fault::RejectsTextPartUnlessListed => {
                "A `text` content part is rejected with unsupported_modality when `text` is not listed, although text is implicit."
            }
            Fault::RejectsAdvertisedModality => {
                "Every non-text part is rejected with unsupported_modality, even for advertised modalities."
            }
            Fault::AcceptsPngOnly => {
                "Image parts other than image/png (JPEG, WEBP, ...) are rejected with unsupported_media_type."
            }
            Fault::RejectsMediaRef => "Every `mediaRef` source is rejected with invalid_request.",
            Fault::RejectsUrlSource => {
                "Every `url` source, even a public one, is rejected with invalid_request."
            }
            Fault::AcceptsUnadvertised => {
                "Parts of unadvertised modalities (image/audio/document) are accepted instead of rejected with unsupported_modality."
            }
            Fault::SilentlyDropsUnadvertised => {
                "Parts of unadvertised modalities are silently dropped and the call answers 200 without them."
            }
            Fault::WrongErrorCode => {
                "Unadvertised and unknown part types are rejected with invalid_request instead of unsupported_modality."
            }
            Fault::CrashOnUnknownType => {
                "A part type outside text/image/audio/document makes the host answer 500 internal_error."
            }
            Fault::ValidatesFirstPartOnly => {
                "Only the first non-text part of each message is validated; later parts are accepted unchecked."
            }
            Fault::ValidatesFirstMessageOnly => {
                "Only messages[0] is validated; later messages are accepted unchecked."
            }
            Fault::ValidatesUserMessagesOnly => {
                "Assistant and system messages are accepted unchecked; only user messages are validated."
            }
            Fault::NestedErrorBody => {
                "Error bodies use the legacy nested {error: {code, message}} shape instead of the flat envelope."
            }
            Fault::AcceptsMissingSource => {
                "A non-text part with none of url/mediaRef/data is accepted (exactly one is required)."
            }
            Fault::AcceptsTwoSources => {
                "A non-text part with more than one of url/mediaRef/data is accepted when any one of them is usable (exactly one is required)."
            }
            Fault::AcceptsMissingMimeType => {
                "A non-text part without the required `mimeType` is accepted."
            }
            Fault::AcceptsInvalidBase64 => "Inline `data` that is not valid base64 is accepted.",
            Fault::AcceptsNumericContent => {
                "Message content that is neither a string nor an array (a number, an object) is accepted."
            }
            Fault::AcceptsEmptyMessages => {
                "An empty `messages` array is accepted instead of rejected with validation_error."
            }
            Fault::OffByOneLimit => {
                "A part of exactly maxBytesPerPart bytes is rejected (the cap is applied with >=)."
            }
            Fault::IgnoresMaxBytesPerPart => "The advertised maxBytesPerPart is not enforced.",
            Fault::AcceptsLoopbackUrl => {
                "The SSRF guard is off: loopback, private, link-local and metadata URLs are accepted."
            }
            Fault::AcceptsUnknownMediaRef => "A `mediaRef` the host never issued is accepted.",
            Fault::IgnoresAuth => {
                "The configured bearer token is not checked on the ai/call and envelope accept seams."
            }
            Fault::SeamMissing => "Both ai/call seam paths answer 404 not_found.",
            Fault::EnvelopeAcceptsMissingMeta => {
                "The envelope accept seam ignores a missing `meta` at the schema stage and accepts the envelope."
            }
            Fault::EnvelopeInvalidWithoutDetails => {
                "Invalid envelope outcomes carry no `details` array."
            }
            Fault::EnvelopeGatedWithoutAllowedKinds => {
                "Gated envelope outcomes omit `allowedKinds`."
            }
            Fault::EnvelopeBreachAboveCapOnly => {
                "An envelope cap is breached only when current > cap, so an envelope at its cap is accepted."
            }
            Fault::EnvelopeRunBoundaryWins => {
                "runTrustBoundary overrides the envelope's own meta.contentTrust."
            }
            Fault::EnvelopeTsUnchecked => {
                "The format of meta.ts is not checked at all, so `tomorrow` is accepted."
            }
            Fault::EnvelopeUniversalNodeGated => {
                "Universal envelope kinds are gated by nodeAllowedKinds instead of being exempt."
            }
            Fault::EnvelopeHttp400 => {
                "Every non-accepted envelope outcome is sent as HTTP 400 instead of 200."
            }
            Fault::EnvelopePayloadUnchecked => {
                "Universal envelope payloads are not validated against their schemas."
            }
            Fault::EnvelopeWrongCapKind => {
                "Every envelope kind counts envelopesPerTurn, so capKind is always `envelopes`."
            }
            Fault::EnvelopeMissingAccepted => {
                "An accept request without an `envelope` answers 200 {status: accepted} instead of 400."
            }
            Fault::EnvelopeIgnoresHostSupported => {
                "A vendor envelope kind listed in hostSupportedEnvelopes is still gated."
            }
            Fault::EnvelopeDefaultUntrusted => {
                "With no meta.contentTrust and no runTrustBoundary an envelope is untrusted instead of trusted."
            }
            Fault::EnvelopeSeamMissing => "Both envelope accept seam paths answer 404 not_found.",
            Fault::DiscoveryMissingUniversalEnvelopes => {
                "Discovery's supportedEnvelopes lists none of the four universal kinds."
            }
            Fault::DiscoveryWrongSchemaVersion => {
                "Discovery's schemaVersions gives every universal kind version 2 instead of 1."
            }
            Fault::EnvelopeBreachOneEarly => {
                "An envelope cap is breached one envelope early (current + 1 >= cap), so an envelope one below its cap is refused."
            }
            Fault::EnvelopeIgnoresRunBoundary => {
                "runTrustBoundary is ignored: an envelope without its own meta.contentTrust is always trusted."
            }
            Fault::EnvelopeGatesUniversalKinds => {
                "Universal envelope kinds are gated unless hostSupportedEnvelopes lists them, instead of always passing the host kind gate."
            }
            Fault::DiscoveryEnvelopesNotArray => {
                "Discovery's supportedEnvelopes is one comma-separated string instead of an array of strings."
            }
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown fault name; the message lists the valid ones so a typo is self-healing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown fault `{name}`; valid faults: {}", valid_names())]
pub struct UnknownFault {
    pub name: String,
}

fn valid_names() -> String {
    TABLE
        .iter()
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Fault {
    type Err = UnknownFault;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TABLE
            .iter()
            .find(|(_, name)| *name == s)
            .map(|(fault, _)| *fault)
            .ok_or_else(|| UnknownFault { name: s.to_owned() })
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
        assert_eq!(Fault::all().len(), 49);
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
