//! A long-lived process spoken to both ways (ACP: one agent per run): frames written
//! on its stdin while its stdout is read as bounded lines, stderr kept bounded, and an
//! end that does not trust a closed stdin (SIGTERM, then SIGKILL after a grace, to its
//! whole process group).
//! Like [`run_once`](super::run_once) it frames nothing: a line is the caller's to read.

use super::command::Command;
use super::environment::Environment;
use super::group::ProcessGroup;
use super::lines::{Line, LineLimits, LineReader, ReadEnd};
use super::run::{Ending, MAX_STDERR_BYTES};
use super::stderr::{self, Captured};
use super::terminate;
use std::os::unix::process::ExitStatusExt as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::AsyncWriteExt as _;
use tokio::process::Child;
use tokio::sync::mpsc;

/// How to start a peer.
pub struct PeerOptions<'a> {
    pub command: &'a Command,
    /// The allow-list, `--target-env` and the protocol's own (`MMCONFORM_WITNESS_URL`).
    pub environment: Environment,
    pub limits: LineLimits,
}

/// A running process and both of its directions.
pub struct Peer {
    child: Child,
    group: ProcessGroup,
    to_stdin: Option<mpsc::UnboundedSender<Vec<u8>>>,
    from_stdout: mpsc::Receiver<Result<Line, ReadEnd>>,
    ended: Option<ReadEnd>,
    stderr: Arc<Mutex<Captured>>,
    /// The working directory made for it, removed when the peer is dropped.
    _dir: Option<tempfile::TempDir>,
}

impl Peer {
    /// Starts the process. `Err`: it could not be started.
    pub fn spawn(options: PeerOptions<'_>) -> Result<Peer, String> {
        let (dir, owned) = match &options.command.cwd {
            Some(dir) => (dir.clone(), None),
            None => {
                let fresh = tempfile::tempdir()
                    .map_err(|e| format!("cannot make a working directory: {e}"))?;
                (fresh.path().to_path_buf(), Some(fresh))
            }
        };
        let (mut child, group) = options.command.start(&dir, &options.environment)?;
        let stdin = child.stdin.take().ok_or("the process has no stdin")?;
        let stdout = child.stdout.take().ok_or("the process has no stdout")?;
        let captured = Arc::new(Mutex::new(Captured::default()));
        if let Some(err) = child.stderr.take() {
            tokio::spawn(stderr::capture(err, MAX_STDERR_BYTES, captured.clone()));
        }
        Ok(Peer {
            child,
            group,
            to_stdin: Some(write_task(stdin)),
            from_stdout: read_task(LineReader::new(stdout, options.limits)),
            ended: None,
            stderr: captured,
            _dir: owned,
        })
    }

    /// Queues `frame` for its stdin; false once stdin is closed or broken. Never waits:
    /// a process that stops reading cannot hold the caller.
    pub fn send(&self, frame: Vec<u8>) -> bool {
        self.to_stdin
            .as_ref()
            .is_some_and(|tx| tx.send(frame).is_ok())
    }

    /// The next stdout line, or why there is none (then always the same answer).
    pub async fn next_line(&mut self) -> Result<Line, ReadEnd> {
        if let Some(end) = &self.ended {
            return Err(end.clone());
        }
        let next = self
            .from_stdout
            .recv()
            .await
            .unwrap_or(Err(ReadEnd::Failed("the reader stopped".into())));
        if let Err(end) = &next {
            self.ended = Some(end.clone());
        }
        next
    }

    /// Whether the process has exited (it may still have unread lines).
    pub fn exited(&mut self) -> Option<Ending> {
        match self.child.try_wait() {
            Ok(Some(status)) => Some(ending_of(status)),
            _ => None,
        }
    }

