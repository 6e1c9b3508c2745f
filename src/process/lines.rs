//! Reading a process's stdout as lines, within the bounds an HTTP body is read with:
//! one line at most `max_line_bytes`, all of them at most `max_total_bytes`, at most
//! `max_lines` lines. A bound reached stops the reading there (the rest is never
//! buffered); the caller decides what that means for its verdict.

use tokio::io::{AsyncRead, AsyncReadExt};

/// The bounds stdout is read within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineLimits {
    pub max_line_bytes: usize,
    pub max_total_bytes: usize,
    pub max_lines: usize,
}

impl LineLimits {
    /// The bounds of a run whose HTTP bodies are read up to `max_body_bytes`: a line
    /// may be as long as a body, all of them together four times that.
    pub fn for_body_cap(max_body_bytes: usize) -> LineLimits {
        LineLimits {
            max_line_bytes: max_body_bytes,
            max_total_bytes: max_body_bytes.saturating_mul(4),
            max_lines: 10_000,
        }
    }
}

/// One line of output, without its newline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line as text; bytes that are not UTF-8 replaced (see `utf8`).
    pub text: String,
    /// False when the line held bytes that are not UTF-8 (binary output).
    pub utf8: bool,
    /// False for a last line the process ended without a newline.
    pub terminated: bool,
}

/// Why reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadEnd {
    /// The process closed its stdout.
    Eof,
    /// A line grew past `max_line_bytes` before its newline.
    LineTooLong(usize),
    /// The output grew past `max_total_bytes`.
    TooMuch(usize),
    /// More than `max_lines` lines.
    TooManyLines(usize),
    /// Reading failed (the pipe broke).
    Failed(String),
}

impl ReadEnd {
    /// Whether a bound (not the process) ended the reading.
    pub fn is_bound(&self) -> bool {
        matches!(
            self,
            ReadEnd::LineTooLong(_) | ReadEnd::TooMuch(_) | ReadEnd::TooManyLines(_)
        )
    }

    pub fn describe(&self) -> String {
        match self {
            ReadEnd::Eof => "stdout closed".into(),
            ReadEnd::LineTooLong(n) => format!("a stdout line longer than {n} bytes"),
            ReadEnd::TooMuch(n) => format!("more than {n} bytes on stdout"),
            ReadEnd::TooManyLines(n) => format!("more than {n} lines on stdout"),
            ReadEnd::Failed(e) => format!("reading stdout failed: {e}"),
        }
    }
}

/// Splits a byte stream into bounded lines.
pub struct LineReader<R> {
    source: R,
    limits: LineLimits,
    pending: Vec<u8>,
    /// How much of `pending` is known to hold no newline (a long line is scanned once).
    scanned: usize,
    total: usize,
    lines: usize,
    ended: Option<ReadEnd>,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(source: R, limits: LineLimits) -> LineReader<R> {
        LineReader {
            source,
            limits,
            pending: Vec::new(),
            scanned: 0,
            total: 0,
            lines: 0,
            ended: None,
        }
    }

    /// The next line, or why there is none (then always the same answer).
    pub async fn next_line(&mut self) -> Result<Line, ReadEnd> {
        loop {
            if let Some(end) = &self.ended {
                return Err(end.clone());
            }
            let found = self.pending[self.scanned..]
                .iter()
                .position(|b| *b == b'\n');
            if let Some(i) = found.map(|i| i + self.scanned) {
                self.scanned = 0;
                let rest = self.pending.split_off(i + 1);
                let mut line = std::mem::replace(&mut self.pending, rest);
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return self.emit(line, true);
            }
            self.scanned = self.pending.len();
            if self.pending.len() > self.limits.max_line_bytes {
                self.ended = Some(ReadEnd::LineTooLong(self.limits.max_line_bytes));
                continue;
            }
            let mut chunk = [0u8; 8192];
            match self.source.read(&mut chunk).await {
                Ok(0) => {
                    self.ended = Some(ReadEnd::Eof);
                    if self.pending.is_empty() {
                        return Err(ReadEnd::Eof);
                    }
                    let line = std::mem::take(&mut self.pending);
                    return self.emit(line, false);
                }
                Ok(n) => {
                    self.total += n;
                    if self.total > self.limits.max_total_bytes {
                        self.ended = Some(ReadEnd::TooMuch(self.limits.max_total_bytes));
                        continue;
                    }
                    self.pending.extend_from_slice(&chunk[..n]);
                }
                Err(e) => self.ended = Some(ReadEnd::Failed(e.to_string())),
            }
        }
    }

    fn emit(&mut self, bytes: Vec<u8>, terminated: bool) -> Result<Line, ReadEnd> {
        self.lines += 1;
        if self.lines > self.limits.max_lines {
            let end = ReadEnd::TooManyLines(self.limits.max_lines);
            self.ended = Some(end.clone());
            return Err(end);
        }
        let (text, utf8) = match String::from_utf8(bytes) {
            Ok(text) => (text, true),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), false),
        };
        Ok(Line {
            text,
            utf8,
            terminated,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: LineLimits = LineLimits {
        max_line_bytes: 16,
        max_total_bytes: 64,
        max_lines: 3,
    };

    async fn read_all(input: &[u8], limits: LineLimits) -> (Vec<Line>, ReadEnd) {
        let mut reader = LineReader::new(input, limits);
        let mut lines = Vec::new();
        loop {
            match reader.next_line().await {
                Ok(line) => lines.push(line),
                Err(end) => return (lines, end),
            }
        }
    }

    #[tokio::test]
    async fn lines_split_on_newlines_and_a_last_unterminated_line_is_kept() {
        let (lines, end) = read_all(b"a\r\nb\nc", LIMITS).await;
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["a", "b", "c"]);
        assert!(lines[1].terminated && !lines[2].terminated);
        assert_eq!(end, ReadEnd::Eof);
    }

    #[tokio::test]
    async fn every_bound_stops_the_reading() {
        let (_, end) = read_all(&[b'x'; 40], LIMITS).await;
        assert_eq!(end, ReadEnd::LineTooLong(16));
        let (lines, end) = read_all(b"1\n2\n3\n4\n", LIMITS).await;
        assert_eq!((lines.len(), end), (3, ReadEnd::TooManyLines(3)));
        let wide = LineLimits {
            max_lines: 100,
            ..LIMITS
        };
        let (_, end) = read_all(&b"0123456789\n".repeat(10), wide).await;
        assert_eq!(end, ReadEnd::TooMuch(64));
        assert!(end.is_bound() && !ReadEnd::Eof.is_bound());
    }

    #[tokio::test]
    async fn a_line_split_over_many_reads_is_whole() {
        let wide = LineLimits {
            max_line_bytes: 100_000,
            max_total_bytes: 200_000,
            max_lines: 10,
        };
        let mut input = vec![b'y'; 50_000];
        input.extend_from_slice(b"\nz\n");
        let (lines, end) = read_all(&input, wide).await;
        assert_eq!(lines[0].text.len(), 50_000);
        assert_eq!(lines[1].text, "z");
        assert_eq!(end, ReadEnd::Eof);
    }

    #[tokio::test]
    async fn binary_output_is_marked_not_utf8() {
        let (lines, _) = read_all(b"\xff\xfe\x00\n{}\n", LIMITS).await;
        assert!(!lines[0].utf8);
        assert!(lines[1].utf8);
    }
}
