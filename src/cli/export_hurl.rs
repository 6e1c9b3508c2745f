//! `run --export-hurl FILE`: the run's requests as a hurl file (`crate::http::replay`),
//! each case's request asserting the status the case expects, where hurl can say it.

use crate::event::Event;
use crate::http::replay::{self, ReplayLog};
use crate::report::write_atomically;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

pub struct HurlExport {
    path: PathBuf,
    log: Arc<ReplayLog>,
    /// Case id -> the expected text of its status assertion.
    expected: HashMap<String, String>,
}

impl HurlExport {
    pub fn new(path: PathBuf) -> HurlExport {
        HurlExport {
            path,
            log: Arc::default(),
            expected: HashMap::new(),
        }
    }

    /// The log the run's HTTP client fills.
    pub fn log(&self) -> Arc<ReplayLog> {
        self.log.clone()
    }

    /// Notes the status each finished case expected.
    pub fn observe(&mut self, event: &Event) {
        if let Event::CaseFinished { result, .. } = event
            && let Some(status) = result.assertions.iter().find(|a| a.check == "status")
        {
            self.expected
                .insert(result.id.clone(), status.expected.clone());
        }
    }

    /// Writes the hurl file, and beside it the bodies too large to inline.
    pub fn write(self) -> Result<(), String> {
        let stem = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run.hurl".into());
        let (text, side_files) = replay::render(&self.log.requests(), &self.expected, &stem);
        let cannot = |path: &std::path::Path, e: std::io::Error| {
            format!("--export-hurl: cannot write {}: {e}", path.display())
        };
        for (name, body) in side_files {
            let path = self.path.with_file_name(name);
            let bytes = body.text_within(usize::MAX).unwrap_or_default();
            write_atomically(&path, bytes.as_bytes()).map_err(|e| cannot(&path, e))?;
        }
        write_atomically(&self.path, text.as_bytes()).map_err(|e| cannot(&self.path, e))
    }
}
