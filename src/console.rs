//! Printing that survives a closed stream. `println!` panics when stdout is a pipe
//! whose reader went away (`mmconform lint | head -1`); a message nobody can read is
//! not worth a panic, so these drop write errors.

use std::io::Write;

/// A line on stdout.
pub fn line(args: std::fmt::Arguments) {
    let _ = writeln!(std::io::stdout().lock(), "{args}");
}

/// A line on stderr.
pub fn error_line(args: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{args}");
}
