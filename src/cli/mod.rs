//! The command-line edge: parse arguments, resolve configuration, dispatch, and turn
//! every error into the documented exit code.

pub mod args;
mod baseline;
mod calibrate;
mod connection;
mod evidence;
mod lint;
mod list;
mod out;
pub mod resolve;
mod run;
mod serve;
mod verify;

use crate::exit;
use crate::scenario::diagnostic::Diagnostic;
use args::{Cli, Command};
use clap::Parser;

/// A failure that ends the command with a specific exit code.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or configuration (exit 2).
    Usage(String),
    /// Scenario files with problems (exit 2).
    Scenarios(Vec<Diagnostic>),
    /// Something outside the target broke (exit 70).
    Internal(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) | CliError::Scenarios(_) => exit::USAGE,
            CliError::Internal(_) => exit::INTERNAL,
        }
    }

    fn print(&self) {
        match self {
            CliError::Usage(m) => out::error_line(format_args!("error: {m}")),
            CliError::Internal(m) => out::error_line(format_args!("internal error: {m}")),
            CliError::Scenarios(diagnostics) => {
                for d in diagnostics {
                    out::error_line(format_args!("{d}\n"));
                }
                let files: std::collections::BTreeSet<&str> =
                    diagnostics.iter().map(|d| d.file.as_str()).collect();
                out::error_line(format_args!(
                    "error: {} problem(s) in {} scenario file(s); nothing was sent",
                    diagnostics.len(),
                    files.len()
                ));
            }
        }
    }
}

pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start the async runtime: {e}")))
}

/// Runs the CLI and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own exit codes: 0 for --help/--version, 2 for usage errors.
            let _ = e.print();
            return e.exit_code();
        }
    };
    let color = resolve::resolve_color(cli.color);
    let result = match cli.command {
        Command::Run(args) => run::run(&args, color),
        Command::List(args) => list::list(&args),
        Command::Lint(args) => lint::lint(&args),
        Command::ServeReference(args) => serve::serve(&args),
        Command::Calibrate(args) => calibrate::calibrate(&args),
        Command::Baseline(args) => baseline::baseline(&args),
        Command::Verify(args) => verify::verify(&args),
        Command::Evidence(args) => evidence::evidence(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            e.print();
            e.exit_code()
        }
    }
}
