//! Ending a process: SIGTERM (what a runtime's abort signal is, and the polite first
//! step of `--timeout`), then SIGKILL when it has not exited within a grace. The abort
//! SIGTERM is the program's alone (a runtime decides how to pass it on); an end sent by
//! mmconform goes to its whole process group.

use super::group::ProcessGroup;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::time::Duration;
use tokio::process::Child;

/// Sends SIGTERM to `child` (if it is still running). False when there was nothing to
/// signal: it had exited, or its id does not fit a pid.
pub fn sigterm(child: &Child) -> bool {
    let Some(id) = child.id().and_then(|id| i32::try_from(id).ok()) else {
        return false;
    };
    kill(Pid::from_raw(id), Signal::SIGTERM).is_ok()
}

/// How a termination went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terminated {
    /// It exited within the grace after SIGTERM.
    WithinGrace,
    /// It did not: it was killed.
    Killed,
}

/// SIGTERM to the group, then SIGKILL to it after `grace` unless `child` exited. The
/// caller still reaps its exit status, and ends what is left of the group.
pub async fn terminate(child: &mut Child, group: &ProcessGroup, grace: Duration) -> Terminated {
    // A program that left its group still gets its own SIGTERM.
    if !group.signal(Signal::SIGTERM) {
        sigterm(child);
    }
    match tokio::time::timeout(grace, child.wait()).await {
        Ok(_) => Terminated::WithinGrace,
        Err(_) => {
            group.signal(Signal::SIGKILL);
            let _ = child.start_kill();
            Terminated::Killed
        }
    }
}
