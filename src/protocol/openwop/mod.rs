//! The openwop protocol (docs/wire.md, "openwop"): discovery at `/.well-known/openwop`,
//! the callAI and envelope-accept conformance seams, RFC 0091 content parts.
//!
//! [`discovery`] fetches the document once and derives the planning facts ([`facts`]);
//! [`run`] probes the seams and sends each case ([`seam_case`]) with its parts spelled
//! by [`part`]; [`lint`] keeps other protocols' spellings out of openwop files.

pub mod api;
pub mod discovery;
pub mod evidence;
pub mod expect;
pub mod facts;
pub mod lint;
pub mod major;
pub mod negotiation;
pub mod options;
pub mod part;
pub mod provider;
pub mod report_reading;
pub mod run;
pub mod seam_case;
pub mod self_hosted;
pub mod self_hosted_case;
pub mod v2_errors;

use crate::config::RunConfig;
use crate::protocol::{
    Description, LintFinding, PlannedOn, Protocol, ProtocolRun, TargetKind, UrlTarget,
};
use crate::scenario::model::CaseSpec;
use serde_json::Value;
use std::sync::Arc;

/// The scenario endpoints an openwop case may send to (`discovery` is judged on the
/// document fetched once per run; the other `discovery-*` refetch it, [`negotiation`]).
pub const ENDPOINTS: [&str; 9] = [
    "ai-call",
    self_hosted::ENDPOINT,
    "envelope-accept",
    "discovery",
    "discovery-v1",
    "discovery-v2",
    "discovery-v2.0",
    "discovery-unknown-major",
    negotiation::REVALIDATE,
];

/// The protocol name scenario files use (`profile: openwop`).
pub const PROFILE: &str = "openwop";

/// The openwop protocol, as the registry (`crate::registry`) lists it.
pub struct Openwop;

/// What the openwop protocol says about itself.
static DESCRIPTION: Description = Description {
    name: PROFILE,
    summary: "openwop hosts: discovery, the callAI and envelope seams",
    target: TargetKind::Url(UrlTarget {
        env: "OPENWOP_BASE_URL",
        what: None,
        appended_path: Some(DISCOVERY_PATH),
        as_given: false,
    }),
    token_env: Some("OPENWOP_API_KEY"),
    offline: true,
    example: None,
    declaration: crate::protocol::UserDeclaration::None {
        own: "the host's discovery document",
    },
    planned_on: PlannedOn::Target,
    media_ref_kinds: &crate::protocol::MEDIA_MODALITIES,
    options: &[
        &options::OPTIONS[0],
        &options::OPTIONS[1],
        &options::OPTIONS[2],
        &options::OPTIONS[3],
    ],
    run_facts: &["dialect", "openwopMajor"],
    expect_keys: &[&expect::SELF_HOSTED],
};

impl Protocol for Openwop {
    fn description(&self) -> &'static Description {
        &DESCRIPTION
    }

    fn vocabulary(&self) -> Vec<(String, Option<Vec<String>>)> {
        vec![
            ("discovery".to_string(), None),
            (
                "openwop".to_string(),
                Some(facts::FACT_NAMES.iter().map(|s| s.to_string()).collect()),
            ),
        ]
    }

    fn lint_case(&self, case: &CaseSpec, raw: &Value, base: &str) -> Vec<LintFinding> {
        lint::lint_case(case, raw, base)
    }

    /// The self-hosted endpoint (RFC 0108) is a secret: every needle it is looked for
    /// by is masked in every output.
    fn check_options(
        &self,
        options: &crate::protocol::options::ProtocolOptions,
    ) -> Result<Vec<String>, String> {
        let read = options::OpenwopOptions::read(options)?;
        Ok(read
            .compat_endpoint
            .map(|endpoint| self_hosted::secrets(&endpoint))
            .unwrap_or_default())
    }

    fn read_report(&self, report: &Value) -> crate::evidence::input::ReportReading {
        report_reading::read(report)
    }

    fn open(&self, config: &Arc<RunConfig>) -> Result<Box<dyn ProtocolRun>, String> {
        let options = options::OpenwopOptions::read(&config.options)?;
        Ok(Box::new(run::OpenwopRun::new(config.clone(), options)))
    }
}

pub use options::Dialect;

pub const DISCOVERY_PATH: &str = "/.well-known/openwop";

/// A conformance seam: where it lives, the header v2 wants, and a harmless request whose
/// 404 (and only 404) means the seam is absent.
#[derive(Debug, Clone, PartialEq)]
pub struct Seam {
    pub path: &'static str,
    pub header: Option<(&'static str, &'static str)>,
    pub probe_body: serde_json::Value,
}

impl Seam {
    /// A POST to this seam with `body`.
    pub fn request(
        &self,
        body: Option<serde_json::Value>,
        auth: bool,
        purpose: String,
    ) -> crate::http::HttpRequest {
        crate::http::HttpRequest {
            purpose,
            method: reqwest::Method::POST,
            path: self.path.to_string(),
            headers: self
                .header
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body,
            auth,
        }
    }
}

/// The seam behind a scenario endpoint name, for a protocol major version (an endpoint
/// tagged `@v2` by an auto run is the v2 seam whatever `major` says).
pub fn seam(endpoint: &str, major: u8) -> Option<Seam> {
    let (endpoint, tagged) = major::split_endpoint(endpoint);
    let v2 = tagged.unwrap_or(major) >= 2;
    let header = v2.then_some(("OpenWOP-Version", "2.0"));
    let (path, probe_body) = match endpoint {
        // RFC 0108: the same seam, the call naming the self-hosted provider.
        "ai-call" | self_hosted::ENDPOINT => (
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
