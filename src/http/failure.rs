//! Why an exchange produced no answer, and how a transport failure reads in one line.
//! None of this is ever a verdict on the host.

use crate::stop::StopReason;
use std::fmt;

/// Why a send produced no answer to judge. None of these is a verdict on the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// Timeout, refused or reset connection, malformed HTTP.
    Transport(String),
    /// The run's deadline passed or the user interrupted it.
    Stopped(StopReason),
    /// The host kept answering 429/503 with `Retry-After`.
    Unavailable(String),
}

impl fmt::Display for SendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Transport(e) => write!(f, "no answer: {e}"),
            SendError::Stopped(reason) => write!(f, "{reason} before the host answered"),
            SendError::Unavailable(e) => f.write_str(e),
        }
    }
}

/// An attempt that got no answer; `retryable` when none could have been processed.
pub(super) struct Failure {
    pub(super) error: SendError,
    pub(super) retryable: bool,
}

impl From<StopReason> for Failure {
    fn from(reason: StopReason) -> Failure {
        Failure {
            error: SendError::Stopped(reason),
            retryable: false,
        }
    }
}

/// A failure before any answer arrived (refused, reset or closed connection) is worth
/// one more try; a timeout is not (it would only spend the time again), nor is a body
/// that broke off after the status arrived.
pub(super) fn no_answer_at_all(e: &reqwest::Error) -> bool {
    !e.is_timeout() && !e.is_body() && !e.is_decode() && (e.is_connect() || e.is_request())
}

/// A transport failure in one line, with its cause chain (reqwest hides the useful part).
pub(super) fn describe(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else if e.is_body() || e.is_decode() {
        "the body broke off"
    } else if e.is_request() {
        "no response"
    } else {
        "transport error"
    };
    format!("{kind}{}", chain(e))
}

pub(super) fn chain(e: &reqwest::Error) -> String {
    let mut message = String::new();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(&format!(": {s}"));
        source = s.source();
    }
    message
}
