//! A protocol's own options: each protocol declares what it takes ([`OptionSpec`]: the
//! flag `run` and `list` show, its values and default, its project-file key, its
//! variable), the CLI builds its flags and reads its key from these declarations
//! without knowing whose they are, and hands the run a neutral [`ProtocolOptions`]
//! (name -> value, with where each came from). The protocol reads and checks them when
//! its run opens, and reports them (`ProtocolRun::options`).

use std::collections::BTreeMap;

/// One option a protocol takes.
#[derive(Debug)]
pub struct OptionSpec {
    /// Its name: the flag without dashes (`openwop-major`), and its key in
    /// [`ProtocolOptions`].
    pub name: &'static str,
    /// `run` and `list` take it as `--<name>`; `false`: only from `env`.
    pub flag: bool,
    /// What `--help` calls its value (`auto|1|2`).
    pub value_name: &'static str,
    /// Its `--help` text, after the profiles that take it (the CLI names them); for an
    /// option read only from its variable, what the man page says of the variable.
    pub help: &'static str,
    /// The `--help` heading it is listed under (`None`: Target).
    pub heading: Option<&'static str>,
    /// The values it takes, each with its help; empty: any text.
    pub values: &'static [(&'static str, &'static str)],
    /// Its value when nothing gives one.
    pub default: Option<&'static str>,
    /// The project-file (`mmconform.toml`) key that gives it.
    pub project_key: Option<&'static str>,
    /// The variable that gives it when the command line does not.
    pub env: Option<&'static str>,
}

impl OptionSpec {
    /// A flag option with nothing else: no values listed, no default, no key, no variable.
    pub const fn flag(name: &'static str, value_name: &'static str, help: &'static str) -> Self {
        OptionSpec {
            name,
            flag: true,
            value_name,
            help,
            heading: None,
            values: &[],
            default: None,
            project_key: None,
            env: None,
        }
    }
}

/// Where an option's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Its flag on the command line.
    CommandLine,
    /// Its key in the project file.
    ProjectFile,
    /// Its variable.
    Environment,
    /// Nobody gave it: its declared default.
    Default,
    /// The target said it (the one model an OpenAI-compatible endpoint lists).
    Target,
    /// The embedded reference host the run started (`--target reference`).
    Reference,
    /// A calibration shape.
    Calibration,
}

impl Origin {
    /// Given by the user (not a default, not a host or calibration's own choice).
    pub fn is_given(self) -> bool {
        matches!(
            self,
            Origin::CommandLine | Origin::ProjectFile | Origin::Environment
        )
    }
}

/// An option's value and its origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionValue {
    pub value: String,
    pub origin: Origin,
}

/// The options of a run's protocol, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtocolOptions {
    values: BTreeMap<String, OptionValue>,
}

impl ProtocolOptions {
    /// The option `name`, when anything gave it (its default included).
    pub fn get(&self, name: &str) -> Option<&OptionValue> {
        self.values.get(name)
    }

    /// The value of `name`.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.get(name).map(|v| v.value.as_str())
    }

    /// Sets `name`, replacing what was there.
    pub fn set(&mut self, name: &str, value: impl Into<String>, origin: Origin) {
        let value = value.into();
        self.values
            .insert(name.to_string(), OptionValue { value, origin });
    }

    /// Sets `name` unless something other than its default gave it already.
    pub fn offer(&mut self, name: &str, value: impl Into<String>, origin: Origin) {
        if self.get(name).is_none_or(|v| v.origin == Origin::Default) {
            self.set(name, value, origin);
        }
    }

    /// Every option given, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &OptionValue)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_replaces_a_default_but_not_a_given_value() {
        let mut options = ProtocolOptions::default();
        options.set("a", "default", Origin::Default);
        options.offer("a", "host", Origin::Reference);
        assert_eq!(options.value("a"), Some("host"));
        options.set("b", "user", Origin::CommandLine);
        options.offer("b", "host", Origin::Reference);
        assert_eq!(options.get("b").unwrap().origin, Origin::CommandLine);
        options.offer("c", "host", Origin::Reference);
        assert_eq!(options.value("c"), Some("host"));
    }
}
