//! Single-fault variants of the AG-UI reference agent.
//!
//! Each variant breaks exactly ONE requirement of the AG-UI pack and leaves every other
//! behaviour strict, so calibration can prove that each agui case is able to fail. The
//! shape follows the openwop host's [`Fault`](crate::Fault) table.

use crate::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken requirement. See [`AguiFault::description`] for which.
    pub enum AguiFault / UnknownAguiFault, an "AG-UI fault" listed by "serve-reference --profile agui --list-faults" {
        DropsUnknownPart => "drops-unknown-part",
            "A content part of an unknown type (and the legacy `binary` part) is silently dropped and the run completes.";
        CrashOnInvalidBase64 => "crash-on-invalid-base64",
            "A data source whose value is not base64 makes the agent answer 500.";
        CompletesUndeclaredKind => "completes-undeclared-kind",
            "A part of an undeclared kind is silently dropped and the run completes.";
        EventsAfterFinish => "events-after-finish",
            "Every stream goes on after its terminal event (a TEXT_MESSAGE_CONTENT after RUN_FINISHED/RUN_ERROR).";
        NoTerminalEvent => "no-terminal-event",
            "Every stream ends without RUN_FINISHED or RUN_ERROR.";
        FirstEventNotRunStarted => "first-event-not-run-started",
            "Every stream opens with STATE_SNAPSHOT before RUN_STARTED.";
        CrashOnMalformed => "crash-on-malformed",
            "Input that breaks the 1.0 schema makes the agent answer 500 instead of 422.";
        AcceptsMissingMimeType => "accepts-missing-mime-type",
            "A data source without mimeType is accepted (the type is guessed) and the run completes.";
        DropsPartWithoutSource => "drops-part-without-source",
            "A media part without a source is silently dropped and the run completes.";
        DropsUnknownSource => "drops-unknown-source",
            "A part whose source type is unknown is silently dropped and the run completes.";
        CoercesNumericContent => "coerces-numeric-content",
            "User content that is a number is read as text and the run completes.";
        AcceptsInvalidBase64 => "accepts-invalid-base64",
            "A data source whose value is not base64 is passed on undecoded and the run completes.";
        AcceptsNonHttpUrl => "accepts-non-http-url",
            "A url source of any scheme (file://, ftp://, gopher://) is taken as if it were http(s) and the run completes (never opened).";
        AcceptsEmptyContent => "accepts-empty-content",
            "A user message whose content is an empty list is passed to the model as it came and the run completes.";
        AcceptsEmptyText => "accepts-empty-text",
            "An empty text part is passed to the model as it came and the run completes.";
        IgnoresSystemParts => "ignores-system-parts",
            "Content parts on a system or developer message (whose content is a string) are ignored and the run completes on the other messages.";
        AcceptsMismatchedMime => "accepts-mismatched-mime",
            "A data source whose bytes are not its mimeType (a WAV file said to be image/png) is taken as it says.";
        LaxBase64 => "lax-base64",
            "Base64 is decoded as Python's default decoder does: characters outside the alphabet are skipped, so base64 with `*` inserted is taken as the file it encodes.";
        IgnoresMimePrefix => "ignores-mime-prefix",
            "Only the part kind is checked, so a MIME type outside the declared prefixes (audio/mpeg when only audio/wav is declared) completes.";
        ForwardsImagesOnly => "forwards-images-only",
            "Only image parts reach the model; audio, video and document parts are silently dropped and the run completes.";
        TruncatesMedia => "truncates-media",
            "Inline media reach the model cut to their first 64 bytes, silently.";
        InlineSourcesOnly => "inline-sources-only",
            "url and file sources end in RUN_ERROR although they are declared.";
        RefusesStringContent => "refuses-string-content",
            "Plain string user content ends in RUN_ERROR.";
        IgnoresAuth => "ignores-auth",
            "With a token configured, a run without `Authorization` is served as if it carried the right one.";
        ForwardSkipsModel => "forward-skips-model",
            "With an upstream model configured, runs complete without calling the model.";
        ForwardDropsMedia => "forward-drops-media",
            "Only the text of a run reaches the upstream model; every media part is left out.";
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
        ForwardThenErrors => "forward-then-errors",
            "A run with a part of an undeclared kind is forwarded to the upstream model, that part included, and only then ended with RUN_ERROR.";
    }
}

impl HostFault for AguiFault {
    fn needs_upstream(&self) -> bool {
        AguiFault::needs_upstream(*self)
    }
}

impl AguiFault {
    /// Faults of the forwarding path (`forward.rs`): they change nothing unless the
    /// agent has an upstream model, so calibration runs them only in its setups that
    /// forward to a witness.
    pub fn needs_upstream(self) -> bool {
        use AguiFault::*;
        matches!(
            self,
            ForwardSkipsModel
                | ForwardDropsMedia
                | ForwardDropsAudio
                | ForwardDocumentAsImage
                | ForwardWrongMime
                | ForwardTruncatesBytes
                | ForwardReordersParts
                | ForwardThenErrors
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = AguiFault::all().iter().map(|f| f.name()).collect();
        for fault in AguiFault::all() {
            assert_eq!(fault.name().parse::<AguiFault>(), Ok(*fault));
            assert!(fault.description().ends_with('.'), "{fault}");
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), AguiFault::all().len());
        let forwarding: Vec<_> = AguiFault::all()
            .iter()
            .filter(|f| f.needs_upstream())
            .collect();
        assert_eq!(forwarding.len(), 8);
        assert!(forwarding.iter().all(|f| f.name().starts_with("forward-")));
        assert!(
            "nope"
                .parse::<AguiFault>()
                .unwrap_err()
                .to_string()
                .contains("--list-faults")
        );
    }
}
