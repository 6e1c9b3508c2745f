//! `mmconform calibrate`: load the suite (exit 2 on any scenario problem), run it
//! against every calibration host, print the matrix.

use super::args::{CalibrateArgs, FormatArg};
use super::{CliError, runtime};
use crate::calibrate::{self, CalibrationOptions, render, setup};
use crate::exit::Ending;
use crate::plan::filter::Filter;
use crate::report::write_atomically;
use crate::scenario::suite::{SuiteOptions, load_suite};
use crate::stop::Stop;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;

pub fn calibrate(args: &CalibrateArgs) -> Result<Ending, CliError> {
    super::destination::check(&[("--report", &args.report)])?;
    let filters = args
        .filters
        .iter()
        .map(|f| Filter::parse(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::Usage)?;
    crate::plan::filter::without_outcome(&filters, "calibrate").map_err(CliError::Usage)?;
    let suite = load_suite(&SuiteOptions {
        include_builtin: !args.no_builtin,
        paths: args.scenarios.clone(),
        checks: crate::registry::check_options(args.allow_external_probe_urls),
    })
    .map_err(CliError::Scenarios)?;
    if suite.cases.is_empty() {
        return Err(CliError::Usage("no cases to calibrate".into()));
    }
    let options = CalibrationOptions {
        whole_suite: filters.is_empty() && !args.no_builtin,
        filters,
        parallel_runs: usize::from(args.concurrency),
        case_concurrency: 8,
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(calibrate::run_count(&suite, &options) as u64);
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} host runs {elapsed}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let matrix = runtime()?.block_on(async {
        let stop = Stop::watch(None);
        let on_run = || bar.inc(1);
        tokio::select! {
            matrix = calibrate::calibrate(Arc::new(suite), &options, stop.clone(), &on_run) => {
                matrix.map_err(CliError::Internal)
            }
            // A second Ctrl-C: out now.
            () = stop.abandoned() => Ok(None),
        }
    })?;
    bar.finish_and_clear();
    let Some(matrix) = matrix else {
        eprintln!("calibration interrupted: no verdict");
        return Ok(Ending::Interrupted);
    };
    let setups = setup::setups();
    let json = render::json(&matrix, &setups);
    let pretty = |v: &serde_json::Value| {
        serde_json::to_string_pretty(v).map_err(|e| CliError::Internal(e.to_string()))
    };
    if let Some(path) = &args.report {
        let text = pretty(&json)? + "\n";
        write_atomically(path, text.as_bytes())
            .map_err(|e| CliError::Internal(format!("cannot write {}: {e}", path.display())))?;
    }
    match args.format {
        FormatArg::Human => print!("{}", render::human(&matrix, &setups, args.verbose)),
        FormatArg::Json => println!("{}", pretty(&json)?),
    }
    Ok(Ending::Calibrated(matrix.calibrated()))
}
