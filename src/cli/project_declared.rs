//! What the protocols declare in the project file, read before the file's own keys:
//! the keys of their options (`model`, `self_hosted_provider`: `OptionSpec::project_key`)
//! and a program protocol's table (`[agentruntime]`: `TargetKind::Command`'s
//! `project_section`), each taken out of the parsed table with its position, so that
//! `mmconform.toml`'s own keys stay a closed set.

use crate::protocol::options::OptionSpec;
use serde::Deserialize;
use std::path::PathBuf;
use toml::Spanned;

/// A program's table (`[agentruntime]`, as its protocol names it:
/// `TargetKind::Command::project_section`): the command `--target-cmd` and the
/// directory `--target-cwd` name (a relative `cwd` is relative to the file).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ProgramSection {
    pub(super) command: Spanned<String>,
    pub(super) cwd: Option<PathBuf>,
}

/// A program's table, read alone (its own key, however the protocol names it).
#[derive(Debug, Deserialize)]
struct OneProgramSection {
    section: ProgramSection,
}

/// Takes the first table a program protocol names (`[agentruntime]`) out of `table`.
pub(super) fn take_program_section(
    table: &mut toml::de::DeTable,
) -> Result<Option<(&'static str, ProgramSection)>, toml::de::Error> {
    let names = crate::registry::protocols().filter_map(|p| match p.description().target {
        crate::protocol::TargetKind::Command {
            project_section, ..
        } => project_section,
        crate::protocol::TargetKind::Url(_) => None,
    });
    for name in names {
        let Some(key) = table.keys().find(|k| k.get_ref().as_ref() == name).cloned() else {
            continue;
        };
        let value = table.remove(&key).expect("found above");
        let mut alone = toml::de::DeTable::new();
        let span = key.span();
        alone.insert(Spanned::new(span.clone(), "section".into()), value);
        let read = OneProgramSection::deserialize(toml::de::Deserializer::from(Spanned::new(
            span, alone,
        )))?;
        return Ok(Some((name, read.section)));
    }
    Ok(None)
}

/// Takes the keys the registered protocols declare for their options out of `table`
/// (the rest is the file's own), each with its value. A value that is not a string is
/// refused where it stands.
pub(super) fn take_protocol_keys(
    table: &mut toml::de::DeTable,
) -> Result<Vec<(&'static OptionSpec, String)>, (usize, String)> {
    let specs = super::protocol_flags::option_specs();
    let keys: Vec<_> = table
        .keys()
        .filter(|key| {
            let key = key.get_ref();
            specs.iter().any(|s| s.project_key == Some(key.as_ref()))
        })
        .cloned()
        .collect();
    let mut taken = Vec::new();
    for key in keys {
        let spec = specs
            .iter()
            .copied()
            .find(|s| s.project_key == Some(key.get_ref().as_ref()))
            .expect("filtered above");
        let value = table.remove(&key).expect("listed above");
        let at = value.span().start;
        match value.into_inner() {
            toml::de::DeValue::String(text) => taken.push((spec, text.trim().to_string())),
            _ => return Err((at, format!("{}: expected a string", key.get_ref()))),
        }
    }
    Ok(taken)
}
