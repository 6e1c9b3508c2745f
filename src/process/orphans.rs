//! What leaves a started program's process group on purpose (`setsid`, a double fork)
//! is out of reach of the group's signals. On Linux mmconform makes itself the
//! "child subreaper" of everything it starts (`PR_SET_CHILD_SUBREAPER`): such an orphan
//! becomes mmconform's own child instead of init's, and when the run is over every
//! child still there (none is legitimately left then) is ended with its group: SIGTERM,
//! SIGKILL after a short grace, and reaped.

use nix::errno::Errno;
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;
use std::time::{Duration, Instant};

/// How long adopted orphans are given after SIGTERM.
const GRACE: Duration = Duration::from_millis(500);
/// Ending one orphan can orphan its own children in turn: passes made at most.
const PASSES: usize = 8;

/// Makes this process the reaper of the orphans its programs leave. False where that
/// is not possible (not Linux, or refused): the process groups are still ended.
pub fn adopt() -> bool {
    #[cfg(target_os = "linux")]
    {
        nix::sys::prctl::set_child_subreaper(true).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Ends every process this one adopted. Call it when no program of the run is left
/// running (after the runtime that ran them is gone): then each child is an orphan.
pub fn end_adopted() {
    for _ in 0..PASSES {
        let orphans = children();
        if orphans.is_empty() {
            return;
        }
        for &pid in &orphans {
            signal(pid, Signal::SIGTERM);
        }
        let until = Instant::now() + GRACE;
        while Instant::now() < until && orphans.iter().any(|&pid| !reaped(pid)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        for &pid in &orphans {
            signal(pid, Signal::SIGKILL);
            let _ = waitpid(pid, None);
        }
    }
}

/// SIGTERM or SIGKILL to `pid`'s group when it leads one (what it started goes too),
/// else to it alone.
fn signal(pid: Pid, signal: Signal) {
    if nix::unistd::getpgid(Some(pid)) == Ok(pid) {
        let _ = killpg(pid, signal);
    }
    let _ = kill(pid, signal);
}

/// Whether `pid` has exited (and is reaped now).
fn reaped(pid: Pid) -> bool {
    match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
        Ok(nix::sys::wait::WaitStatus::StillAlive) => false,
        Ok(_) | Err(Errno::ECHILD) => true,
        Err(_) => false,
    }
}

/// This process's children, from `/proc` (a child's parent is the fourth field of its
/// `stat`, after a command name that may hold spaces and parentheses).
fn children() -> Vec<Pid> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let (_, rest) = stat.rsplit_once(") ")?;
            let parent = rest.split_whitespace().nth(1)?;
            (parent == me).then(|| Pid::from_raw(pid))
        })
        .collect()
}
