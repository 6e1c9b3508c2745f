//! Single-fault variants of the A2A reference agent.
//!
//! Each variant breaks exactly ONE requirement of the A2A pack and leaves every other
//! behaviour strict, so calibration can prove that each a2a case is able to fail.

use crate::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken requirement. See [`A2aFault::description`] for which.
    pub enum A2aFault / UnknownA2aFault, an "A2A fault" listed by "serve-reference --profile a2a --list-faults" {
        CardModesNotMediaTypes => "card-modes-not-media-types",
            "The card's defaultInputModes names modes by word (`text`, `image`) instead of media types (`text/plain`, `image/*`).";
        CardNotJson => "card-not-json",
            "The card endpoint answers 200 with an HTML page instead of the card.";
        CardWithoutDefaultInputModes => "card-without-default-input-modes",
            "The card leaves out the required defaultInputModes.";
        CardAtOldPath => "card-at-old-path",
            "The card is served only at the pre-0.3 path /.well-known/agent.json, not /.well-known/agent-card.json.";
        RefusesAdvertised => "refuses-advertised",
            "Every file part is refused with ContentTypeNotSupportedError, even of a type the card lists.";
        RefusesUrlParts => "refuses-url-parts",
            "Every `url` part (0.3: `file.uri`) is refused with -32602; only inline bytes are taken.";
        AcceptsUnadvertised => "accepts-unadvertised",
            "A part of a media type the card does not list is accepted and handed to the model.";
        DropsUnadvertised => "drops-unadvertised",
            "A part of a media type the card does not list is dropped and the send answers success without it.";
        RefusesWithInvalidParams => "refuses-with-invalid-params",
            "A part of a media type the card does not list is refused with -32602 (HTTP+JSON: 400 without ErrorInfo) instead of ContentTypeNotSupportedError.";
        Http415WithoutErrorInfo => "http-415-without-error-info",
            "On HTTP+JSON, A2A errors carry no google.rpc.ErrorInfo, and a media type the card does not list is refused with 415 (as the 1.0.0 text had it).";
        AcceptsMissingMediaType => "accepts-missing-media-type",
            "A file part without mediaType (0.3: mimeType) is accepted, its type guessed from the bytes.";
        AcceptsInvalidBase64 => "accepts-invalid-base64",
            "A `raw` (0.3: `bytes`) value that is not base64 is accepted and passed on as it came.";
        LaxBase64 => "lax-base64",
            "Base64 is decoded as Python's default decoder does: characters outside the alphabet are skipped.";
        AcceptsRawAndUrl => "accepts-raw-and-url",
            "A part carrying both `raw` and `url` (0.3: `bytes` and `uri`) is accepted, the bytes taken.";
        AcceptsV03PartAtV1 => "accepts-v03-part-at-v1",
            "At 1.0, a 0.3-shaped part (`kind: file`, `file: {bytes, mimeType}`) is read as 0.3 and accepted.";
        AcceptsNonHttpUrl => "accepts-non-http-url",
            "A `url` part of any scheme (file://, gopher://) is accepted and passed on (never opened).";
        AcceptsEmptyParts => "accepts-empty-parts",
            "A message with an empty part list is accepted and answered.";
        AcceptsMismatchedMediaType => "accepts-mismatched-media-type",
            "A file part whose bytes are not of its stated mediaType is accepted as the stated type.";
        CrashOnMalformed => "crash-on-malformed",
            "A malformed part makes the agent answer HTTP 500 (JSON-RPC: -32603 Internal error) instead of -32602.";
        AnswersInOtherSpelling => "answers-in-other-spelling",
            "A send is answered in the other version's spelling (at 1.0 a `kind`-tagged task with lower-case states; at 0.3 a `{task}` wrapper with TASK_STATE_* states).";
        IgnoresVersionHeader => "ignores-version-header",
            "An A2A-Version the agent does not support is served as 1.0 instead of refused with VersionNotSupportedError.";
        StreamsWithoutCapability => "streams-without-capability",
            "The card says capabilities.streaming is false, yet SendStreamingMessage streams instead of answering UnsupportedOperationError.";
        BrokenStream => "broken-stream",
            "A streamed send ends after its first event, without the terminal status update or message.";
        TaskNeverEnds => "task-never-ends",
            "Every send answers a task in the working state at once, and the task never ends.";
        GetTaskNotFound => "get-task-not-found",
            "GetTask answers TaskNotFoundError for the tasks the agent created.";
        IgnoresAuth => "ignores-auth",
            "With a token configured, an operation without `Authorization` is served as if it carried the right one.";
        ForwardTextOnly => "forward-text-only",
            "Only the text of a message reaches the upstream model; every file part is left out.";
        ForwardThenRefuse => "forward-then-refuse",
            "With an upstream model configured, a malformed message's text is handed to the model before the message is refused.";
        ForwardSkipsModel => "forward-skips-model",
            "With an upstream model configured, sends are answered without calling the model.";
    }
}

impl HostFault for A2aFault {
    fn needs_upstream(&self) -> bool {
        A2aFault::needs_upstream(*self)
    }
}

impl A2aFault {
    /// Faults that change nothing unless the agent has an upstream model: calibration
    /// runs them only in its setups that forward to a witness.
    pub fn needs_upstream(self) -> bool {
        matches!(
            self,
            A2aFault::ForwardTextOnly | A2aFault::ForwardSkipsModel
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = A2aFault::all().iter().map(|f| f.name()).collect();
        for fault in A2aFault::all() {
            assert_eq!(fault.name().parse::<A2aFault>(), Ok(*fault));
            assert!(fault.description().ends_with('.'), "{fault}");
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), A2aFault::all().len());
    }
}
