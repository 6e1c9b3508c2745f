//! One run of a process: start it, write its one input and close stdin, read stdout as
//! bounded lines while keeping stderr, and end it when it is done, when a bound or
//! `--timeout` is reached, when the run must stop, or (asked for) with a SIGTERM once
//! its first line shows it under way.

use super::command::Command;
use super::environment::Environment;
use super::group::ProcessGroup;
use super::lines::{Line, LineLimits, LineReader, ReadEnd};
use super::stderr::{self, Captured};
use super::terminate;
use crate::stop::{Stop, StopReason};
use std::os::unix::process::ExitStatusExt as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt as _;
use tokio::process::Child;
use tokio::time::Instant;

/// How stderr is kept at most.
pub const MAX_STDERR_BYTES: usize = 64 * 1024;

/// How to run a process once; `T` is what is kept of each stdout line.
pub struct RunOptions<'a, T> {
    pub command: &'a Command,
    pub environment: Environment,
    /// Written on stdin, which is then closed.
    pub input: Vec<u8>,
    pub limits: LineLimits,
    /// The whole run, start to exit (`--timeout`).
    pub timeout: Duration,
    /// Between SIGTERM and SIGKILL.
    pub grace: Duration,
    /// How long a process may take to exit after the line that ends its output.
    pub after_end: Duration,
    pub stop: Stop,
    /// Send SIGTERM as soon as the first stdout line arrives (an abort, sent only once
    /// the process is demonstrably under way).
    pub sigterm_on_first_line: bool,
    /// What is kept of each stdout line: the protocol reads a line once, as it arrives,
    /// and keeps only what it judges on (a flood of lines must not be a flood of memory).
    pub keep: &'a mut (dyn FnMut(Line) -> T + Send + Sync),
    /// A kept line after which the process is expected to exit (a protocol's last message).
    pub ends_output: &'a (dyn Fn(&T) -> bool + Sync),
}

/// How the process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It exited with this code.
    Exited(i32),
    /// A signal ended it (ours, or another).
    Signalled(i32),
    /// Its exit was never seen (it outlived even SIGKILL's wait).
    Unknown,
}

/// Why we ended the process, when we did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndedBy {
    /// `--timeout` passed.
    Timeout,
    /// A bound on stdout was reached.
    Bound,
    /// The run must stop (`--deadline`, Ctrl-C).
    Stop(StopReason),
    /// It did not exit within the grace after the line that ends its output.
    Lingered,
}

/// The abort SIGTERM, when one was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Abort {
    /// Lines read before it was sent.
    pub after_lines: usize,
    /// Whether the process exited within the grace after it (else it was killed).
    pub exited_within_grace: bool,
}

/// Where a run ran. A fresh directory is kept (not deleted) for as long as any clone of
/// this lives: what the process left there (an outbound media file it names) is evidence
/// that is read after the process has ended.
#[derive(Debug, Clone)]
pub struct WorkDir {
    pub path: PathBuf,
    _fresh: Option<Arc<tempfile::TempDir>>,
}

impl WorkDir {
    /// A directory the caller owns (`--target-cwd`, or one made for a test).
    pub fn given(path: PathBuf) -> WorkDir {
        WorkDir { path, _fresh: None }
    }

    fn fresh() -> Result<WorkDir, String> {
        let dir =
            tempfile::tempdir().map_err(|e| format!("cannot make a working directory: {e}"))?;
        Ok(WorkDir {
            path: dir.path().to_path_buf(),
            _fresh: Some(Arc::new(dir)),
        })
    }
}

/// A finished run: what was kept of each stdout line, in order, and how it ended.
#[derive(Debug, Clone)]
pub struct Finished<T> {
    pub lines: Vec<T>,
    pub read_end: ReadEnd,
    pub ending: Ending,
    /// Set when we ended the process (not its own exit).
    pub ended_by: Option<EndedBy>,
    pub abort: Option<Abort>,
    pub stderr: Captured,
    pub elapsed: Duration,
    /// Where it ran (a relative path it printed is relative to this).
    pub workdir: WorkDir,
}

