//! Single-fault variants of the Anthropic Messages reference server: each breaks
//! exactly ONE requirement of the `anthropic` pack and leaves the rest strict.

use crate::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken requirement. See [`AnthropicFault::description`].
    pub enum AnthropicFault / UnknownAnthropicFault, an "Anthropic fault" listed by "serve-reference --profile anthropic --list-faults" {
        CrashOnUnknownBlock => "crash-on-unknown-block",
            "A content block of an unknown type is answered 500 api_error instead of 400.";
        AcceptsUnknownBlock => "accepts-unknown-block",
            "A content block of an unknown type is silently left out and the request answers 200.";
        AcceptsMismatchedMediaType => "accepts-mismatched-media-type",
            "A base64 source whose bytes are not its media_type is accepted.";
        AcceptsMediaTypeOutsideSet => "accepts-media-type-outside-set",
            "An image media_type other than png, jpeg, gif and webp is accepted.";
        AcceptsEmptyContent => "accepts-empty-content",
            "A message with `content: []` is accepted.";
        AcceptsInvalidBase64 => "accepts-invalid-base64",
            "A base64 source whose data does not decode is accepted.";
        LaxBase64 => "lax-base64",
            "Base64 is decoded as Python's default decoder does: characters outside the alphabet are skipped, so base64 with `*` inserted is taken as the file it encodes.";
        AcceptsNonHttpUrl => "accepts-non-http-url",
            "A url source of any scheme (file://, ftp://, gopher://) is taken as if it were http(s) (never opened).";
        DropsDocuments => "drops-documents",
            "Document blocks are silently left out (of the answer and of the forwarded call) and the request answers 200.";
        IgnoresImageOnTextModel => "ignores-image-on-text-model",
            "The text-only model answers 200 to an image, silently leaving it out.";
        IgnoresDocumentOnTextModel => "ignores-document-on-text-model",
            "The text-only model answers 200 to a document, silently leaving it out.";
        CrashOnMalformed => "crash-on-malformed",
            "Every malformed request (one that deserves 400 invalid_request_error) is answered 500 api_error.";
        IgnoresAuth => "ignores-auth",
            "With a key configured, a request without `x-api-key` is served as if it carried the right one.";
        ErrorBodyNotAnthropic => "error-body-not-anthropic",
            "Every error body is `{\"error\": \"<message>\"}` instead of `{type: error, error: {type, message}}`.";
        StreamWithoutMessageStop => "stream-without-message-stop",
            "A streamed answer ends without the `message_stop` event.";
        RefusesUrlSource => "refuses-url-source",
            "An image or document with a `url` source is refused with 400.";
        RefusesTextDocument => "refuses-text-document",
            "A document with a plain-text source (`type: text`) is refused with 400.";
        AcceptsPngOnly => "accepts-png-only",
            "Images other than image/png (JPEG, GIF, WEBP) are refused with 400.";
        ForwardSkipsModel => "forward-skips-model",
            "With an upstream configured, an accepted request is answered by the server itself without calling the upstream model.";
        ForwardUnvalidated => "forward-unvalidated",
            "A request that deserves a 400 is forwarded to the upstream model as it came, and the upstream's answer relayed.";
    }
}

impl HostFault for AnthropicFault {
    fn needs_upstream(&self) -> bool {
        AnthropicFault::needs_upstream(*self)
    }
}

impl AnthropicFault {
    /// Faults of the forwarding path: nothing changes unless there is an upstream.
    pub fn needs_upstream(self) -> bool {
        matches!(
            self,
            AnthropicFault::ForwardSkipsModel | AnthropicFault::ForwardUnvalidated
        )
    }
}
