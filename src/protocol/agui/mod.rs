//! The AG-UI 1.0 protocol (docs/wire.md, "AG-UI"): a `RunAgentInput` POSTed to the agent's own
//! endpoint, answered with an SSE event stream.
//!
//! AG-UI has no discovery document, so what the agent accepts is declared by the user
//! ([`declaration`]) and becomes the planning context (`agui.*`). [`part`] renders a
//! scenario's `$media` into an AG-UI content part, [`run_input`] wraps a scenario body
//! into a complete `RunAgentInput`, [`classify`] turns an answer into one outcome bucket,
//! and [`echo`] compares what an echoing agent says reached its model with what was sent.

pub mod api;
pub mod case;
pub mod classify;
pub mod declaration;
pub mod echo;
pub mod evidence;
pub mod judge;
pub mod lint;
pub mod part;
pub mod run;
pub mod run_input;
pub mod sse;

pub use classify::{StreamClass, StreamEvidence};
pub use declaration::Declaration;

use crate::config::RunConfig;
use crate::protocol::{
    Description, ExpectKey, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind, UrlTarget,
};
use crate::scenario::model::CaseSpec;
use serde_json::Value;
use std::sync::Arc;

/// The scenario endpoint name of an AG-UI run (`request.endpoint: agui-run`).
pub const ENDPOINT: &str = "agui-run";

/// The protocol name scenario files use (`profile: agui`).
pub const PROFILE: &str = "agui";

/// The AG-UI protocol, as the registry (`crate::registry`) lists it.
pub struct Agui;

/// What the AG-UI protocol says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "AG-UI 1.0 agents: a run endpoint answering with an event stream",
    target: TargetKind::Url(UrlTarget {
        env: "AGUI_TARGET_URL",
        what: Some("the agent's run endpoint"),
        appended_path: None,
        as_given: true,
    }),
    token_env: None,
    offline: false,
    example: Some(
        "--profile agui --target http://localhost:8000/agent --accepts image/,application/pdf",
    ),
    declaration: crate::protocol::UserDeclaration::AcceptsOrClaims,
    planned_on: PlannedOn::Declaration,
    media_ref_kinds: &PART_KINDS,
    options: &[],
    run_facts: &[],
    expect_keys: &[&crate::protocol::description::STREAM, &ECHO],
};

impl Protocol for Agui {
    fn description(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        vec![(
            PROFILE.to_string(),
            Some(
                declaration::FACT_NAMES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        )]
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_case(case, raw, base)
    }

    /// Its wire, named by its version: AG-UI runs record no option of their own.
    fn read_report(&self, _report: &Value) -> crate::evidence::input::ReportReading {
        crate::evidence::input::ReportReading {
            wire: Some("AG-UI 1.0".into()),
            ..Default::default()
        }
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        let declaration = Declaration::from_claims(&config.claims)?;
        Ok(Box::new(run::AguiRun::new(config.clone(), declaration)))
    }
}

/// `expect.echo`: an echoing agent's report of what reached its model.
pub static ECHO: ExpectKey = ExpectKey {
    key: "echo",
    about: "compares an echoing agent's report of what reached its model with what was sent",
    check: crate::protocol::description::reads_as::<crate::scenario::model::EchoExpectation>,
};

/// The non-text content-part kinds AG-UI 1.0 defines.
pub const PART_KINDS: [&str; 4] = ["image", "audio", "video", "document"];

/// The source kinds AG-UI 1.0 defines for a non-text part.
pub const SOURCE_KINDS: [&str; 3] = ["data", "url", "file"];

/// The part kind a MIME type belongs to: `image/*` -> image, `audio/*` -> audio,
/// `video/*` -> video, anything else (PDF, text, office files) -> document.
pub fn kind_of_mime(mime: &str) -> &'static str {
    let essence = mime.split(';').next().unwrap_or("").trim();
    let top = essence.split('/').next().unwrap_or("").to_ascii_lowercase();
    match top.as_str() {
        "image" => "image",
        "audio" => "audio",
        "video" => "video",
        _ => "document",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_types_map_to_part_kinds() {
        assert_eq!(kind_of_mime("image/png"), "image");
        assert_eq!(kind_of_mime("IMAGE/"), "image");
        assert_eq!(kind_of_mime("audio/wav; codecs=1"), "audio");
        assert_eq!(kind_of_mime("video/mp4"), "video");
        assert_eq!(kind_of_mime("application/pdf"), "document");
        assert_eq!(kind_of_mime("text/plain"), "document");
    }
}