/// Starts `options.command` and runs it to its end. `Err`: it could not be started.
pub async fn run_once<T: Send>(mut options: RunOptions<'_, T>) -> Result<Finished<T>, String> {
    let started = Instant::now();
    let workdir = match &options.command.cwd {
        Some(dir) => WorkDir::given(dir.clone()),
        None => WorkDir::fresh()?,
    };
    let (mut child, mut group) = options.command.start(&workdir.path, &options.environment)?;
    if let Some(mut stdin) = child.stdin.take() {
        let input = options.input.clone();
        // A process that never reads its stdin must not hold the run: the write is its own task.
        tokio::spawn(async move {
            let _ = stdin.write_all(&input).await;
            let _ = stdin.shutdown().await;
        });
    }
    let captured = Arc::new(Mutex::new(Captured::default()));
    let stderr_task = child
        .stderr
        .take()
        .map(|e| tokio::spawn(stderr::capture(e, MAX_STDERR_BYTES, captured.clone())));
    let stdout = child.stdout.take().ok_or("the process has no stdout")?;
    let mut read = Reading {
        reader: LineReader::new(stdout, options.limits),
        lines: Vec::new(),
        deadline: started + options.timeout,
        abort: None,
    };
    let (read_end, mut ended_by) = read.drive(&mut child, &group, &mut options).await;
    if ended_by.is_none() && read_end.is_bound() {
        ended_by = Some(EndedBy::Bound);
    }
    let (ending, outlived) = reap(
        &mut child,
        &group,
        ended_by.is_some(),
        &options,
        read.deadline,
    )
    .await;
    if outlived {
        ended_by = Some(EndedBy::Timeout);
    }
    // Whatever it started and left behind ends with it.
    group.end(options.grace).await;
    if let Some(task) = stderr_task {
        // A child of the process may keep stderr open: take what arrived by then.
        let _ = tokio::time::timeout(options.grace, task).await;
    }
    let stderr = captured.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Ok(Finished {
        lines: read.lines,
        read_end,
        ending,
        ended_by,
        abort: read.abort,
        stderr,
        elapsed: started.elapsed(),
        workdir,
    })
}

struct Reading<R, T> {
    reader: LineReader<R>,
    lines: Vec<T>,
    deadline: Instant,
    abort: Option<Abort>,
}

impl<R: tokio::io::AsyncRead + Unpin, T> Reading<R, T> {
    /// Reads until stdout closes or something ends the process; returns why reading
    /// ended and, when we ended the process, why.
    async fn drive(
        &mut self,
        child: &mut Child,
        group: &ProcessGroup,
        options: &mut RunOptions<'_, T>,
    ) -> (ReadEnd, Option<EndedBy>) {
        let mut abort_until: Option<Instant> = None;
        let mut linger_until: Option<Instant> = None;
        loop {
            let until = [Some(self.deadline), abort_until, linger_until]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(self.deadline);
            tokio::select! {
                next = self.reader.next_line() => match next {
                    Ok(line) => {
                        let line = (options.keep)(line);
                        if (options.ends_output)(&line) && linger_until.is_none() {
                            linger_until = Some(Instant::now() + options.after_end);
                        }
                        self.lines.push(line);
                        if options.sigterm_on_first_line && self.abort.is_none() {
                            terminate::sigterm(child);
                            self.abort = Some(Abort { after_lines: self.lines.len(), exited_within_grace: true });
                            abort_until = Some(Instant::now() + options.grace);
                        }
                    }
                    Err(end) => {
                        if end.is_bound() {
                            terminate::terminate(child, group, options.grace).await;
                        }
                        return (end, None);
                    }
                },
                _ = tokio::time::sleep_until(until) => {
                    let why = if abort_until.is_some_and(|t| t <= Instant::now()) {
                        if let Some(abort) = self.abort.as_mut() {
                            abort.exited_within_grace = false;
                        }
                        let _ = child.start_kill();
                        return (ReadEnd::Eof, None);
                    } else if linger_until.is_some_and(|t| t <= Instant::now()) {
                        EndedBy::Lingered
                    } else {
                        EndedBy::Timeout
                    };
                    terminate::terminate(child, group, options.grace).await;
                    return (ReadEnd::Eof, Some(why));
                }
                reason = options.stop.wait() => {
                    terminate::terminate(child, group, options.grace).await;
                    return (ReadEnd::Eof, Some(EndedBy::Stop(reason)));
                }
            }
        }
    }
}

/// Waits for the exit status: within what is left of the run's time (then ended: the
/// flag says so), or at once after we ended it.
async fn reap<T>(
    child: &mut Child,
    group: &ProcessGroup,
    ended_by_us: bool,
    options: &RunOptions<'_, T>,
    deadline: Instant,
) -> (Ending, bool) {
    let mut outlived = false;
    let waited = if ended_by_us {
        tokio::time::timeout(options.grace, child.wait()).await
    } else {
        match tokio::time::timeout_at(deadline, child.wait()).await {
            Ok(status) => Ok(status),
            Err(_) => {
                // stdout closed but the process lives on past the timeout.
                outlived = true;
                terminate::terminate(child, group, options.grace).await;
                tokio::time::timeout(options.grace, child.wait()).await
            }
        }
    };
    let ending = match waited {
        Ok(Ok(status)) => match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signalled(signal),
            (None, None) => Ending::Unknown,
        },
        _ => Ending::Unknown,
    };
    (ending, outlived)
}

#[cfg(test)]
#[path = "run_tests.rs"]
pub(crate) mod tests;
