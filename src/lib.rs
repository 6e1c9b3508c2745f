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

pub mod baseline;
pub mod bounded_json;
pub mod calibrate;
pub mod canonical;
pub mod cli;
pub mod config;
pub mod console;
pub mod digest;
pub mod embedded_ipv4;
pub mod event;
#[cfg(test)]
pub(crate) mod event_fixtures;
pub mod evidence;
pub mod exit;
pub mod http;
pub mod judge;
pub mod observation;
pub mod outcome;
pub mod plan;
pub mod process;
pub mod protocol;
pub mod protocol_options;
pub mod quoted;
pub mod redact;
pub mod reference;
pub mod registry;
pub mod report;
pub mod request;
pub mod runner;
pub mod scenario;
pub mod stop;
pub mod suggest;
pub mod wire;
pub mod witness;
