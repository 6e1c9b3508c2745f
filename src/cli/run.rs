//! `mmconform run`: resolve, load scenarios (exit 2 on any problem, before any request),
//! start the target, execute, feed every event to every reporter.

use super::args::RunArgs;
use super::resolve::{self, process_env};
use super::{CliError, runtime};
use crate::config::{RunConfig, Target};
use crate::event::Event;
use crate::exit;
use crate::reference::{self, RunningReference};
use crate::report::{JsonReporter, JunitReporter, Reporter, TerminalOptions, TerminalReporter};
use crate::runner::{self, ResolvedTarget};
use crate::scenario::suite::load_suite;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Starts the embedded host when asked for, and says how to reach and show the target.
pub(super) async fn start_target(
    config: &RunConfig,
) -> Result<(Option<RunningReference>, ResolvedTarget), CliError> {
    match &config.target {
        Target::Reference(reference_config) => {
            let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
            let running = reference::spawn(reference_config.clone(), addr)
                .await
                .map_err(|e| CliError::Internal(format!("cannot start the reference host: {e}")))?;
            let base_url = running.base_url();
            let label = format!("reference ({base_url})");
            Ok((Some(running), ResolvedTarget { base_url, label }))
        }
        Target::Offline => Ok((
            None,
            ResolvedTarget {
                base_url: "http://127.0.0.1:9".into(),
                label: "offline (no target: only offline cases run)".into(),
            },
        )),
        Target::Url(url) => {
            // Credentials in the URL are never sent nor shown; resolution put a warning
            // about them in the run's warnings.
            let mut shown = url.clone();
            let _ = shown.set_username("");
            let _ = shown.set_password(None);
            let base_url = shown.as_str().trim_end_matches('/').to_string();
            Ok((
                None,
                ResolvedTarget {
                    label: base_url.clone(),
                    base_url,
                },
            ))
        }
    }
}

/// Prepares the embedded host to match the run: it requires the configured token (so
/// the auth case can run), and offers its own mediaRefs (so the mediaRef positives run
/// without flags).
pub(super) fn with_reference_media_refs(mut config: RunConfig) -> RunConfig {
    let token = config.token.as_ref().map(|t| t.value.clone());
    if let Target::Reference(rc) = &mut config.target {
        rc.token = token;
        for m in &rc.modalities {
            if let Some(r) = reference::known_media_ref(m) {
                config
                    .media_refs
                    .entry(m.clone())
                    .or_insert_with(|| r.to_string());
            }
        }
    }
    config
}

pub fn run(args: &RunArgs, color: bool) -> Result<i32, CliError> {
    let config = resolve::resolve_run(args, color, &process_env).map_err(CliError::Usage)?;
    let config = Arc::new(with_reference_media_refs(config));
    let suite =
        Arc::new(load_suite(&resolve::suite_options(&args.target)).map_err(CliError::Scenarios)?);
    for id in &suite.replaced {
        super::out::error_line(format_args!(
            "note: built-in case {id} replaced by a --scenarios file"
        ));
    }
    let redactor = config.redactor();
    let mut reporters: Vec<Box<dyn Reporter>> = vec![Box::new(TerminalReporter::new(
        TerminalOptions {
            color: config.output.color,
            verbose: config.output.verbose,
            progress: config.output.progress,
        },
        redactor.clone(),
        Box::new(std::io::stdout()),
    ))];
    if let Some(path) = &config.output.junit {
        reporters.push(Box::new(JunitReporter::new(path.clone(), redactor.clone())));
    }
    if let Some(path) = &config.output.report {
        reporters.push(Box::new(JsonReporter::new(path.clone(), redactor.clone())));
    }

    runtime()?.block_on(async move {
        let (reference, target) = start_target(&config).await?;
        let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
        let execution = tokio::spawn(runner::execute(config.clone(), suite, target, tx));
        let mut failures = Vec::new();
        let mut active = vec![true; reporters.len()];
        while let Some(event) = rx.recv().await {
            for (reporter, active) in reporters.iter_mut().zip(active.iter_mut()) {
                if !*active {
                    continue;
                }
                if let Err(e) = reporter.handle(&event) {
                    // One failure silences that reporter only: the others still write.
                    // A closed stdout (`| head`) is the reader's choice, not an error.
                    *active = false;
                    if e.source.kind() != std::io::ErrorKind::BrokenPipe {
                        failures.push(e);
                    }
                }
            }
        }
        let output = execution
            .await
            .map_err(|e| CliError::Internal(format!("the run stopped unexpectedly: {e}")))?;
        if let Some(reference) = reference {
            reference.shutdown().await;
        }
        for failure in &failures {
            super::out::error_line(format_args!("error: {failure}"));
        }
        Ok(if failures.is_empty() {
            output.summary.exit_code
        } else {
            exit::INTERNAL
        })
    })
}
