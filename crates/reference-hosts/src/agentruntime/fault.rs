//! Single-fault variants of the reference AgentRuntime: each breaks exactly ONE rule
//! of the agentruntime pack (bridge protocol v1 and the #385 media contract), so
//! calibration proves every case of the pack can fail.

use crate::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken rule. See [`RuntimeFault::description`] for which.
    pub enum RuntimeFault / UnknownRuntimeFault, an "AgentRuntime fault" listed by "serve-reference --profile agentruntime --list-faults" {
        DropsBase64Only => "drops-base64-only",
            "An attachment that carries only base64 (no filePath) is silently left out of the model call.";
        IgnoresFilePath => "ignores-file-path",
            "An attachment that carries only a filePath is silently left out of the model call.";
        DropsMediaOnResume => "drops-media-on-resume",
            "A run resuming a session (sessionId given) sends only the prompt to the model.";
        PdfAsImage => "pdf-as-image",
            "Documents reach the model as image_url parts instead of file parts.";
        SwallowsPrompt => "swallows-prompt",
            "When media are attached, the prompt text is left out of the model call.";
        SkipsModel => "skips-model",
            "Runs end with a reply without calling the model at all.";
        TruncatesMedia => "truncates-media",
            "Attachments reach the model one byte short.";
        ReencodesImages => "reencodes-images",
            "Images reach the model re-encoded (a PNG as JPEG, any other picture as PNG), as Codex does: the same picture in other bytes, a faithful transformation the delivery cases accept with a note.";
        ImagePlaceholder => "image-placeholder",
            "Images reach the model as the text `[image]` instead of the picture.";
        EmitsUndeclaredMedia => "emits-undeclared-media",
            "Every run emits a media event although mediaCapabilities.emitsOutbound is false.";
        OutboundWithoutMime => "outbound-without-mime",
            "Declaring emitsOutbound, a media event (and its result.media item) carries no mimeType.";
        OutboundFileMissing => "outbound-file-missing",
            "Declaring emitsOutbound, a media event names a filePath that was never written.";
        OutboundBadBase64 => "outbound-bad-base64",
            "Declaring emitsOutbound, a media event's base64 does not decode.";
        OutboundMislabelled => "outbound-mislabelled",
            "Declaring emitsOutbound, a JPEG is sent back labelled image/png.";
        ResultMediaNotList => "result-media-not-list",
            "Declaring emitsOutbound, done's result.media is one MediaAttachment object instead of a list.";
        NoDone => "no-done",
            "Runs end without a done event.";
        TwoDones => "two-dones",
            "Runs end with two done events.";
        NonJsonLine => "non-json-line",
            "A progress line that is not JSON is printed on stdout.";
        LineAfterDone => "line-after-done",
            "A text event is printed after done.";
        ExitsOneAfterDone => "exits-one-after-done",
            "The bridge exits 1 after a clean done.";
        ResultMissingFields => "result-missing-fields",
            "done's result has no sessionId and no durationMs.";
        ErrorWithoutMessage => "error-without-message",
            "Every run reports an error event without a message (before its done).";
        CrashesOnAudio => "crashes-on-audio",
            "An audio attachment makes the bridge exit 1 without a done.";
        ErrorsOnUndeclared => "errors-on-undeclared",
            "An attachment of a type outside acceptsInbound ends the run with an error event.";
        MalformedCapabilities => "malformed-capabilities",
            "describe declares acceptsInbound entries that are neither a `type/` prefix nor a full type.";
        IgnoresAbort => "ignores-abort",
            "SIGTERM is ignored: the run finishes as if nothing happened (done with aborted: false).";
        HangsOnAbort => "hangs-on-abort",
            "SIGTERM makes the bridge stop answering without exiting.";
        DropsToolImages => "drops-tool-images",
            "Images an MCP tool (params.mcpServers) returns are left out of what the model gets.";
        DropsToolImagesWithStructured => "drops-tool-images-with-structured",
            "Images an MCP tool returns are left out when the result also has structuredContent.";
        ClaimsToolImage => "claims-tool-image",
            "An image an MCP tool returns is replaced by a note claiming it was provided.";
        ToolAudioAsNote => "tool-audio-as-note",
            "Audio an MCP tool returns is replaced by a short note naming its type.";
        DropsToolBlobs => "drops-tool-blobs",
            "Embedded resource blobs (a PDF) an MCP tool returns are left out.";
        DropsToolResults => "drops-tool-results",
            "An MCP tool's result reaches the model as an empty tool message.";
        ResizesLargeToolImages => "resizes-large-tool-images",
            "Images an MCP tool returns over 2000 px on their long edge reach the model scaled down to 2000 px: the same picture, a faithful transformation the tool-media cases accept with a note.";
    }
}

impl RuntimeFault {
    /// The tool loop's fault this is, if any.
    pub fn tool_fault(self) -> Option<crate::tool_loop::ToolFault> {
        use crate::tool_loop::ToolFault as T;
        Some(match self {
            RuntimeFault::DropsToolImages => T::DropsImages,
            RuntimeFault::DropsToolImagesWithStructured => T::DropsImagesWithStructured,
            RuntimeFault::ClaimsToolImage => T::ClaimsImage,
            RuntimeFault::ToolAudioAsNote => T::AudioAsNote,
            RuntimeFault::DropsToolBlobs => T::DropsBlobs,
            RuntimeFault::DropsToolResults => T::DropsResults,
            RuntimeFault::ResizesLargeToolImages => T::ResizesLargeImages,
            _ => return None,
        })
    }
}

/// Its faults are the agent's own: none needs an upstream to show; re-encoding images
/// and resizing large tool images are faithful transformations, not faults.
impl HostFault for RuntimeFault {
    fn is_faithful_transformation(&self) -> bool {
        matches!(
            self,
            RuntimeFault::ReencodesImages | RuntimeFault::ResizesLargeToolImages
        )
    }
}
