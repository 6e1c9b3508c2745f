//! `docs/guide/cli-reference.md`, generated from the clap definitions (the same ones
//! `--help`, the man page and the completions come from), so the page cannot drift from
//! the binary: a test fails when the committed page differs from what this renders, and
//! the same test writes the page when `UPDATE_CLI_REFERENCE` is set (`make cli-reference`).
//! A test rather than a hidden command: clap's completion scripts list hidden commands.

use super::args::Cli;
use crate::exit::{CONTRACT, OTHER_COMMANDS};
use clap::{Arg, CommandFactory};

/// The command that writes the page.
const REGENERATE: &str = "make cli-reference";

/// The whole page.
fn markdown() -> String {
    let mut cli = Cli::command();
    cli.build();
    let mut page = format!(
        "# Command-line reference\n\n\
         <!-- Generated from the clap definitions by `{REGENERATE}`; do not edit by hand. -->\n\n\
         Every command and option of mmconform {}, as `mmconform COMMAND --help` prints them \
         (`mmconform man COMMAND` has the same as a manual page). Options that take a list \
         accept it comma-separated; options marked *repeatable* may be given more than once.\n\n",
        env!("CARGO_PKG_VERSION")
    );
    let commands = visible_commands(&cli);
    page.push_str("| command | what it does |\n|---|---|\n");
    for (path, command) in &commands {
        page.push_str(&format!(
            "| [`{path}`](#{}) | {} |\n",
            path.replace(' ', "-"),
            cell(&about(command))
        ));
    }
    page.push_str("\n## Global options\n\n");
    let globals: Vec<&Arg> = cli.get_arguments().filter(|a| shown(a)).collect();
    page.push_str(&options_table(&globals));
    for (path, command) in &commands {
        page.push_str(&command_section(path, command));
    }
    page.push_str("\n## Exit codes\n\n| code | meaning |\n|---|---|\n");
    for (code, meaning) in CONTRACT {
        page.push_str(&format!("| {code} | {} |\n", cell(meaning)));
    }
    page.push_str(&format!("\n{OTHER_COMMANDS}\n"));
    page.push_str("\n## Environment\n\n| variable | read by |\n|---|---|\n");
    for (name, meaning) in super::environment::variables() {
        page.push_str(&format!("| `{name}` | {} |\n", cell(&meaning)));
    }
    page
}

/// Every command a user can type, depth first, with its full name (`mmconform evidence merge`).
fn visible_commands(cli: &clap::Command) -> Vec<(String, clap::Command)> {
    fn walk(prefix: &str, command: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        for sub in command.get_subcommands() {
            if sub.is_hide_set() || sub.get_name() == "help" {
                continue;
            }
            let path = format!("{prefix} {}", sub.get_name());
            out.push((path.clone(), sub.clone()));
            walk(&path, sub, out);
        }
    }
    let mut out = Vec::new();
    walk("mmconform", cli, &mut out);
    out
}

fn about(command: &clap::Command) -> String {
    command
        .get_about()
        .map(|a| a.to_string())
        .unwrap_or_default()
}

fn command_section(path: &str, command: &clap::Command) -> String {
    let mut command = command.clone();
    let usage = command.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    let mut text = format!(
        "\n## `{path}`\n\n{}\n\n```text\n{}\n```\n",
        command
            .get_long_about()
            .map(|a| a.to_string())
            .unwrap_or_else(|| about(&command)),
        usage.trim()
    );
    let positionals: Vec<&Arg> = command
        .get_positionals()
        .filter(|a| shown(a) && !a.is_global_set())
        .collect();
    if !positionals.is_empty() {
        text.push_str("\n**Arguments**\n\n");
        text.push_str(&options_table(&positionals));
    }
    // Headings in the order their first option appears, as `--help` shows them.
    let mut headings: Vec<Option<&str>> = Vec::new();
    let options: Vec<&Arg> = command
        .get_arguments()
        .filter(|a| shown(a) && !a.is_positional() && !a.is_global_set())
        .collect();
    for arg in &options {
        if !headings.contains(&arg.get_help_heading()) {
            headings.push(arg.get_help_heading());
        }
    }
    for heading in headings {
        let group: Vec<&Arg> = options
            .iter()
            .copied()
            .filter(|a| a.get_help_heading() == heading)
            .collect();
        text.push_str(&format!("\n**{}**\n\n", heading.unwrap_or("Options")));
        text.push_str(&options_table(&group));
    }
    if let Some(after) = command.get_after_long_help().or(command.get_after_help()) {
        text.push_str(&format!("\n```text\n{}\n```\n", after.to_string().trim()));
    }
    text
}

