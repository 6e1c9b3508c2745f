//! The command-line edge: parse arguments, resolve configuration, dispatch, and turn
//! every error into the documented exit code.

pub mod args;
mod args_tools;
mod baseline;
mod calibrate;
mod colour;
mod connection;
mod destination;
mod docs;
mod environment;
mod evidence;
mod export_hurl;
mod help_text;
mod lint;
mod list;
mod media;
mod model;
mod project;
mod project_declared;
mod protocol_flags;
// Generates docs/guide/cli-reference.md from within its own test (`make cli-reference`).
#[cfg(test)]
mod reference_page;
mod replay;
mod rerun;
pub mod resolve;
mod run;
mod run_witness;
mod serve;
mod target;
mod target_cmd;
mod verify;
mod witness;

use crate::console as out;
use crate::exit::Ending;
use args::{Cli, Command};
use clap::{CommandFactory, FromArgMatches};

/// How a command ends when it cannot go on: an [`Ending`] like any other, so that
/// `?` carries usage, scenario and internal errors to [`main`].
pub type CliError = Ending;

/// What the user is told about how the command ended (a run's own output says the rest).
/// `sends` is whether the command could have sent requests at all (`lint` never does).
fn tell(ending: &Ending, sends: bool) {
    match ending {
        Ending::Usage(m) => out::error_line(format_args!("error: {m}")),
        Ending::Internal(m) => out::error_line(format_args!("internal error: {m}")),
        Ending::ReportsUnwritten(failures) => {
            for failure in failures {
                out::error_line(format_args!("error: {failure}"));
            }
        }
        Ending::Interrupted => out::error_line(format_args!("mmconform: interrupted")),
        Ending::Scenarios(diagnostics) => {
            for d in diagnostics {
                out::error_line(format_args!("{d}\n"));
            }
            let files: std::collections::BTreeSet<&str> =
                diagnostics.iter().map(|d| d.file.as_str()).collect();
            out::error_line(format_args!(
                "error: {} problem(s) in {} file(s){}",
                diagnostics.len(),
                files.len(),
                if sends { "; nothing was sent" } else { "" }
            ));
        }
        Ending::Run(_)
        | Ending::Bridge(_)
        | Ending::Calibrated(_)
        | Ending::Verified(_)
        | Ending::Promoted(_)
        | Ending::Done => {}
    }
}

pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start the async runtime: {e}")))
}

/// The parsed arguments, with the matches that say where each value came from.
fn parse() -> Result<(Cli, clap::ArgMatches), clap::Error> {
    let matches = Cli::command().try_get_matches()?;
    Ok((Cli::from_arg_matches(&matches)?, matches))
}

/// Runs the CLI and returns the process exit code.
pub fn main() -> i32 {
    let (mut cli, matches) = match parse() {
        Ok(parsed) => parsed,
        Err(e) => {
            // clap's own exit codes: 0 for --help/--version, 2 for usage errors.
            let _ = e.print();
            return e.exit_code();
        }
    };
    // The project file fills in what the command line left out (run and list only).
    let project = match (&mut cli.command, matches.subcommand()) {
        (Command::Run(args), Some((_, m))) => project::apply_run(args, m),
        (Command::List(args), Some((_, m))) => project::apply_list(args, m),
        _ => Ok(()),
    };
    if let Err(ending) = project {
        tell(&ending, true);
        return ending.code();
    }
    let color = colour::resolve_color(cli.color);
    let sends = matches!(
        cli.command,
        Command::Run(_) | Command::List(_) | Command::Calibrate(_)
    );
    let result = match cli.command {
        Command::Run(args) => run::run(&args, color),
        Command::List(args) => list::list(&args),
        Command::Lint(args) => lint::lint(&args),
        Command::ServeReference(args) => serve::serve(&args),
        Command::Calibrate(args) => calibrate::calibrate(&args),
        Command::Baseline(args) => baseline::baseline(&args),
        Command::Verify(args) => verify::verify(&args),
        Command::Replay(args) => replay::replay(&args),
        Command::Evidence(args) => evidence::evidence(&args),
        Command::Witness(args) => witness::witness(&args, color),
        Command::Media(args) => media::media(&args),
        Command::Completions(args) => docs::completions(&args),
        Command::Man(args) => docs::man(&args),
    };
    let ending = result.unwrap_or_else(|e| e);
    tell(&ending, sends);
    ending.code()
}
