//! Handing each event to every reporter, redacted once on the way.
//!
//! One reporter's failure silences that reporter only: the others still write (a
//! full disk must not cost the terminal its summary), and the failures are returned
//! for the caller to turn into an exit code.

use super::scrub::scrub_event;
use super::{ReportError, Reporter};
use crate::event::Event;
use crate::redact::Redactor;

pub struct FanOut {
    redactor: Redactor,
    reporters: Vec<(Box<dyn Reporter>, bool)>,
    failures: Vec<ReportError>,
}

impl FanOut {
    pub fn new(redactor: Redactor, reporters: Vec<Box<dyn Reporter>>) -> FanOut {
        FanOut {
            redactor,
            reporters: reporters.into_iter().map(|r| (r, true)).collect(),
            failures: Vec::new(),
        }
    }

    pub fn handle(&mut self, event: &Event) {
        let event = scrub_event(&self.redactor, event);
        let active = self.reporters.iter_mut().filter(|(_, active)| *active);
        // The last event is when the file reporters build and write whole documents:
        // each on its own thread, so the reports cost the slowest of them, not their sum.
        let results: Vec<_> = if matches!(event, Event::RunFinished(_)) {
            std::thread::scope(|scope| {
                let running: Vec<_> = active
                    .map(|(reporter, active)| {
                        let event = &event;
                        (active, scope.spawn(move || reporter.handle(event)))
                    })
                    .collect();
                running
                    .into_iter()
                    .map(|(active, thread)| {
                        let result = thread.join().unwrap_or_else(|panic| {
                            std::panic::resume_unwind(panic);
                        });
                        (active, result)
                    })
                    .collect()
            })
        } else {
            active
                .map(|(reporter, active)| {
                    let result = reporter.handle(&event);
                    (active, result)
                })
                .collect()
        };
        for (active, result) in results {
            if let Err(e) = result {
                *active = false;
                // A closed stdout (`| head`) is the reader's choice, not an error.
                if e.source.kind() != std::io::ErrorKind::BrokenPipe {
                    self.failures.push(e);
                }
            }
        }
    }

    /// The reporters that could not write, once the run is over.
    pub fn finish(self) -> Vec<ReportError> {
        self.failures
    }
}