/// Options clap adds itself (`--help`, `--version`) and hidden ones are left out.
fn shown(arg: &Arg) -> bool {
    !arg.is_hide_set() && !matches!(arg.get_id().as_str(), "help" | "version")
}

fn options_table(args: &[&Arg]) -> String {
    let mut table = String::from("| option | meaning |\n|---|---|\n");
    for arg in args {
        table.push_str(&format!(
            "| {} | {} |\n",
            cell(&spelling(arg)),
            meaning(arg)
        ));
    }
    table
}

/// `-j, --concurrency <N>` in backticks.
fn spelling(arg: &Arg) -> String {
    let mut names = Vec::new();
    if let Some(short) = arg.get_short() {
        names.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        names.push(format!("--{long}"));
    }
    let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
    let value = arg
        .get_value_names()
        .map(|names| names.join(" "))
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
    let spelled = match (names.is_empty(), takes_value) {
        (true, _) => format!("<{value}>"),
        (false, true) => format!("{} <{value}>", names.join(", ")),
        (false, false) => names.join(", "),
    };
    format!("`{spelled}`")
}

/// The help text, the values it takes, its default, environment variable and whether it
/// repeats, in one table cell.
fn meaning(arg: &Arg) -> String {
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let mut help = cell(&help);
    // clap drops the closing period of a one-line help; what follows is another sentence.
    if !help.is_empty() && !help.ends_with(['.', '!', '?', ']', ':']) {
        help.push('.');
    }
    let repeats_said = help.to_lowercase().contains("repeatable");
    let mut parts = vec![help];
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| match v.get_help() {
            Some(help) => format!("`{}` ({})", v.get_name(), cell(&help.to_string())),
            None => format!("`{}`", v.get_name()),
        })
        .collect();
    let is_bool = !arg.get_num_args().is_some_and(|n| n.takes_values());
    if !values.is_empty() && !is_bool {
        parts.push(format!("Values: {}.", values.join(", ")));
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !defaults.is_empty() && !is_bool {
        parts.push(format!("Default: `{}`.", defaults.join(",")));
    }
    if let Some(env) = arg.get_env() {
        parts.push(format!("Environment: `{}`.", env.to_string_lossy()));
    }
    if matches!(arg.get_action(), clap::ArgAction::Append)
        && arg.get_value_delimiter().is_none()
        && !repeats_said
    {
        parts.push("Repeatable.".into());
    }
    parts.retain(|p| !p.is_empty());
    parts.join(" ")
}

/// Text made safe for one Markdown table cell: one line, `|` escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the page lives in the repository.
    const PAGE: &str = "docs/guide/cli-reference.md";

    /// The committed page is what the binary renders; regenerate it after changing a flag.
    #[test]
    fn the_committed_cli_reference_is_up_to_date() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PAGE);
        let generated = markdown();
        if std::env::var_os("UPDATE_CLI_REFERENCE").is_some() {
            crate::report::write_atomically(&path, generated.as_bytes()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != generated {
            let first = committed
                .lines()
                .zip(generated.lines())
                .position(|(a, b)| a != b)
                .map_or_else(
                    || "lengths differ".to_string(),
                    |n| format!("first difference at line {}", n + 1),
                );
            panic!("{PAGE} is out of date ({first}): run `{REGENERATE}` and commit the result");
        }
    }

    #[test]
    fn every_visible_command_has_a_section_and_an_index_row() {
        let page = markdown();
        for command in [
            "run",
            "list",
            "serve-reference",
            "evidence merge",
            "witness",
        ] {
            let anchor = format!("(#mmconform-{})", command.replace(' ', "-"));
            assert!(page.contains(&anchor), "{command}");
            assert!(
                page.contains(&format!("## `mmconform {command}`")),
                "{command}"
            );
        }
        assert!(page.contains("`--target <URL|reference>`".replace('|', "\\|").as_str()));
        assert!(page.contains("Environment: `OPENWOP_REQUIRE_BEHAVIOR`."));
    }

    #[test]
    fn a_pipe_in_help_text_cannot_break_the_table() {
        assert_eq!(cell("a | b\n  c"), "a \\| b c");
    }
}
