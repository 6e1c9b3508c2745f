//! Reporters: they consume [`Event`]s and never decide outcomes or exit codes.

use crate::event::Event;
use std::path::PathBuf;

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
