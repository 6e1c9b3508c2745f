//! mmconform: a conformance tester for multimodal input to AI agent hosts.
//!
//! Data flows one way (docs/architecture.md):
//! scenario files -> [`scenario`] (load + validate) -> [`plan`] (against discovery)
//! -> [`runner`] (send, judge) -> [`event`]s -> [`report`]ers. The exit code is
//! decided once, in [`exit`].
//!
//! The embedded reference hosts are a package of their own
//! (`mmconform-reference-hosts`, in `crates/reference-hosts`) that never uses this one;
//! only [`cli`] and [`calibrate`] start them, and the runner knows nothing but the URL
//! they listen on. The media both sides generate are the `mmconform_media` crate
//! (`crates/media`).

pub(crate) mod baseline;
pub(crate) mod calibrate;
pub mod cli;
pub(crate) mod config;
pub(crate) mod console;
pub(crate) mod digest;
pub(crate) mod embedded_ipv4;
pub(crate) mod event;
#[cfg(test)]
pub(crate) mod event_fixtures;
pub(crate) mod evidence;
pub(crate) mod exit;
pub(crate) mod http;
pub(crate) mod judge;
pub(crate) mod mcp_server;
pub(crate) mod observation;
pub(crate) mod outcome;
pub(crate) mod plan;
pub(crate) mod process;
pub(crate) mod protocol;
pub(crate) mod protocol_options;
pub(crate) mod quoted;
pub(crate) mod redact;
pub(crate) mod reference;
pub(crate) mod registry;
pub(crate) mod report;
pub(crate) mod request;
pub(crate) mod runner;
pub(crate) mod scenario;
pub(crate) mod stop;
pub(crate) mod suggest;
pub(crate) mod tool_media;
pub(crate) mod wire;
pub(crate) mod witness;

/// What the integration tests (`tests/`) and the fuzz targets (`fuzz/`) drive without
/// the binary: the one public surface besides [`cli::main`]. Everything else is
/// crate-private, so that the compiler names what nothing uses.
pub mod api {
    pub use crate::http::shown_body;
    pub use crate::judge::catalog::SchemaCatalog;
    pub use crate::judge::{Answer, judge_answer};
    pub use crate::plan::{Disposition, PlannedCase, plan};
    pub use crate::redact::Redactor;
    pub use crate::registry::check_options;
    pub use crate::report::json::integrity;
    pub use crate::report::verify::verify;
    pub use crate::request::body::render_body;
    pub use crate::runner::verdict::{Findings, decide};
    pub use crate::scenario::builtin::schema as builtin_schema;
    pub use crate::scenario::load::{SourceText, load};
    pub use crate::scenario::position::source_lines;
    pub use crate::scenario::suite::{Suite, SuiteCase, SuiteOptions, load_suite};
    pub use mmconform_json::bounded::parse as parse_bounded_json;
    pub use mmconform_json::canonical_sha256;

    /// The two profiles whose internals the tests drive, each surface in its own folder.
    pub use crate::protocol::{agui::api as agui, openwop::api as openwop};

    /// The witness's decoding and judging of one model call.
    pub mod witness {
        pub use crate::witness::case::observe;
        pub use crate::witness::rules::judge;
        pub use crate::witness::{Limits, Wire, decode_call};
    }
}
