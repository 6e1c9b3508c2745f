//! `mmconform baseline --from REPORT`: write a baseline of a report's failures.

use super::CliError;
use super::args::BaselineArgs;
use crate::baseline::tracker::today_utc;
use crate::baseline::write::{EntryDefaults, from_report, to_yaml};
use crate::exit::Ending;
use crate::report::write_atomically;

pub fn baseline(args: &BaselineArgs) -> Result<Ending, CliError> {
    super::destination::check(&[("--output", &args.output)])?;
    let name = args.from.display().to_string();
    let text = std::fs::read_to_string(&args.from)
        .map_err(|e| CliError::Usage(format!("--from {name}: {e}")))?;
    let report: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Usage(format!("--from {name} is not JSON: {e}")))?;
    let today = today_utc();
    let defaults = EntryDefaults {
        reason: args.reason.clone(),
        expires: args.expires.clone(),
    };
    let file = from_report(&report, &name, &today, &defaults).map_err(CliError::Usage)?;
    let yaml = to_yaml(&file, &name, &today).map_err(CliError::Internal)?;
    // What is written must load: this is also where a bad --expires is caught, by the
    // same schema `run --baseline` uses.
    if let Err(problems) = crate::baseline::parse("the baseline", &yaml) {
        let why: Vec<String> = problems.into_iter().map(|d| d.message).collect();
        return Err(CliError::Usage(format!(
            "the baseline would not load ({}); check --expires (YYYY-MM-DD) and --reason",
            why.join("; ")
        )));
    }
    match &args.output {
        Some(path) => {
            write_atomically(path, yaml.as_bytes())
                .map_err(|e| CliError::Internal(format!("cannot write {}: {e}", path.display())))?;
            eprintln!(
                "wrote {} entr{} to {}",
                file.entries.len(),
                if file.entries.len() == 1 { "y" } else { "ies" },
                path.display()
            );
        }
        None => print!("{yaml}"),
    }
    Ok(Ending::Done)
}
