//! `mmconform lint`: validate scenario files, no network.

use super::CliError;
use super::args::LintArgs;
use crate::exit::Ending;
use crate::scenario::suite::{builtin_sources, load_sources, read_sources};

pub fn lint(args: &LintArgs) -> Result<Ending, CliError> {
    let sources = if args.paths.is_empty() {
        builtin_sources()
    } else {
        read_sources(&args.paths).map_err(CliError::Scenarios)?
    };
    if sources.is_empty() {
        return Err(CliError::Usage(
            "no scenario files found (looked for .yaml, .yml, .json)".into(),
        ));
    }
    let options = crate::registry::check_options(args.allow_external_probe_urls);
    let loaded = load_sources(&sources, &options).map_err(CliError::Scenarios)?;
    let cases: usize = loaded.iter().map(|f| f.file.cases.len()).sum();
    super::out::line(format_args!(
        "ok: {} file(s), {cases} case(s), no problems",
        loaded.len()
    ));
    Ok(Ending::Done)
}
