//! Single-fault variants of the AG-UI reference agent.
//!
//! Each variant breaks exactly ONE requirement of the AG-UI pack and leaves every other
//! behaviour strict, so calibration can prove that each agui case is able to fail. The
//! shape follows the openwop host's [`Fault`](crate::reference::Fault) table.

use std::fmt;
use std::str::FromStr;

/// One deliberately broken requirement. See [`AguiFault::description`] for which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AguiFault {
    DropsUnknownPart,
    CrashOnInvalidBase64,
    CompletesUndeclaredKind,
    EventsAfterFinish,
    NoTerminalEvent,
    FirstEventNotRunStarted,
    CrashOnMalformed,
    AcceptsMissingMimeType,
    DropsPartWithoutSource,
    DropsUnknownSource,
    CoercesNumericContent,
    AcceptsInvalidBase64,
    IgnoresMimePrefix,
    ForwardsImagesOnly,
    TruncatesMedia,
    InlineSourcesOnly,
    RefusesStringContent,
}

/// Every variant with its kebab-case name, in one table so `all`, `name` and
/// `FromStr` can never disagree.
const TABLE: &[(AguiFault, &str)] = &[
    (AguiFault::DropsUnknownPart, "drops-unknown-part"),
    (AguiFault::CrashOnInvalidBase64, "crash-on-invalid-base64"),
    (
        AguiFault::CompletesUndeclaredKind,
        "completes-undeclared-kind",
    ),
    (AguiFault::EventsAfterFinish, "events-after-finish"),
    (AguiFault::NoTerminalEvent, "no-terminal-event"),
    (
        AguiFault::FirstEventNotRunStarted,
        "first-event-not-run-started",
    ),
    (AguiFault::CrashOnMalformed, "crash-on-malformed"),
    (
        AguiFault::AcceptsMissingMimeType,
        "accepts-missing-mime-type",
    ),
    (
        AguiFault::DropsPartWithoutSource,
        "drops-part-without-source",
    ),
    (AguiFault::DropsUnknownSource, "drops-unknown-source"),
    (AguiFault::CoercesNumericContent, "coerces-numeric-content"),
    (AguiFault::AcceptsInvalidBase64, "accepts-invalid-base64"),
    (AguiFault::IgnoresMimePrefix, "ignores-mime-prefix"),
    (AguiFault::ForwardsImagesOnly, "forwards-images-only"),
    (AguiFault::TruncatesMedia, "truncates-media"),
    (AguiFault::InlineSourcesOnly, "inline-sources-only"),
    (AguiFault::RefusesStringContent, "refuses-string-content"),
];

static ALL: [AguiFault; TABLE.len()] = {
    let mut all = [AguiFault::DropsUnknownPart; TABLE.len()];
    let mut i = 0;
    while i < TABLE.len() {
        all[i] = TABLE[i].0;
        i += 1;
    }
    all
};

impl AguiFault {
    /// Every fault, in a stable order (the order of `--list-faults`).
    pub fn all() -> &'static [AguiFault] {
        &ALL
    }

    /// The stable kebab-case name used on the command line and in test names.
    pub fn name(self) -> &'static str {
        TABLE
            .iter()
            .find(|(fault, _)| *fault == self)
            .map(|(_, name)| *name)
            .expect("every AguiFault variant is in TABLE")
    }

    /// One sentence: which requirement this variant breaks.
    pub fn description(self) -> &'static str {
        match self {
            AguiFault::DropsUnknownPart => {
                "A content part of an unknown type (and the legacy `binary` part) is silently dropped and the run completes."
            }
            AguiFault::CrashOnInvalidBase64 => {
                "A data source whose value is not base64 makes the agent answer 500."
            }
            AguiFault::CompletesUndeclaredKind => {
                "A part of an undeclared kind is silently dropped and the run completes."
            }
            AguiFault::EventsAfterFinish => {
                "Every stream goes on after its terminal event (a TEXT_MESSAGE_CONTENT after RUN_FINISHED/RUN_ERROR)."
            }
            AguiFault::NoTerminalEvent => "Every stream ends without RUN_FINISHED or RUN_ERROR.",
            AguiFault::FirstEventNotRunStarted => {
                "Every stream opens with STATE_SNAPSHOT before RUN_STARTED."
            }
            AguiFault::CrashOnMalformed => {
                "Input that breaks the 1.0 schema makes the agent answer 500 instead of 422."
            }
            AguiFault::AcceptsMissingMimeType => {
                "A data source without mimeType is accepted (the type is guessed) and the run completes."
            }
            AguiFault::DropsPartWithoutSource => {
                "A media part without a source is silently dropped and the run completes."
            }
            AguiFault::DropsUnknownSource => {
                "A part whose source type is unknown is silently dropped and the run completes."
            }
            AguiFault::CoercesNumericContent => {
                "User content that is a number is read as text and the run completes."
            }
            AguiFault::AcceptsInvalidBase64 => {
                "A data source whose value is not base64 is passed on undecoded and the run completes."
            }
            AguiFault::IgnoresMimePrefix => {
                "Only the part kind is checked, so a MIME type outside the declared prefixes (audio/mpeg when only audio/wav is declared) completes."
            }
            AguiFault::ForwardsImagesOnly => {
                "Only image parts reach the model; audio, video and document parts are silently dropped and the run completes."
            }
            AguiFault::TruncatesMedia => {
                "Inline media reach the model cut to their first 64 bytes, silently."
            }
            AguiFault::InlineSourcesOnly => {
                "url and file sources end in RUN_ERROR although they are declared."
            }
            AguiFault::RefusesStringContent => "Plain string user content ends in RUN_ERROR.",
        }
    }
}

impl fmt::Display for AguiFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not in the fault table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown AG-UI fault `{0}` (see `serve-reference --profile agui --list-faults`)")]
pub struct UnknownAguiFault(pub String);

impl FromStr for AguiFault {
    type Err = UnknownAguiFault;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TABLE
            .iter()
            .find(|(_, name)| *name == s.trim())
            .map(|(fault, _)| *fault)
            .ok_or_else(|| UnknownAguiFault(s.to_string()))
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
        assert!(
            "nope"
                .parse::<AguiFault>()
                .unwrap_err()
                .to_string()
                .contains("--list-faults")
        );
    }
}
