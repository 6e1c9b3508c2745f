//! Calibration: proving mechanically that verdicts mean something.
//!
//! Every selected case runs against the faithful reference host in several shapes
//! ([`setup`]) and against each single-fault variant of it ([`variant`]): the host
//! faults, and schema mutants for the cases that judge schemas ([`schema_mutant`]).
//! [`matrix`] then finds the cases no variant can make fail (vacuous), the faults no
//! case notices (blind spots) and any case the faithful host does not pass.
//!
//! Every host goes through the same `runner::execute` a real run uses, so what is
//! calibrated is exactly what runs.

pub mod matrix;
pub mod render;
pub mod schema_mutant;
pub mod setup;
pub mod variant;

use crate::event::Event;
use crate::http::Transports;
use crate::plan::filter::Filter;
use crate::runner::{self, session::Session};
use crate::scenario::suite::Suite;
use crate::stop::Stop;
use matrix::{Matrix, RunObservation, VariantInfo, VariantRun};
use setup::Setup;
use std::sync::Arc;
use tokio::sync::{Semaphore, mpsc};
use variant::Variant;

#[derive(Debug, Clone)]
pub struct CalibrationOptions {
    pub filters: Vec<Filter>,
    /// Hosts run at once.
    pub parallel_runs: usize,
    /// Cases in flight within one run.
    pub case_concurrency: usize,
    /// Every built-in case is selected (no --filter, built-ins loaded): only then is a
    /// fault no case catches a blind spot of the suite.
    pub whole_suite: bool,
}

/// Runs the suite once against one host and keeps what calibration needs.
async fn observe(
    setup: &Setup,
    variant: Option<&Variant>,
    suite: Arc<Suite>,
    options: &CalibrationOptions,
    stop: Stop,
    transports: Arc<Transports>,
) -> Result<RunObservation, String> {
    // The mutated schema lives as long as the run that judges with it.
    let schemas = match variant {
        Some(Variant::Schema(mutant)) => {
            let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temp dir: {e}"))?;
            mutant
                .write_into(dir.path())
                .map_err(|e| format!("cannot write {}: {e}", mutant.name()))?;
            Some(dir)
        }
        _ => None,
    };
    let setup::Started {
        reference,
        mut config,
        witness,
    } = setup::start(
        setup,
        variant,
        schemas.as_ref().map(|d| d.path().to_path_buf()),
        options.case_concurrency,
    )
    .await?;
    config.filters = filters_of(setup, options)?;
    let protocol = crate::registry::protocol(setup.profile)
        .ok_or_else(|| format!("the shape {} runs no registered profile", setup.name))?;
    let mut session = Session::open(protocol, Arc::new(config), &suite)?;
    session.witness = witness;
    session.transports = Some(transports);
    let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
    let execution = tokio::spawn(runner::execute(session, tx, stop));
    let mut observation = RunObservation::default();
    while let Some(event) = rx.recv().await {
        if let Event::CaseFinished { result, .. } = event {
            observation
                .cases
                .insert(result.id.clone(), result.as_ref().into());
        }
    }
    let output = execution
        .await
        .map_err(|e| format!("a calibration run stopped unexpectedly: {e}"))?;
    observation.exit_code = output.summary.exit_code;
    if let Some(reference) = reference {
        reference.shutdown().await;
    }
    Ok(observation)
}

/// The filters a run of `setup` selects its cases with: the user's, or else the cases
/// the shape is for.
fn filters_of(setup: &Setup, options: &CalibrationOptions) -> Result<Vec<Filter>, String> {
    Ok(match setup.only_cases {
        Some(id) if options.filters.is_empty() => vec![Filter::parse(id)?],
        _ => options.filters.clone(),
    })
}

/// Whether a run of `setup` would select any of `suite`'s cases. A shape of a profile
/// the filters leave without a case is not started at all: its runs (the faithful host
/// and every variant, some of them agent processes) would report nothing but
/// exclusions, and the matrix shows it with no case either way.
fn selects_any(setup: &Setup, suite: &Suite, options: &CalibrationOptions) -> bool {
    let own = suite.for_profile(setup.profile);
    if own.cases.is_empty() {
        return false;
    }
    match filters_of(setup, options) {
        Ok(filters) => crate::plan::nothing_selected(&own, &filters).is_none(),
        // A run reports its own filter problem.
        Err(_) => true,
    }
}

