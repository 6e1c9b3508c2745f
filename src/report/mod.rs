//! Reporters: they consume [`Event`]s and never decide outcomes or exit codes.
//!
//! - [`terminal`]: live lines for a human, in plan order, with a summary.
//! - [`junit`]: JUnit XML for CI gates.
//! - [`json`]: the JSON evidence file, described by `schemas/report.schema.json`.
//! - [`github_summary`]: the verdict as Markdown for a CI job's summary page.
//! - [`html`]: one run as a self-contained HTML page (`--html`).
//! - [`annotations`]: GitHub workflow commands, one per failed or warned case.
//!
//! Events reach the reporters through one [`fanout::FanOut`], which redacts each event
//! once ([`scrub`]); the two file reporters write atomically ([`atomic`]) on
//! `RunFinished`, which arrives even when the run fails or is interrupted.

use crate::event::Event;
use std::path::PathBuf;

pub mod annotations;
pub mod atomic;
pub mod causes;
pub mod evidence;
pub mod fanout;
pub mod github_summary;
pub mod html;
pub mod json;
pub mod junit;
mod junit_strict;
pub mod listing;
mod record;
pub mod rerun;
pub mod scrub;
pub mod terminal;
pub mod verify;

#[cfg(test)]
mod no_secret_leaks;

pub use annotations::AnnotationsReporter;
pub use atomic::{check_writable, write_atomically};
pub use github_summary::GithubSummaryReporter;
pub use html::HtmlReporter;
pub use json::JsonReporter;
pub use junit::JunitReporter;
pub use terminal::{TerminalOptions, TerminalReporter};

/// A reporter could not write its output.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {kind} report to {path}: {source}")]
pub struct ReportError {
    pub kind: &'static str,
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

pub trait Reporter: Send {
    fn handle(&mut self, event: &Event) -> Result<(), ReportError>;
}

// The run drives reporters from a task: each must stay `Send` (checked at compile time).
const _: fn() = || {
    fn is_send<T: Send>() {}
    is_send::<TerminalReporter>();
    is_send::<JunitReporter>();
    is_send::<JsonReporter>();
};

/// How `--strict` and `--require` combine, as one word for headers and properties.
pub(crate) fn mode_label(strict: bool, require: bool) -> &'static str {
    match (strict, require) {
        (false, false) => "default",
        (true, false) => "strict",
        (false, true) => "require",
        (true, true) => "strict+require",
    }
}
