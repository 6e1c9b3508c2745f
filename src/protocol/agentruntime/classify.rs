//! A finished bridge run read through the contract: each stdout line as an
//! `AgentEvent` (or why it is not one), the `done` events, the error and media events,
//! and one bucket: `completed` (a `done`, no error event, exit 0), `errored` (an error
//! event), `broken` (no `done`, a crash, lines that are not events), or `unfinished`
//! (our timeout, a bound on stdout, or the run's stop ended it before a `done`: nothing
//! to judge, so the case is blocked).

use super::bridge;
use crate::process::{EndedBy, Ending, Finished};
use serde_json::{Map, Value};

/// One stdout line as the contract reads it.
pub type Read = Result<(&'static str, Map<String, Value>), String>;

pub struct Observed<'a> {
    pub finished: &'a Finished,
    pub events: Vec<Read>,
}

impl<'a> Observed<'a> {
    pub fn new(finished: &'a Finished) -> Observed<'a> {
        let events = finished.lines.iter().map(bridge::event).collect();
        Observed { finished, events }
    }

    fn of_type(&self, kind: &str) -> impl Iterator<Item = (usize, &Map<String, Value>)> {
        self.events
            .iter()
            .enumerate()
            .filter_map(move |(i, e)| match e {
                Ok((k, map)) if *k == kind => Some((i, map)),
                _ => None,
            })
    }

    /// Line numbers (0-based) of the `done` events.
    pub fn dones(&self) -> Vec<usize> {
        self.of_type("done").map(|(i, _)| i).collect()
    }

    pub fn errors(&self) -> Vec<&Map<String, Value>> {
        self.of_type("error").map(|(_, m)| m).collect()
    }

    pub fn media(&self) -> Vec<&Map<String, Value>> {
        self.of_type("media").map(|(_, m)| m).collect()
    }

    /// The first `done`'s `result`.
    pub fn result(&self) -> Option<&Value> {
        self.of_type("done")
            .next()
            .and_then(|(_, m)| m.get("result"))
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
            _ => None,
        }
    }

    pub fn classification(&self) -> &'static str {
        if self.unfinished().is_some() {
            "unfinished"
        } else if !self.errors().is_empty() {
            "errored"
        } else if self.dones().len() == 1
            && self.exited_zero()
            && self.events.iter().all(Result::is_ok)
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
