//! What the file reporters remember between events until the run finishes.
//!
//! JUnit and JSON are whole documents, so both collect events and write once on
//! `RunFinished`. An interrupted run still sends `RunFinished`; whatever was recorded
//! by then (possibly no discovery, no plan, a gap in the cases) is written as is.

use crate::event::{DiscoverySnapshot, Event, RunInfo, RunSummary};

#[derive(Debug, Default)]
pub struct RunRecord {
    pub run: Option<RunInfo>,
    pub discovery: Option<DiscoverySnapshot>,
    /// `None` until the plan is known (e.g. discovery failed first).
    pub planned: Option<usize>,
    /// Every request the run sent, in order (absent when the run ended before sending).
    pub requests: Option<Vec<crate::event::WireEntry>>,
}

impl RunRecord {
    /// Remember `event`; returns the summary when the run is over and the report is due.
    pub fn record<'e>(&mut self, event: &'e Event) -> Option<&'e RunSummary> {
        match event {
            Event::RunStarted(run) => self.run = Some(run.as_ref().clone()),
            Event::Discovery(snapshot) => self.discovery = Some(snapshot.clone()),
            Event::Planned { total } => self.planned = Some(*total),
            // Each reporter keeps its cases in its own form, built as they arrive.
            Event::CaseFinished { .. } => {}
            Event::RunFinished(summary) => return Some(summary),
            // Every case it blocked carries the reason: nothing more to keep.
            Event::TargetUnusable { .. } => {}
            Event::Wire(entries) => self.requests = Some(entries.clone()),
        }
        None
    }
}
