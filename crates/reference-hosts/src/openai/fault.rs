//! Single-fault variants of the OpenAI-compatible reference server.
//!
//! Each variant breaks exactly ONE requirement of the `openai` pack and leaves every
//! other behaviour strict, so calibration can prove that each case is able to fail.
//! The shape follows the openwop host's [`Fault`](crate::Fault) table.

use crate::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken requirement. See [`OpenaiFault::description`] for which.
    pub enum OpenaiFault / UnknownOpenaiFault, an "OpenAI fault" listed by "serve-reference --profile openai --list-faults" {
        IgnoresImageOnTextModel => "ignores-image-on-text-model",
            "The text-only model answers 200 to a request with an image, silently leaving the image out.";
        DropsUnsupportedParts => "drops-unsupported-parts",
            "Every part the chosen model cannot take (image, audio, file) is silently left out and the request answers 200.";
        DropsMedia => "drops-media",
            "Every valid media part (image, audio, file) is accepted and then left out before the model sees it: the request answers 200 and its usage counts the text alone.";
        CrashOnInvalidBase64 => "crash-on-invalid-base64",
            "Base64 that does not decode (in a data URL or input_audio.data) makes the server answer 500.";
        IgnoresAuth => "ignores-auth",
            "With a token configured, a request without `Authorization` is served as if it carried the right one.";
        AcceptsNonHttpUrl => "accepts-non-http-url",
            "An image_url (or a Responses file_url) of any scheme (file://, ftp://, gopher://) is taken as if it were http(s) (never opened).";
        LaxBase64 => "lax-base64",
            "Base64 is decoded as Python's default decoder does: characters outside the alphabet are skipped, so base64 with `*` inserted is taken as the file it encodes.";
        CrashOnMalformed => "crash-on-malformed",
            "Every malformed request (a shape error that deserves 400 invalid_request_error) is answered 500.";
        AcceptsUnknownPartType => "accepts-unknown-part-type",
            "A content part of an unknown type is silently ignored and the request answers 200.";
        CapabilityRefusal404 => "capability-refusal-404",
            "A part the chosen model cannot take is refused with 404 instead of 400.";
        ErrorBodyNotOpenai => "error-body-not-openai",
            "Every error body is `{\"error\": \"<message>\"}` instead of the OpenAI envelope `{error: {message, type, param, code}}`.";
        RefusesStringContent => "refuses-string-content",
            "Plain string user content, valid on every model, is refused with 400 invalid_type.";
        RefusesTextOnlyArray => "refuses-text-only-array",
            "A user content array holding only text parts is refused with 400 invalid_type, as by servers that take arrays only for media.";
        RefusesDetail => "refuses-detail",
            "Every image_url `detail`, even auto, low and high, is refused with 400 invalid_value.";
        RefusesHttpImageUrl => "refuses-http-image-url",
            "An image_url with an http(s) URL is refused with 400 invalid_value; only data URLs are taken.";
        AcceptsPngOnly => "accepts-png-only",
            "Images other than image/png (JPEG, WEBP, GIF) are refused with unsupported_image_media_type.";
        AcceptsWavOnly => "accepts-wav-only",
            "input_audio with format mp3 is refused with 400 invalid_value; only wav is taken.";
        RefusesFileId => "refuses-file-id",
            "A file part given by file_id is refused with 400 invalid_value, even the id the server holds.";
        CompletionWithoutFinishReason => "completion-without-finish-reason",
            "A non-streamed chat.completion carries `finish_reason: null`.";
        StreamWithoutFinishReason => "stream-without-finish-reason",
            "No chunk of a streamed answer carries a finish_reason.";
        StreamWithoutDone => "stream-without-done",
            "A streamed answer ends without the `data: [DONE]` line.";
        StreamChunkNotJson => "stream-chunk-not-json",
            "One chunk of a streamed answer is cut short, so its data is not valid JSON.";
        ForwardDropsDetail => "forward-drops-detail",
            "The `detail` of an image_url part is left out of the request forwarded to the upstream model.";
        ForwardReplacesFilename => "forward-replaces-filename",
            "A file part reaches the upstream model under an invented filename (`my_file.pdf`) instead of its own.";
        InventsFilename => "invents-filename",
            "A file part with file_data and no filename is taken instead of refused with 400, and reaches the upstream model named `my_file.pdf` (as LiteLLM names it).";
        ForwardAudioAsImage => "forward-audio-as-image",
            "An input_audio part is forwarded to the upstream model as `image_url` with an audio data URL.";
        ForwardSkipsModel => "forward-skips-model",
            "With an upstream configured, an accepted request is answered by the server itself, 200, without calling the upstream model.";
        ForwardUnvalidated => "forward-unvalidated",
            "A request that deserves a 400 (malformed, or a part the model cannot take) is forwarded to the upstream model as it came, and the upstream's answer relayed.";
        ResponsesDropsFileIdPart => "responses-drops-file-id-part",
            "On the Responses door, an input_file given by file_id only is silently skipped and the request answers 200.";
        ResponsesDropsFileUrl => "responses-drops-file-url",
            "On the Responses door, an input_file given by file_url is silently skipped and the request answers 200.";
        ResponsesAcceptsObjectImageUrl => "responses-accepts-object-image-url",
            "On the Responses door, an input_image whose image_url is an object `{url}` (Chat's form) is taken instead of refused with 400.";
        ResponsesSkipsChatParts => "responses-skips-chat-parts",
            "On the Responses door, a Chat-style part (`text`, `image_url`, `file`) is skipped and the request answers 200, so the model gets the caption only.";
        ResponsesStreamWithoutCompleted => "responses-stream-without-completed",
            "A streamed Responses answer ends without its `response.completed` event.";
    }
}

