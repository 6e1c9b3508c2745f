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

/// This process's children. A child belongs to the thread that started it or, once
/// adopted, to any thread, so every thread's `children` list is read; a kernel without
/// those lists (`CONFIG_PROC_CHILDREN`) has every process's `stat` read instead.
fn children() -> Vec<Pid> {
    children_of_threads().unwrap_or_else(children_from_stat)
}

/// The children listed in `/proc/self/task/<tid>/children`; None where a list is
/// missing.
fn children_of_threads() -> Option<Vec<Pid>> {
    let mut children = Vec::new();
    for thread in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        match std::fs::read_to_string(thread.path().join("children")) {
            Ok(list) => children.extend(
                list.split_whitespace()
                    .filter_map(|pid| pid.parse().ok())
                    .map(Pid::from_raw),
            ),
            // A thread that ended while the folder was read has no list to miss.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !thread.path().exists() => {}
            Err(_) => return None,
        }
    }
    Some(children)
}

/// The processes whose parent is this one, from every process's `stat` (the parent is
/// its fourth field, after a command name that may hold spaces and parentheses).
fn children_from_stat() -> Vec<Pid> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways of listing find a child started here (other tests may start and end
    /// children of their own meanwhile, so only this one is compared).
    #[test]
    fn a_started_child_is_listed_by_the_threads_and_by_stat() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = Pid::from_raw(i32::try_from(child.id()).unwrap());
        let by_threads = children_of_threads();
        let by_stat = children_from_stat();
        child.kill().unwrap();
        child.wait().unwrap();
        if let Some(by_threads) = by_threads {
            assert!(by_threads.contains(&pid), "{by_threads:?} lacks {pid}");
        }
        assert!(by_stat.contains(&pid), "{by_stat:?} lacks {pid}");
    }
}
