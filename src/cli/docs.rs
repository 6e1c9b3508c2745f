//! `mmconform completions SHELL` and `mmconform man [COMMAND]`: generated from the clap
//! definitions, so they never disagree with `--help`.

use super::CliError;
use super::args::{Cli, CompletionsArgs, ManArgs};
use crate::exit::{CONTRACT, Ending, OTHER_COMMANDS};
use clap::CommandFactory;
use clap_mangen::roff::{Roff, bold, roman};
use std::io::Write;

fn print(bytes: &[u8]) -> Result<Ending, CliError> {
    // A closed stdout (`| head`) is the reader's choice, not an error.
    match std::io::stdout().lock().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Internal(format!(
            "cannot write to standard output: {e}"
        ))),
        _ => Ok(Ending::Done),
    }
}

pub fn completions(args: &CompletionsArgs) -> Result<Ending, CliError> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "mmconform", &mut out);
    print(&out)
}

pub fn man(args: &ManArgs) -> Result<Ending, CliError> {
    let mut cli = Cli::command();
    cli.build();
    let page = match &args.command {
        None => cli,
        Some(name) => {
            let names: Vec<&str> = cli
                .get_subcommands()
                .map(|c| c.get_name())
                .filter(|n| *n != "help")
                .collect();
            let hint = crate::suggest::hint(name, names.iter().copied());
            let sub = cli.find_subcommand(name).ok_or_else(|| {
                CliError::Usage(format!(
                    "no command `{name}`{hint} (commands: {})",
                    names.join(", ")
                ))
            })?;
            let full = format!("mmconform-{}", sub.get_name());
            sub.clone().name(full).version(env!("CARGO_PKG_VERSION"))
        }
    };
    render(page)
        .map_err(|e| CliError::Internal(format!("cannot render the man page: {e}")))
        .and_then(|roff| print(roff.as_bytes()))
}

/// clap_mangen's sections, then the exit status and environment.
fn render(page: clap::Command) -> std::io::Result<String> {
    let has_subcommands = page.get_subcommands().next().is_some();
    let examples = (page.get_name() == "mmconform-run").then(super::help_text::run_examples);
    let man = clap_mangen::Man::new(page);
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    if has_subcommands {
        man.render_subcommands_section(&mut out)?;
    }
    let mut roff = Roff::new();
    if let Some(examples) = examples {
        roff.control("SH", ["EXAMPLES"]);
        for line in examples.lines().skip(1) {
            roff.control("nf", [])
                .text([roman(line.trim())])
                .control("fi", []);
        }
    }
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in CONTRACT {
        roff.control("TP", []).text([bold(code.to_string())]);
        roff.text([roman(meaning)]);
    }
    roff.control("PP", []).text([roman(OTHER_COMMANDS)]);
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, meaning) in super::environment::variables() {
        roff.control("TP", []).text([bold(name)]);
        roff.text([roman(meaning)]);
    }
    roff.to_writer(&mut out)?;
    man.render_version_section(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}
