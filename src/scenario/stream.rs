//! The vocabulary of the stream expectations a scenario file may write (`expect.stream`
//! and `expect.echo`): the buckets an answer is classified into, and the aspects an
//! echo is compared on. Protocols that read event streams classify into these.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The outcome buckets (README, "AG-UI outcome buckets").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StreamClass {
    /// A 4xx before any stream.
    Rejected,
    /// A 5xx: the agent crashed on the input.
    Crashed,
    /// A stream that ended in `RUN_ERROR`.
    RunError,
    /// A stream that ended in `RUN_FINISHED`.
    Completed,
    /// Framing or ordering broken, or the stream ended without a terminal event.
    Broken,
    /// Reading stopped at mmconform's own deadline or read cap, or the transport failed,
    /// before a terminal event: not a verdict on the agent.
    Unfinished,
}

impl StreamClass {
    pub fn as_str(self) -> &'static str {
        match self {
            StreamClass::Rejected => "rejected",
            StreamClass::Crashed => "crashed",
            StreamClass::RunError => "run-error",
            StreamClass::Completed => "completed",
            StreamClass::Broken => "broken",
            StreamClass::Unfinished => "unfinished",
        }
    }
}

impl fmt::Display for StreamClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a case compares (`expect.echo.compare`), one assertion each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EchoAspect {
    /// The sequence of part kinds (text included).
    Kinds,
    /// The source kind of each non-text part.
    Sources,
    /// The decoded size of each inline (data) part.
    Bytes,
    /// The run nonce inside each inline part.
    Nonce,
}

impl EchoAspect {
    pub const ALL: [EchoAspect; 4] = [
        EchoAspect::Kinds,
        EchoAspect::Sources,
        EchoAspect::Bytes,
        EchoAspect::Nonce,
    ];

    pub fn check_name(self) -> &'static str {
        match self {
            EchoAspect::Kinds => "echo.kinds",
            EchoAspect::Sources => "echo.sources",
            EchoAspect::Bytes => "echo.bytes",
            EchoAspect::Nonce => "echo.nonce",
        }
    }
}
