//! Single-fault variants of the reference ACP agent: each breaks exactly ONE rule of
//! the acp pack, so calibration proves every case of the pack can fail.

use crate::fault_catalogue::{HostFault, fault_catalogue};

fault_catalogue! {
    /// One deliberately broken rule. See [`AcpFault::description`] for which.
    pub enum AcpFault / UnknownAcpFault, an "ACP agent fault" listed by "serve-reference --profile acp --list-faults" {
        MalformedInitialize => "malformed-initialize",
            "initialize answers promptCapabilities.image as the string \"yes\" and protocolVersion as a string.";
        DropsImage => "drops-image",
            "Advertises image, accepts image blocks and leaves them out of the model call.";
        AudioAsImage => "audio-as-image",
            "Audio blocks reach the model as images (an image part with the audio's bytes).";
        IgnoresResources => "ignores-resources",
            "Embedded resources are accepted and left out of the model call.";
        DropsPromptText => "drops-prompt-text",
            "The prompt's text blocks never reach the model.";
        AcceptsUnadvertised => "accepts-unadvertised",
            "Blocks of a kind it does not advertise are accepted and passed to the model silently.";
        AcceptsMissingMimeType => "accepts-missing-mime-type",
            "Image and audio blocks without mimeType are accepted (as image/png, audio/wav) and passed on.";
        IgnoresUnknownBlocks => "ignores-unknown-blocks",
            "Blocks of an unknown type are skipped instead of refused.";
        CrashesOnBadBase64 => "crashes-on-bad-base64",
            "A block whose base64 does not decode makes the agent exit 1.";
        NeverAnswersPrompt => "never-answers-prompt",
            "session/prompt is never answered.";
        MalformedFrame => "malformed-frame",
            "session/prompt is answered with a line that is not JSON.";
        IgnoresCancel => "ignores-cancel",
            "session/cancel is ignored: the turn ends with stopReason end_turn.";
        DropsToolImages => "drops-tool-images",
            "Images an MCP tool returns are left out of what the model gets.";
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

/// Its faults are the agent's own: none needs an upstream to show; resizing large
/// images is a faithful transformation, not a fault.
impl HostFault for AcpFault {
    fn is_faithful_transformation(&self) -> bool {
        *self == AcpFault::ResizesLargeToolImages
    }
}

impl AcpFault {
    /// The tool loop's fault this is, if any.
    pub fn tool_fault(self) -> Option<crate::tool_loop::ToolFault> {
        use crate::tool_loop::ToolFault as T;
        Some(match self {
            AcpFault::DropsToolImages => T::DropsImages,
            AcpFault::DropsToolImagesWithStructured => T::DropsImagesWithStructured,
            AcpFault::ClaimsToolImage => T::ClaimsImage,
            AcpFault::ToolAudioAsNote => T::AudioAsNote,
            AcpFault::DropsToolBlobs => T::DropsBlobs,
            AcpFault::DropsToolResults => T::DropsResults,
            AcpFault::ResizesLargeToolImages => T::ResizesLargeImages,
            _ => return None,
        })
    }
}
