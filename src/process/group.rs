//! A started program's process group: every program mmconform starts leads a group of
//! its own (`process_group(0)`), so whatever it starts in turn (a CLI, a helper,
//! `sleep 1000 &`) is ended with it: SIGTERM to the group, SIGKILL after a grace. The
//! group is ended when the program is done (finished, timed out, aborted, stopped) and,
//! failing that, when this handle is dropped (a run abandoned by a second Ctrl-C).

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::time::Duration;
use tokio::process::Child;

/// How often a group is looked at while it is given time to end.
const POLL: Duration = Duration::from_millis(20);
/// How long a SIGKILLed group is waited for.
const KILL_WAIT: Duration = Duration::from_millis(500);

/// The process group a child leads.
#[derive(Debug)]
pub struct ProcessGroup {
    id: Option<Pid>,
}

impl ProcessGroup {
    /// The group `child` leads (it was started with `process_group(0)`).
    pub fn of(child: &Child) -> ProcessGroup {
        let id = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .map(Pid::from_raw);
        ProcessGroup { id }
    }

    /// Sends `signal` to every process of the group; false when none is left.
    pub fn signal(&self, signal: Signal) -> bool {
        self.id.is_some_and(|id| killpg(id, signal).is_ok())
    }

    /// Whether any process of the group is left (a zombie counts until it is reaped).
    pub fn alive(&self) -> bool {
        self.id
            .is_some_and(|id| !matches!(killpg(id, None), Err(Errno::ESRCH)))
    }

    /// Ends what is left of the group: SIGTERM, then SIGKILL once `grace` has passed
    /// with some of it still there. Returns at once when nothing is left.
    pub async fn end(&mut self, grace: Duration) {
        if !self.alive() {
            self.id = None;
            return;
        }
        self.signal(Signal::SIGTERM);
        self.wait_gone(grace).await;
        if self.signal(Signal::SIGKILL) {
            // SIGKILL cannot be refused, but it lands asynchronously; an orphan whose
            // reaper never reaps stays a zombie (which runs nothing): wait a little only.
            self.wait_gone(KILL_WAIT).await;
        }
        self.id = None;
    }

    async fn wait_gone(&self, within: Duration) {
        let until = tokio::time::Instant::now() + within;
        while self.alive() && tokio::time::Instant::now() < until {
            tokio::time::sleep(POLL).await;
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        // Not ended in order (the run was abandoned): nothing of it may outlive us.
        if self.id.is_some() {
            self.signal(Signal::SIGKILL);
        }
    }
}
