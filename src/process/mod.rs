//! The bounded child-process client: the peer of [`crate::http`] for targets that are a
//! program rather than a URL. A protocol that speaks stdio (agentruntime's bridge, one
//! process per request) hands it a [`Command`], one input to write on stdin and the
//! [`Limits`] its output is read within; it gets back a [`Finished`] run: the stdout lines
//! as they came, why reading stopped, how the process ended, and its stderr (bounded,
//! redacted). Framing (what a line means) is the protocol's; nothing here parses JSON.
//!
//! Processes run without a shell, in a fresh temporary working directory (unless the
//! command names one), with an allow-list of the parent environment plus what the
//! caller adds ([`environment`]), each leading a process group of its own ([`group`]).
//! A run is ended by `--timeout` (SIGTERM, then SIGKILL after a grace, to the whole
//! group), by the run's [`Stop`](crate::stop::Stop) (`--deadline`, Ctrl-C) and, when
//! the caller asks, by a SIGTERM once the process is demonstrably under way (its first
//! stdout line); whatever the group still holds when the run is over is ended too.

pub mod command;
pub mod environment;
pub mod group;
pub mod lines;
pub mod orphans;
pub mod peer;
pub mod run;
pub mod stderr;
pub mod terminate;

pub use command::Command;
pub use environment::Environment;
pub use lines::{Line, LineLimits, ReadEnd};
pub use peer::{Peer, PeerOptions};
pub use run::{EndedBy, Ending, Finished, RunOptions, run_once};
