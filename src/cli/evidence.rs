//! `mmconform evidence merge REPORT...` and `mmconform evidence criteria --list`.

use super::CliError;
use super::args::{CriteriaArgs, EvidenceArgs, EvidenceCommand, EvidenceFormat, MergeArgs};
use super::out;
use crate::baseline::tracker::today_utc;
use crate::evidence::criteria::builtin;
use crate::evidence::criteria::load::{LoadedCriteria, parse};
use crate::evidence::input::{InputProblem, read_all};
use crate::evidence::render::{Format, met_word, render};
use crate::evidence::{Judging, merge};
use crate::exit::Ending;
use crate::report::write_atomically;
use crate::scenario::diagnostic::Diagnostic;

pub fn evidence(args: &EvidenceArgs) -> Result<Ending, CliError> {
    match &args.command {
        EvidenceCommand::Merge(a) => merge_reports(a),
        EvidenceCommand::Criteria(a) => criteria(a),
    }
}

/// Criteria by path, or by built-in name when no such file exists. The inner `Err`
/// holds the file's problems at file:line:col; the outer one an unreadable file.
fn load_criteria(given: &str) -> Result<Result<LoadedCriteria, Vec<Diagnostic>>, CliError> {
    let path = std::path::Path::new(given);
    if !path.exists()
        && let Some(loaded) = builtin::load(given)
    {
        return Ok(loaded);
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        let names: Vec<&str> = builtin::BUILTIN.iter().map(|(n, _)| *n).collect();
        CliError::Usage(format!(
            "--criteria {given}: {e} (and no built-in criteria by that name: {})",
            names.join(", ")
        ))
    })?;
    Ok(parse(given, &text))
}

fn merge_reports(args: &MergeArgs) -> Result<Ending, CliError> {
    super::destination::check(&[("--output", &args.output)])?;
    let criteria = match &args.criteria {
        None => None,
        Some(given) => match load_criteria(given)? {
            Ok(c) => Some(c),
            Err(diagnostics) => return Err(CliError::Scenarios(diagnostics)),
        },
    };
    let mut inputs = match read_all(&args.reports) {
        Ok(inputs) => inputs,
        Err(InputProblem::Unreadable(m)) => return Err(CliError::Usage(m)),
        Err(InputProblem::Refused(refusals)) => {
            for r in &refusals {
                out::error_line(format_args!("error: refused {}:", r.file));
                for reason in &r.reasons {
                    out::error_line(format_args!("  {reason}"));
                }
            }
            out::error_line(format_args!(
                "error: {} of {} report(s) refused (edited, truncated or not evidence about a host); nothing was merged",
                refusals.len(),
                args.reports.len()
            ));
            return Ok(Ending::Verified(false));
        }
    };
    // What each report's protocol reads in it (its wire, its advertisement, its variant).
    for input in &mut inputs {
        input.reading = crate::registry::read_report(&input.report);
    }
    let judging = criteria.as_ref().map(|c| Judging {
        criteria: c,
        extra_excludes: &args.exclude_origins,
    });
    let merged = merge(&inputs, judging, &today_utc());
    let format = match args.format {
        EvidenceFormat::Md => Format::Markdown,
        EvidenceFormat::Html => Format::Html,
        EvidenceFormat::Json => Format::Json,
    };
    let text = render(&merged, format);
    match &args.output {
        Some(path) => write_atomically(path, text.as_bytes())
            .map_err(|e| CliError::Internal(format!("cannot write {}: {e}", path.display())))?,
        None => print!("{text}"),
    }
    let summary = format!(
        "merged {} verified report(s) of {} host(s)",
        merged.inputs.len(),
        merged.hosts.len()
    );
    match &merged.verdict {
        Some(v) => out::error_line(format_args!(
            "{summary}; criteria {}: {}",
            v.criteria,
            met_word(v.met)
        )),
        None => out::error_line(format_args!("{summary}; no criteria given")),
    }
    Ok(Ending::Promoted(
        merged.verdict.as_ref().is_none_or(|v| v.met),
    ))
}

fn criteria(args: &CriteriaArgs) -> Result<Ending, CliError> {
    if let Some(name) = &args.show {
        let text = builtin::text(name).ok_or_else(|| {
            CliError::Usage(format!("no built-in criteria named `{name}` (see --list)"))
        })?;
        print!("{text}");
        return Ok(Ending::Done);
    }
    for (name, _) in builtin::BUILTIN {
        let loaded = builtin::load(name)
            .expect("listed")
            .map_err(|_| CliError::Internal(format!("built-in criteria {name} do not load")))?;
        let ids: Vec<&str> = loaded.file.criteria.iter().map(|c| c.id.as_str()).collect();
        out::line(format_args!(
            "{name:<8} {}: {} criteria ({}); excludes origins: {}",
            loaded.file.title,
            ids.len(),
            ids.join(", "),
            loaded.file.exclude_origins.join(", ")
        ));
    }
    Ok(Ending::Done)
}
