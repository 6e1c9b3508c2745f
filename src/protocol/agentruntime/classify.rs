//! A finished bridge run read through the contract: each stdout line as it was kept
//! (`event.rs`: an `AgentEvent`, or why it is not one), the `done` events, the error and
//! media events, and one bucket: `completed` (a `done`, no error event, exit 0),
//! `errored` (an error event), `broken` (no `done`, a crash, lines that are not events),
//! or `unfinished` (our timeout, a bound on stdout or on a line's JSON, or the run's stop
//! ended it before a `done`: nothing to judge, so the case is blocked).

use super::attachment::Attachment;
use super::event::{Event, EventLine, NotEvent};
use crate::process::{EndedBy, Ending, Finished};
use mmconform_json::bounded::MAX_VALUES;
use serde_json::Value;

/// A bridge run as the contract reads it.
pub type BridgeRun = Finished<EventLine>;

pub struct Observed<'a> {
    pub finished: &'a BridgeRun,
}

impl<'a> Observed<'a> {
    pub fn new(finished: &'a BridgeRun) -> Observed<'a> {
        Observed { finished }
    }

    pub fn lines(&self) -> &'a [EventLine] {
        &self.finished.lines
    }

    fn events(&self) -> impl Iterator<Item = (usize, &'a Event)> {
        self.lines()
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.read.as_ref().ok().map(|e| (i, e)))
    }

    /// Line numbers (0-based) of the `done` events.
    pub fn dones(&self) -> Vec<usize> {
        self.events()
            .filter(|(_, e)| matches!(e, Event::Done { .. }))
            .map(|(i, _)| i)
            .collect()
    }

    /// The error events: whether each has a message, and the first one as shown.
    pub fn errors(&self) -> Vec<(bool, Option<&'a str>)> {
        self.events()
            .filter_map(|(_, e)| match e {
                Event::Error { has_message, shown } => Some((*has_message, shown.as_deref())),
                _ => None,
            })
            .collect()
    }

    /// The media events' items (`None`: a `media` that is not an object).
    pub fn media(&self) -> Vec<Option<&'a Attachment>> {
        self.events()
            .filter_map(|(_, e)| match e {
                Event::Media(item) => Some(item.as_ref()),
                _ => None,
            })
            .collect()
    }

    /// The first `done`'s `result`.
    pub fn result(&self) -> Option<&'a Value> {
        self.events().find_map(|(_, e)| match e {
            Event::Done { result } => result.as_ref(),
            _ => None,
        })
    }

    pub fn exited_zero(&self) -> bool {
        self.finished.ending == Ending::Exited(0)
    }

    /// Why nothing can be judged, when nothing can.
    pub fn unfinished(&self) -> Option<String> {
        let f = self.finished;
        let secs = |d: std::time::Duration| format!("{:.1} s", d.as_secs_f64());
        match f.ended_by {
            Some(EndedBy::Stop(reason)) => Some(format!("the bridge was stopped: {reason}")),
            Some(EndedBy::Bound) => Some(format!(
                "stdout was read up to its bound ({}); the rest is not judged",
                f.read_end.describe()
            )),
            Some(EndedBy::Timeout) if self.dones().is_empty() => Some(format!(
                "the bridge ran past --timeout ({}) before its answer was complete; ended with SIGTERM/SIGKILL",
                secs(f.elapsed)
            )),
            _ => self.unread().map(|line| format!(
                "stdout line {} holds more than {} JSON values: not read (memory bound), so the run is not judged",
                line + 1,
                crate::quoted::thousands(MAX_VALUES)
            )),
        }
    }

    /// The first line left unread for its size in JSON values.
    fn unread(&self) -> Option<usize> {
        self.lines()
            .iter()
            .position(|l| l.read == Err(NotEvent::Unread))
    }

    pub fn classification(&self) -> &'static str {
        if self.unfinished().is_some() {
            "unfinished"
        } else if !self.errors().is_empty() {
            "errored"
        } else if self.dones().len() == 1
            && self.exited_zero()
            && self.lines().iter().all(|l| l.read.is_ok())
        {
            "completed"
        } else {
            "broken"
        }
    }

    /// `exit 0`, `killed by signal 9`, `exit unknown`.
    pub fn ending(&self) -> String {
        match self.finished.ending {
            Ending::Exited(code) => format!("exit {code}"),
            Ending::Signalled(signal) => format!("ended by signal {signal}"),
            Ending::Unknown => "exit status unknown".into(),
        }
    }
}
