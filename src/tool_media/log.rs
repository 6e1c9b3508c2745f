//! The MCP server's request log: one JSON line per message it received or answered,
//! appended by every server process of a case (an agent may start the server more than
//! once) and read by the run after the turn. It is how "the tool was never called" is
//! told apart from "the medium was lost": the model's calls say what the model was
//! shown, this log what the agent did with the server.
//!
//! A line: `{"at": <ms since the epoch>, "pid": 123, "dir": "in"|"out", "method":
//! "tools/call", "id": 3, "case": "<nonce>", "medium": "png", "note": "..."}`; absent
//! fields are left out. Reading is bounded ([`MAX_BYTES`], [`MAX_ENTRIES`]): a log is
//! written by mmconform's own server, but a hostile agent could start it many times.

use serde::{Deserialize, Serialize};
use std::io::{Read as _, Write as _};
use std::path::Path;

/// Most of a log read.
pub const MAX_BYTES: u64 = 4 * 1024 * 1024;
/// Most entries kept.
pub const MAX_ENTRIES: usize = 2_000;

/// One logged message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Milliseconds since the Unix epoch.
    pub at: u64,
    pub pid: u32,
    /// `in` (from the client) or `out` (our answer).
    pub dir: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The JSON-RPC id, as its JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// `tools/call`: the case and medium its arguments named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medium: Option<String>,
    /// What happened: the protocol version echoed, an error answered, the result sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Entry {
    pub fn now(dir: &str) -> Entry {
        Entry {
            at: now_ms(),
            pid: std::process::id(),
            dir: dir.into(),
            ..Entry::default()
        }
    }
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Appends `entry` as one line (one `write`, so lines of several processes do not
/// interleave). A log that cannot be written is not the agent's fault: the error is
/// returned for the server to say on stderr.
pub fn append(path: &Path, entry: &Entry) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(entry).map_err(std::io::Error::other)?;
    line.push(b'\n');
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(&line)
}

/// What a case's log holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerLog {
    pub entries: Vec<Entry>,
    /// Lines past the bounds, or not an entry.
    pub unread: usize,
    /// Why the log could not be read (none was written: the server never started).
    pub missing: Option<String>,
}

impl ServerLog {
    /// Reads `path` within the bounds; a missing file is a log with nothing in it.
    pub fn read(path: &Path) -> ServerLog {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) => {
                return ServerLog {
                    missing: Some(format!("no request log ({e}): the server never started")),
                    ..ServerLog::default()
                };
            }
        };
        let mut text = String::new();
        let _ = file.take(MAX_BYTES).read_to_string(&mut text);
        ServerLog::parse(&text)
    }

    pub fn parse(text: &str) -> ServerLog {
        let mut log = ServerLog::default();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str::<Entry>(line) {
                Ok(entry) if log.entries.len() < MAX_ENTRIES => log.entries.push(entry),
                _ => log.unread += 1,
            }
        }
        log
    }

    fn received(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.dir == "in")
    }

    #[cfg(test)]
    /// Whether the client sent `initialize`.
    pub fn initialized(&self) -> bool {
        self.received()
            .any(|e| e.method.as_deref() == Some("initialize"))
    }

    #[cfg(test)]
    /// Whether the client listed the tools.
    pub fn listed(&self) -> bool {
        self.received()
            .any(|e| e.method.as_deref() == Some("tools/list"))
    }

    /// The `tools/call` requests for `case`.
    pub fn calls_for<'a>(&'a self, case: &'a str) -> impl Iterator<Item = &'a Entry> {
        self.received().filter(move |e| {
            e.method.as_deref() == Some("tools/call") && e.case.as_deref() == Some(case)
        })
    }

    /// `initialize, tools/list, tools/call (png)`: the methods received, in order,
    /// repeats counted.
    pub fn summary(&self) -> String {
        if let Some(why) = &self.missing {
            return why.clone();
        }
        let mut out: Vec<(String, usize)> = Vec::new();
        for e in self.received() {
            let name = match (&e.method, &e.medium) {
                (Some(m), Some(medium)) => format!("{m} ({medium})"),
                (Some(m), None) => m.clone(),
                (None, _) => "a message without a method".into(),
            };
            match out.last_mut() {
                Some((last, n)) if *last == name => *n += 1,
                _ => out.push((name, 1)),
            }
        }
        if out.is_empty() {
            return "no request".into();
        }
        out.into_iter()
            .map(|(name, n)| if n > 1 { format!("{name} x{n}") } else { name })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_append_and_read_back_and_junk_is_counted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.jsonl");
        assert!(ServerLog::read(&path).missing.is_some());
        for method in ["initialize", "tools/list", "tools/list"] {
            let mut e = Entry::now("in");
            e.method = Some(method.into());
            append(&path, &e).unwrap();
        }
        let mut call = Entry::now("in");
        call.method = Some("tools/call".into());
        call.case = Some("n-c1".into());
        call.medium = Some("png".into());
        append(&path, &call).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"not json\n")
            .unwrap();
        let log = ServerLog::read(&path);
        assert!(log.initialized() && log.listed());
        assert_eq!(log.calls_for("n-c1").count(), 1);
        assert_eq!(log.calls_for("n-c10").count(), 0);
        assert_eq!(log.unread, 1);
        assert_eq!(log.summary(), "initialize, tools/list x2, tools/call (png)");
    }
}
