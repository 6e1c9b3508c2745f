//! The openwop profile (WIRE.md §1): discovery at `/.well-known/openwop`, the callAI
//! conformance seam, RFC 0091 content parts.

pub mod evidence;
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

/// A conformance seam: where it lives, the header v2 wants, and a harmless request whose
/// 404 (and only 404) means the seam is absent.
#[derive(Debug, Clone, PartialEq)]
pub struct Seam {
    pub path: &'static str,
    pub header: Option<(&'static str, &'static str)>,
    pub probe_body: serde_json::Value,
}

/// The seam behind a scenario endpoint name, for a protocol major version.
pub fn seam(endpoint: &str, major: u8) -> Option<Seam> {
    let v2 = major >= 2;
    let header = v2.then_some(("OpenWOP-Version", "2.0"));
    let (path, probe_body) = match endpoint {
        "ai-call" => (
            if v2 {
                "/conformance/seams/sample/ai/call"
            } else {
                "/v1/host/sample/ai/call"
            },
            serde_json::json!({"messages": [{"role": "user", "content": "mmconform seam probe"}]}),
        ),
        // An empty body: a present seam answers 400 (no envelope), an absent one 404.
        "envelope-accept" => (
            if v2 {
                "/conformance/seams/sample/envelope/accept"
            } else {
                "/v1/host/sample/envelope/accept"
            },
            serde_json::json!({}),
        ),
        _ => return None,
    };
    Some(Seam {
        path,
        header,
        probe_body,
    })
}

/// The header selecting the v2 discovery root, when asked for.
pub fn discovery_header(major: u8) -> Option<(&'static str, &'static str)> {
    (major >= 2).then_some(("OpenWOP-Version", "2"))
}

/// The conformance profile name the official suite uses for RFC 0091 behaviour.
pub const CALLAI_MULTIMODAL_PROFILE: &str = "openwop-callai-multimodal";