/// Runs every (setup, variant) pair and builds the matrix; `None` when Ctrl-C stopped
/// it first. `on_run` is called after each host run (for a progress display).
pub async fn calibrate(
    suite: Arc<Suite>,
    options: &CalibrationOptions,
    stop: Stop,
    on_run: &(dyn Fn() + Sync),
) -> Result<Option<Matrix>, String> {
    let setups = Arc::new(setup::setups());
    let variants = Arc::new(variant::catalogue(&suite));
    let semaphore = Arc::new(Semaphore::new(options.parallel_runs.max(1)));
    // One TLS configuration and connection pool for every run (all on this runtime).
    let transports = Arc::new(Transports::default());
    // One signal for the whole calibration: Ctrl-C stops every run at once.
    let mut tasks = tokio::task::JoinSet::new();
    for (s, v) in jobs(&setups, &variants, &suite, options) {
        let (setups, variants, suite, semaphore, options, stop, transports) = (
            setups.clone(),
            variants.clone(),
            suite.clone(),
            semaphore.clone(),
            options.clone(),
            stop.clone(),
            transports.clone(),
        );
        tasks.spawn(async move {
            let _permit = semaphore.acquire_owned().await;
            let variant = v.map(|v| &variants[v]);
            let observed = observe(&setups[s], variant, suite, &options, stop, transports).await;
            (s, v, observed)
        });
    }
    let mut faithful: Vec<Option<RunObservation>> = vec![None; setups.len()];
    let mut runs = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        let (s, v, observed) =
            joined.map_err(|e| format!("a calibration task stopped unexpectedly: {e}"))?;
        let observation = observed?;
        on_run();
        match v {
            None => faithful[s] = Some(observation),
            Some(variant) => runs.push(VariantRun {
                variant,
                setup: setups[s].name.to_string(),
                observation,
            }),
        }
    }
    if stop.reason().is_some() {
        return Ok(None);
    }
    // Runs finish in any order; the matrix lists them in catalogue order.
    runs.sort_by_key(|r| {
        (
            r.variant,
            setups.iter().position(|s| s.name == r.setup).unwrap_or(0),
        )
    });
    let faithful: Vec<(String, RunObservation)> = setups
        .iter()
        .zip(faithful)
        .map(|(s, o)| (s.name.to_string(), o.unwrap_or_default()))
        .collect();
    let infos: Vec<VariantInfo> = variants.iter().map(Variant::info).collect();
    Ok(Some(matrix::analyze(
        &faithful,
        &infos,
        &runs,
        options.whole_suite,
    )))
}

/// Every host run: (setup index, variant index, or `None` for the faithful host).
fn jobs(
    setups: &[Setup],
    variants: &[Variant],
    suite: &Suite,
    options: &CalibrationOptions,
) -> Vec<(usize, Option<usize>)> {
    (0..setups.len())
        .filter(|s| selects_any(&setups[*s], suite, options))
        .flat_map(|s| {
            std::iter::once((s, None)).chain(
                (0..variants.len())
                    .filter(move |v| variants[*v].runs_in(&setups[s]))
                    .map(move |v| (s, Some(v))),
            )
        })
        .collect()
}

/// How many host runs `calibrate` makes, for a progress bar.
pub fn run_count(suite: &Suite, options: &CalibrationOptions) -> usize {
    jobs(&setup::setups(), &variant::catalogue(suite), suite, options).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin() -> Suite {
        crate::scenario::suite::load_suite(&crate::scenario::suite::SuiteOptions {
            include_builtin: true,
            paths: Vec::new(),
            checks: crate::registry::check_options(false),
        })
        .unwrap()
    }

    fn options(filters: &[&str]) -> CalibrationOptions {
        CalibrationOptions {
            filters: filters.iter().map(|f| Filter::parse(f).unwrap()).collect(),
            parallel_runs: 1,
            case_concurrency: 1,
            whole_suite: filters.is_empty(),
        }
    }

    #[test]
    fn a_filter_starts_only_the_shapes_of_the_profiles_it_selects_cases_of() {
        let (suite, setups) = (builtin(), setup::setups());
        let variants = variant::catalogue(&suite);
        let profiles_run = |filters: &[&str]| -> std::collections::BTreeSet<&str> {
            jobs(&setups, &variants, &suite, &options(filters))
                .into_iter()
                .map(|(s, _)| setups[s].profile)
                .collect()
        };
        assert_eq!(profiles_run(&["openai.*"]), ["openai"].into());
        assert_eq!(
            profiles_run(&["openai.* or anthropic.*"]),
            ["anthropic", "openai"].into()
        );
        // The whole suite starts every shape, as before.
        let every: std::collections::BTreeSet<&str> = setups.iter().map(|s| s.profile).collect();
        assert_eq!(profiles_run(&[]), every);
        assert_eq!(
            jobs(&setups, &variants, &suite, &options(&[])).len(),
            setups
                .iter()
                .map(|s| 1 + variants.iter().filter(|v| v.runs_in(s)).count())
                .sum::<usize>()
        );
    }
}