impl HostFault for OpenaiFault {
    fn needs_upstream(&self) -> bool {
        OpenaiFault::needs_upstream(*self)
    }

    /// `responses` is the Responses door; any other name is the Chat door.
    fn acts_at(&self, door: &str) -> bool {
        self.seen_at(door == RESPONSES_DOOR)
    }
}

/// The name [`HostFault::acts_at`] knows the Responses door by.
pub const RESPONSES_DOOR: &str = "responses";

impl OpenaiFault {
    /// Faults of the forwarding path (`forward.rs`): they change nothing unless the
    /// server has an upstream model, so calibration leaves them out until it has one.
    pub fn needs_upstream(self) -> bool {
        use OpenaiFault::*;
        matches!(
            self,
            ForwardDropsDetail
                | ForwardReplacesFilename
                | ForwardAudioAsImage
                | ForwardSkipsModel
                | ForwardUnvalidated
        )
    }
}

/// The front doors a fault acts at, so each profile lists (and calibrates) its own: the
/// validation and forwarding faults act at both, since the Responses door translates
/// into the Chat path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doors {
    /// Chat Completions only (`--profile openai`): it bends Chat's answer form.
    Chat,
    /// Responses only (`--profile openai-responses`): it bends Responses' own form.
    Responses,
    /// Both doors.
    Both,
}

impl OpenaiFault {
    /// The doors the fault acts at.
    pub fn doors(self) -> Doors {
        use OpenaiFault::*;
        match self {
            ResponsesDropsFileIdPart
            | ResponsesDropsFileUrl
            | ResponsesAcceptsObjectImageUrl
            | ResponsesSkipsChatParts
            | ResponsesStreamWithoutCompleted => Doors::Responses,
            // Chat's answer form: the Responses door answers in its own.
            CompletionWithoutFinishReason
            | StreamWithoutFinishReason
            | StreamWithoutDone
            | StreamChunkNotJson => Doors::Chat,
            _ => Doors::Both,
        }
    }

    /// Acts at the Responses door (`responses`), or at the Chat door.
    pub fn seen_at(self, responses: bool) -> bool {
        match self.doors() {
            Doors::Both => true,
            Doors::Chat => !responses,
            Doors::Responses => responses,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = OpenaiFault::all().iter().map(|f| f.name()).collect();
        for fault in OpenaiFault::all() {
            assert_eq!(fault.name().parse::<OpenaiFault>(), Ok(*fault));
            assert!(fault.description().ends_with('.'), "{fault}");
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), OpenaiFault::all().len());
        let forwarding: Vec<_> = OpenaiFault::all()
            .iter()
            .filter(|f| f.needs_upstream())
            .collect();
        assert_eq!(forwarding.len(), 5);
        assert!(forwarding.iter().all(|f| f.name().starts_with("forward-")));
        let err = "nope".parse::<OpenaiFault>().unwrap_err().to_string();
        assert!(err.contains("--profile openai --list-faults"), "{err}");
    }
}
