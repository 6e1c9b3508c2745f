//! The help texts and values of `run`, `list` and `serve-reference` that list the
//! profiles, built from the registry so they cannot name fewer than there are.

use crate::protocol::TargetKind;
use clap::builder::{PossibleValue, PossibleValuesParser};

/// `run --help`'s examples: the run's own, and each profile's that has one
/// (`Description::example`).
pub(super) fn run_examples() -> String {
    let mut examples = String::from(
        "Examples:
  mmconform run --target reference                     # the embedded reference host (exits 0)
  mmconform run --target http://localhost:8080 --junit junit.xml --report evidence.json
",
    );
    for protocol in crate::registry::protocols() {
        if let Some(example) = protocol.description().example {
            examples.push_str(&format!("  mmconform run {example}\n"));
        }
    }
    examples.push_str(
        "  mmconform run --target $URL --filter '*.rfc0091.*' --filter level:MUST --strict
  mmconform run --target $URL --baseline baseline.yaml  # known failures are xfail; drift exits 5
  mmconform run --config ci/mmconform.toml --junit junit.xml  # the file's options; --junit wins
",
    );
    examples
}

/// `run --help`'s closing text: examples, then the exit codes.
pub(super) fn run_after_help() -> String {
    format!("{}\n\n{}", run_examples(), crate::exit::contract_text())
}

/// `--profile`'s values: every registered protocol, each with its summary.
pub(super) fn profile_values() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::registry::protocols()
            .map(|p| PossibleValue::new(p.name()).help(p.description().summary)),
    )
}

/// `serve-reference --profile`'s values: every reference host's forms, which may
/// include a reference whose run profile does not exist yet.
pub(super) fn serve_values() -> PossibleValuesParser {
    PossibleValuesParser::new(
        crate::registry::serve_forms()
            .into_iter()
            .map(|(form, _)| PossibleValue::new(form.profile).help(form.help)),
    )
}

/// `--target`'s help: what the URL is for each profile, and the variables.
pub(super) fn target_help() -> String {
    let mut what: Vec<(Vec<&str>, &str)> = Vec::new();
    let mut variables: Vec<(&str, Vec<&str>)> = Vec::new();
    for protocol in crate::registry::protocols() {
        let TargetKind::Url(url) = &protocol.description().target else {
            continue;
        };
        if let Some(text) = url.what {
            match what.iter_mut().find(|(_, t)| *t == text) {
                Some((names, _)) => names.push(protocol.name()),
                None => what.push((vec![protocol.name()], text)),
            }
        }
        match variables.iter_mut().find(|(v, _)| *v == url.env) {
            Some((_, names)) => names.push(protocol.name()),
            None => variables.push((url.env, vec![protocol.name()])),
        }
    }
    let what: Vec<String> = what
        .iter()
        .map(|(names, text)| format!("{}: {text}", names.join(", ")))
        .collect();
    let variables: Vec<String> = variables
        .iter()
        .map(|(v, names)| format!("{v} ({})", names.join(", ")))
        .collect();
    format!(
        "Host base URL ({}), or `reference` for the embedded reference host. [env: {}]",
        what.join("; "),
        variables.join(", ")
    )
}

/// `--token-env`'s help: the default variable, and each profile's own.
pub(super) fn token_env_help() -> String {
    let default = crate::registry::default_protocol()
        .description()
        .token_env
        .unwrap_or_default();
    let mut own: Vec<(&str, Vec<&str>)> = Vec::new();
    for protocol in crate::registry::protocols() {
        match protocol.description().token_env {
            Some(variable) if variable != default => {
                match own.iter_mut().find(|(v, _)| *v == variable) {
                    Some((_, names)) => names.push(protocol.name()),
                    None => own.push((variable, vec![protocol.name()])),
                }
            }
            _ => {}
        }
    }
    let own: String = own
        .iter()
        .map(|(v, names)| format!("; {}: {v}", names.join(", ")))
        .collect();
    format!("Environment variable holding the bearer token. [default: {default}{own}]")
}
