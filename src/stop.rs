//! Why a run stops early: the `--deadline` passed or the user pressed Ctrl-C.
//!
//! One watcher task turns SIGINT and the deadline into a value every part of the run
//! can wait on, so a request in flight, a retry's wait and the case loop all end at
//! the same moment instead of each holding on to its own timeout.

use std::fmt;
use tokio::sync::watch;
use tokio::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// `--deadline` passed: undecided cases become `blocked`.
    Deadline,
    /// SIGINT: nothing more is sent; reports are written marked incomplete (exit 130).
    Interrupted,
}

/// The reason of a case Ctrl-C left undecided: it is in every report, blocked.
pub const NEVER_RAN: &str = "interrupted (Ctrl-C) before it ran";

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Deadline => "deadline reached (--deadline)",
            StopReason::Interrupted => "interrupted (Ctrl-C)",
        })
    }
}

/// A handle on the stop signal; cheap to clone.
#[derive(Debug, Clone)]
pub struct Stop {
    rx: watch::Receiver<Option<StopReason>>,
    /// True after a second Ctrl-C: the user wants out now, reports or not.
    abandoned: watch::Receiver<bool>,
    deadline: Option<Instant>,
}

impl Stop {
    /// A signal that never fires (tests, `list`).
    pub fn never() -> Stop {
        let (tx, rx) = watch::channel(None);
        let (abandon, abandoned) = watch::channel(false);
        // Keep the channels open for the life of the program: a closed channel would
        // read as "no signal will ever come", which is also what `wait` assumes.
        std::mem::forget(tx);
        std::mem::forget(abandon);
        Stop {
            rx,
            abandoned,
            deadline: None,
        }
    }

    /// Starts watching SIGINT and `deadline`. Must be called inside the runtime.
    ///
    /// A second Ctrl-C after the first is reported by [`Stop::abandoned`]: the first
    /// one asks for reports, the second means "now" (the CLI ends the process).
    pub fn watch(deadline: Option<Instant>) -> Stop {
        let (tx, rx) = watch::channel(None);
        let (abandon, abandoned) = watch::channel(false);
        tokio::spawn(async move {
            let until_deadline = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = until_deadline => {
                    let _ = tx.send(Some(StopReason::Deadline));
                    if tokio::signal::ctrl_c().await.is_err() {
                        return;
                    }
                }
            }
            let _ = tx.send(Some(StopReason::Interrupted));
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = abandon.send(true);
                // Nobody may be left to receive it: keep the value readable anyway.
                std::mem::forget(abandon);
            }
        });
        Stop {
            rx,
            abandoned,
            deadline,
        }
    }

    /// Resolves after a second Ctrl-C (never, if none can come).
    pub async fn abandoned(&self) {
        let mut rx = self.abandoned.clone();
        if rx.wait_for(|abandoned| *abandoned).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The reason, once the run must stop.
    pub fn reason(&self) -> Option<StopReason> {
        *self.rx.borrow()
    }

    /// Resolves when the run must stop (never, if no signal can come).
    pub async fn wait(&self) -> StopReason {
        let mut rx = self.rx.clone();
        // Copy the reason out at once: the channel's guard must not live across an await.
        let fired = rx
            .wait_for(Option::is_some)
            .await
            .map(|reason| reason.unwrap_or(StopReason::Interrupted));
        match fired {
            Ok(reason) => reason,
            Err(_) => std::future::pending().await,
        }
    }

    /// Sleeps until `at`, or returns the stop reason if the run must stop first.
    pub async fn sleep_until(&self, at: Instant) -> Result<(), StopReason> {
        tokio::select! {
            _ = tokio::time::sleep_until(at) => Ok(()),
            reason = self.wait() => Err(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn the_deadline_fires_once_and_wakes_every_waiter() {
        let stop = Stop::watch(Some(Instant::now() + Duration::from_millis(50)));
        assert_eq!(stop.reason(), None);
        let far = Instant::now() + Duration::from_secs(60);
        assert_eq!(stop.sleep_until(far).await, Err(StopReason::Deadline));
        assert_eq!(stop.wait().await, StopReason::Deadline);
        assert_eq!(stop.reason(), Some(StopReason::Deadline));
    }

    #[tokio::test]
    async fn never_lets_sleeps_finish() {
        let stop = Stop::never();
        let soon = Instant::now() + Duration::from_millis(10);
        assert_eq!(stop.sleep_until(soon).await, Ok(()));
        assert_eq!(stop.reason(), None);
    }
}
