//! mmconform: a conformance tester for multimodal input to AI agent hosts.
//!
//! Data flows one way (see DESIGN.md):
//! scenario files -> [`scenario`] (load + validate) -> [`plan`] (against discovery)
//! -> [`runner`] (send, judge) -> [`event`]s -> [`report`]ers. The exit code is
//! decided once, in [`exit`].

pub mod baseline;
pub mod bounded_json;
pub mod calibrate;
pub mod canonical;
pub mod cli;
pub mod config;
pub mod event;
pub mod evidence;
pub mod exit;
pub mod media;
pub mod outcome;
pub mod plan;
pub mod profile;
pub mod redact;
pub mod reference;
pub mod report;
pub mod runner;
pub mod scenario;
