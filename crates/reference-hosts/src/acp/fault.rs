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
    }
}

/// Its faults are the agent's own: none needs an upstream to show.
impl HostFault for AcpFault {}
