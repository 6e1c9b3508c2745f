//! The flags of the registered protocols' own options (`--openwop-major`, `--model`,
//! ...), built from their declarations (`OptionSpec`) rather than written here: `run`
//! and `list` flatten [`ProtocolFlags`], whose clap arguments and values come from the
//! registry. An option two protocols share (the model doors' `--model`) is one flag.

use crate::protocol::options::{OptionSpec, Origin};
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use std::collections::BTreeMap;

/// The `--help` heading protocol options are listed under unless they name one.
const TARGET: &str = "Target";

/// Every registered protocol's options once (by name), in registry order.
pub fn option_specs() -> Vec<&'static OptionSpec> {
    let mut specs: Vec<&'static OptionSpec> = Vec::new();
    for protocol in crate::registry::protocols() {
        for spec in protocol.description().options {
            if !specs.iter().any(|s| s.name == spec.name) {
                specs.push(spec);
            }
        }
    }
    specs
}

/// The protocols that take the option `name`, for messages.
pub fn takers(name: &str) -> Vec<&'static str> {
    crate::registry::protocols()
        .filter(|p| p.description().options.iter().any(|s| s.name == name))
        .map(|p| p.name())
        .collect()
}

/// The protocol options given on the command line (or by a variable clap reads), and
/// their defaults, by name.
#[derive(Debug, Clone, Default)]
pub struct ProtocolFlags {
    pub values: BTreeMap<&'static str, (String, Origin)>,
}

impl ProtocolFlags {
    /// Sets `name` as the project file gives it.
    pub fn set_from_file(&mut self, name: &'static str, value: String) {
        self.values.insert(name, (value, Origin::ProjectFile));
    }
}

fn arg(spec: &'static OptionSpec) -> Arg {
    let mut arg = Arg::new(spec.name)
        .long(spec.name)
        .value_name(spec.value_name)
        .help(format!("{}: {}", takers(spec.name).join(", "), spec.help))
        .help_heading(spec.heading.unwrap_or(TARGET));
    if !spec.values.is_empty() {
        arg = arg.value_parser(PossibleValuesParser::new(
            spec.values
                .iter()
                .map(|(value, help)| PossibleValue::new(*value).help(*help)),
        ));
    }
    if let Some(default) = spec.default {
        arg = arg.default_value(default);
    }
    if let Some(env) = spec.env {
        arg = arg.env(env);
    }
    arg
}

impl Args for ProtocolFlags {
    fn augment_args(command: Command) -> Command {
        option_specs()
            .into_iter()
            .filter(|spec| spec.flag)
            .fold(command, |command, spec| command.arg(arg(spec)))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for ProtocolFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut values = BTreeMap::new();
        for spec in option_specs().into_iter().filter(|spec| spec.flag) {
            let Some(value) = matches.get_one::<String>(spec.name) else {
                continue;
            };
            let origin = match matches.value_source(spec.name) {
                Some(ValueSource::CommandLine) => Origin::CommandLine,
                Some(ValueSource::EnvVariable) => Origin::Environment,
                _ => Origin::Default,
            };
            values.insert(spec.name, (value.clone(), origin));
        }
        Ok(ProtocolFlags { values })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_option_is_one_flag_with_one_declaration() {
        let specs = option_specs();
        let mut names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        names.dedup();
        assert_eq!(names.len(), specs.len());
        // Protocols that share a name share the declaration's meaning: same help.
        for protocol in crate::registry::protocols() {
            for spec in protocol.description().options {
                let listed = specs.iter().find(|s| s.name == spec.name).unwrap();
                assert_eq!(listed.help, spec.help, "{}", spec.name);
            }
        }
    }
}
