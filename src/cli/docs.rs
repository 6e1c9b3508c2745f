//! `mmconform completions SHELL` and `mmconform man [COMMAND]`: generated from the clap
//! definitions, so they never disagree with `--help`.

use super::CliError;
use super::args::{Cli, CompletionsArgs, ManArgs};
use crate::exit::{CONTRACT, Ending, OTHER_COMMANDS};
use clap::CommandFactory;
use clap_mangen::roff::{Roff, bold, roman};
use std::io::Write;

/// The environment variables mmconform reads besides each profile's target and token
/// variables (those come from the registry: [`environment`]).
const FIXED_ENVIRONMENT: [(&str, &str); 12] = [
    (
        "MMCONFORM_TARGET_CMD",
        "run, list: the program started as the target when --target-cmd is absent (a --target-cmd profile)",
    ),
    (
        "MMCONFORM_CONFIG",
        "run, list: the project file when --config is absent (else the nearest mmconform.toml up to the repository root)",
    ),
    (
        "OPENWOP_TEST_COMPAT_ENDPOINT",
        "run: the self-hosted endpoint the openwop host is configured with, looked for in its answers (RFC 0108; never printed)",
    ),
    ("OPENWOP_REQUIRE_BEHAVIOR", "run: true means --require"),
    (
        "OPENWOP_OPTED_OUT_PROFILES",
        "run: comma-separated profiles added to --opt-out",
    ),
    (
        "NO_COLOR",
        "no colours with --color auto (when set and not empty)",
    ),
    (
        "GITHUB_STEP_SUMMARY",
        "run: the run's Markdown verdict is appended to this file (GitHub Actions sets it)",
    ),
    (
        "GITHUB_ACTIONS",
        "run: true turns on --annotations github (GitHub Actions sets it)",
    ),
    (
        "HTTP_PROXY",
        "run, list: a proxy requests to a target outside this process may go through (also https_proxy, ALL_PROXY; named in every report)",
    ),
    (
        "NO_PROXY",
        "run, list: hosts reached without the proxy (a loopback target usually belongs here)",
    ),
    (
        "MMCONFORM_WITNESS_URL",
        "set by mmconform for a --target-cmd program run with --witness: the witness's base URL",
    ),
    (
        "MMCONFORM_CASE",
        "set by mmconform for a --target-cmd program: the id of the case it runs for",
    ),
];

/// Every environment variable mmconform reads, for the man page: each profile's target
/// and token variables (from the registry, profiles sharing one named together), then
/// the fixed ones.
pub(super) fn environment() -> Vec<(String, String)> {
    let mut by_variable: Vec<(&'static str, &'static str, Vec<&'static str>)> = Vec::new();
    let mut add =
        |variable: &'static str, what: &'static str, profile: &'static str| match by_variable
            .iter_mut()
            .find(|(v, _, _)| *v == variable)
        {
            Some((_, _, profiles)) => profiles.push(profile),
            None => by_variable.push((variable, what, vec![profile])),
        };
    for protocol in crate::registry::protocols() {
        let description = protocol.description();
        if let Some(variable) = description.target_env() {
            add(variable, "target", protocol.name());
        }
        add(
            crate::registry::token_env(protocol),
            "token",
            protocol.name(),
        );
    }
    let mut out: Vec<(String, String)> = by_variable
        .into_iter()
        .map(|(variable, what, profiles)| {
            let meaning = match what {
                "target" => format!(
                    "run, list: the target of --profile {} when --target is absent",
                    profiles.join(", ")
                ),
                _ => format!(
                    "the token of --profile {} (another variable with --token-env)",
                    profiles.join(", ")
                ),
            };
            (variable.to_string(), meaning)
        })
        .collect();
    out.extend(
        FIXED_ENVIRONMENT
            .iter()
            .map(|(v, m)| (v.to_string(), m.to_string())),
    );
    out
}

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
    let examples = (page.get_name() == "mmconform-run").then_some(super::args::RUN_EXAMPLES);
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
    for (name, meaning) in environment() {
        roff.control("TP", []).text([bold(name)]);
        roff.text([roman(meaning)]);
    }
    roff.to_writer(&mut out)?;
    man.render_version_section(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_profile_s_target_and_token_variables_are_in_the_environment() {
        let listed: Vec<String> = super::environment().into_iter().map(|(v, _)| v).collect();
        for protocol in crate::registry::protocols() {
            let token = crate::registry::token_env(protocol);
            assert!(listed.iter().any(|v| v == token), "{token}");
            if let Some(target) = protocol.description().target_env() {
                assert!(listed.iter().any(|v| v == target), "{target}");
            }
        }
        let mut unique = listed.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), listed.len(), "{listed:?}");
    }
}
