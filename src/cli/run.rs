//! `mmconform run`: resolve, load scenarios (exit 2 on any problem, before any request),
//! start the target, execute, feed every event to every reporter.

use super::args::RunArgs;
use super::export_hurl::HurlExport;
use super::resolve::{self, process_env};
use super::{CliError, run_witness, runtime};
use crate::baseline;
use crate::event::Event;
use crate::exit::Ending;
use crate::report::fanout::FanOut;
use crate::report::{
    GithubSummaryReporter, HtmlReporter, JsonReporter, JunitReporter, Reporter, TerminalOptions,
    TerminalReporter,
};
use crate::runner::{self, session::Session};
use crate::scenario::suite::load_suite;
use crate::stop::Stop;
use std::sync::Arc;
use tokio::sync::mpsc;

pub fn run(args: &RunArgs, color: bool) -> Result<Ending, CliError> {
    let mut resolved = resolve::resolve_run(args, color, &process_env).map_err(CliError::Usage)?;
    let argv: Vec<String> = std::env::args().collect();
    resolved.config.rerun_base = super::rerun::base_command(&argv);
    super::destination::check(&[
        ("--junit", &args.junit),
        ("--report", &args.report),
        ("--html", &args.html),
        ("--export-hurl", &args.export_hurl),
        ("--github-summary", &args.github_summary),
    ])?;
    if let Some(path) = &args.baseline {
        resolved.config.baseline = Some(baseline::load(path).map_err(|e| match e {
            baseline::LoadError::Io(m) => CliError::Usage(m),
            baseline::LoadError::Invalid(d) => CliError::Scenarios(d),
        })?);
    }
    let config = &resolved.config;
    let suite =
        Arc::new(load_suite(&resolve::suite_options(&args.target)).map_err(CliError::Scenarios)?);
    let profile = (config.protocol).unwrap_or_else(|| crate::registry::default_protocol().name());
    if let Some(closest) =
        crate::plan::nothing_selected(&suite.for_profile(profile), &config.filters)
    {
        let closest = match closest.is_empty() {
            true => String::new(),
            false => format!("; the closest ids: {}", closest.join(", ")),
        };
        super::out::error_line(format_args!(
            "note: --filter selects no {profile} case{closest}"
        ));
    }
    for id in &suite.replaced {
        super::out::error_line(format_args!(
            "note: built-in case {id} replaced by a --scenarios file"
        ));
    }
    let mut reporters: Vec<Box<dyn Reporter>> = vec![Box::new(TerminalReporter::new(
        TerminalOptions {
            color: config.output.color,
            verbose: config.output.verbose,
            progress: config.output.progress,
            quiet: config.output.quiet,
        },
        Box::new(std::io::stdout()),
    ))];
    if let Some(path) = &config.output.junit {
        reporters.push(Box::new(JunitReporter::new(path.clone())));
    }
    if let Some(path) = &config.output.report {
        reporters.push(Box::new(JsonReporter::new(path.clone())));
    }
    if let Some(path) = &config.output.html {
        reporters.push(Box::new(HtmlReporter::new(path.clone())));
    }
    if let Some((path, write)) = &config.output.summary {
        reporters.push(Box::new(GithubSummaryReporter::new(path.clone(), *write)));
    }
    let mut fanout = FanOut::new(config.redactor(), reporters);
    let mut export = args.export_hurl.clone().map(HurlExport::new);

    // What a started program leaves outside its process group (setsid, a double fork)
    // becomes this process's child, and is ended once the run is over, abandoned or not.
    crate::process::orphans::adopt();
    let ending = runtime()?.block_on(async move {
        // The deadline bounds the whole run, starting the embedded host included.
        let deadline = resolved.config.deadline;
        let stop = Stop::watch(deadline.map(|d| tokio::time::Instant::now() + d));
        let witness = run_witness::start(args, &mut resolved)
            .await
            .map_err(CliError::Usage)?;
        let (mut config, reference) = resolved.start().await.map_err(CliError::Internal)?;
        let protocol = resolve::protocol_of(&args.target).map_err(CliError::Usage)?;
        super::model::prepare(protocol, &mut config, stop.clone())
            .await
            .map_err(CliError::Usage)?;
        let mut session =
            Session::open(protocol, Arc::new(config), &suite).map_err(CliError::Usage)?;
        session.witness = witness.clone();
        session.replay = export.as_ref().map(HurlExport::log);
        let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
        let execution = tokio::spawn(runner::execute(session, tx, stop.clone()));
        loop {
            tokio::select! {
                event = rx.recv() => match event {
                    Some(event) => {
                        if let Some(export) = &mut export {
                            export.observe(&event);
                        }
                        fanout.handle(&event);
                    }
                    None => break,
                },
                // A second Ctrl-C: out now, without waiting for reports.
                () = stop.abandoned() => return Ok(Ending::Interrupted),
            }
        }
        let output = execution
            .await
            .map_err(|e| CliError::Internal(format!("the run stopped unexpectedly: {e}")))?;
        if let Some(reference) = reference {
            reference.shutdown().await;
        }
        run_witness::stop(witness).await;
        let mut failures: Vec<String> = fanout.finish().iter().map(|f| f.to_string()).collect();
        if let Some(Err(e)) = export.map(HurlExport::write) {
            failures.push(e);
        }
        Ok(if failures.is_empty() {
            Ending::Run(output.summary.exit_code)
        } else {
            Ending::ReportsUnwritten(failures)
        })
    });
    // The runtime is gone, and every program with it: what is left is an orphan.
    crate::process::orphans::end_adopted();
    ending
}