    /// What stderr said so far.
    pub fn stderr(&self) -> Captured {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Ends the process: stdin closed, SIGTERM, SIGKILL after `grace` (agents often
    /// ignore a closed stdin), and its exit status when one was seen; then whatever is
    /// left of its process group.
    pub async fn close(mut self, grace: Duration) -> (Ending, Captured) {
        self.to_stdin = None;
        let ending = match self.exited() {
            Some(ending) => ending,
            None => {
                terminate::terminate(&mut self.child, &self.group, grace).await;
                match tokio::time::timeout(grace, self.child.wait()).await {
                    Ok(Ok(status)) => ending_of(status),
                    _ => Ending::Unknown,
                }
            }
        };
        self.group.end(grace).await;
        (ending, self.stderr())
    }
}

fn ending_of(status: std::process::ExitStatus) -> Ending {
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signalled(signal),
        (None, None) => Ending::Unknown,
    }
}

/// Frames go out in order from their own task; a broken pipe ends it.
fn write_task(mut stdin: tokio::process::ChildStdin) -> mpsc::UnboundedSender<Vec<u8>> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(async move {
        while let Some(frame) = rx.recv().await {
            if stdin.write_all(&frame).await.is_err() || stdin.flush().await.is_err() {
                return;
            }
        }
        let _ = stdin.shutdown().await;
    });
    tx
}

/// Lines come in from their own task, so a read is never lost to a caller's timeout;
/// the channel is small, so an endless writer waits on us instead of filling memory.
fn read_task<R: tokio::io::AsyncRead + Unpin + Send + 'static>(
    mut reader: LineReader<R>,
) -> mpsc::Receiver<Result<Line, ReadEnd>> {
    let (tx, rx) = mpsc::channel(64);
    tokio::spawn(async move {
        loop {
            let next = reader.next_line().await;
            let end = next.is_err();
            if tx.send(next).await.is_err() || end {
                return;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        Command {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            cwd: None,
        }
    }

    fn limits() -> LineLimits {
        LineLimits::for_body_cap(4096)
    }

    #[tokio::test]
    async fn frames_go_in_and_lines_come_out_while_it_runs() {
        let command = sh("while read l; do echo \"got $l $X\"; done");
        let mut peer = Peer::spawn(PeerOptions {
            command: &command,
            environment: Environment::default().with("X", "x1"),
            limits: limits(),
        })
        .unwrap();
        assert!(peer.send(b"one\n".to_vec()));
        assert_eq!(peer.next_line().await.unwrap().text, "got one x1");
        assert!(peer.send(b"two\n".to_vec()));
        assert_eq!(peer.next_line().await.unwrap().text, "got two x1");
        let (ending, _) = peer.close(Duration::from_secs(2)).await;
        assert_ne!(ending, Ending::Unknown);
    }

    #[tokio::test]
    async fn a_process_ignoring_sigterm_is_killed_after_the_grace() {
        let command = sh("trap '' TERM; echo up; while :; do sleep 1; done");
        let mut peer = Peer::spawn(PeerOptions {
            command: &command,
            environment: Environment {
                unset: vec!["HOME".into()],
                ..Environment::default()
            },
            limits: limits(),
        })
        .unwrap();
        assert_eq!(peer.next_line().await.unwrap().text, "up");
        let started = std::time::Instant::now();
        let (ending, _) = peer.close(Duration::from_millis(300)).await;
        assert_eq!(ending, Ending::Signalled(9));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn closing_ends_what_the_process_started() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let script = format!(
            "(trap '' TERM; exec sleep 1000) </dev/null >/dev/null 2>&1 & echo $! > {}; echo up; cat >/dev/null",
            pidfile.display()
        );
        let mut peer = Peer::spawn(PeerOptions {
            command: &sh(&script),
            environment: Environment::default(),
            limits: limits(),
        })
        .unwrap();
        assert_eq!(peer.next_line().await.unwrap().text, "up");
        peer.close(Duration::from_millis(300)).await;
        let pid = crate::process::run::tests::pid_in(&pidfile);
        assert!(
            !crate::process::run::tests::running(pid),
            "{pid} outlived the peer"
        );
    }

    #[tokio::test]
    async fn endless_output_ends_at_a_bound() {
        let command = sh("yes");
        let mut peer = Peer::spawn(PeerOptions {
            command: &command,
            environment: Environment::default(),
            limits: limits(),
        })
        .unwrap();
        let end = loop {
            if let Err(end) = peer.next_line().await {
                break end;
            }
        };
        assert!(end.is_bound(), "{end:?}");
        peer.close(Duration::from_millis(300)).await;
    }
}
