//! The openwop profile (WIRE.md §1): discovery at `/.well-known/openwop`, the callAI
//! conformance seam, RFC 0091 content parts.

pub mod error_body;
pub mod facts;
pub mod part;

/// How request bodies spell parts: the spec's, or the official suite's
/// (`file` + `dataBase64` for documents, WIRE.md §1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Spec,
    Suite,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Spec => "spec",
            Dialect::Suite => "suite",
        }
    }
}

pub const DISCOVERY_PATH: &str = "/.well-known/openwop";

/// The callAI seam path and the extra header for a protocol major version.
pub fn ai_call_seam(major: u8) -> (&'static str, Option<(&'static str, &'static str)>) {
    if major >= 2 {
        (
            "/conformance/seams/sample/ai/call",
            Some(("OpenWOP-Version", "2.0")),
        )
    } else {
        ("/v1/host/sample/ai/call", None)
    }
}

/// The header selecting the v2 discovery root, when asked for.
pub fn discovery_header(major: u8) -> Option<(&'static str, &'static str)> {
    (major >= 2).then_some(("OpenWOP-Version", "2"))
}

/// The conformance profile name the official suite uses for RFC 0091 behaviour.
pub const CALLAI_MULTIMODAL_PROFILE: &str = "openwop-callai-multimodal";
