//! `mmconform list`: every case with its requirement; with a target (or a declaration),
//! what a run would do. The same session as `run` learns the context and plans; the
//! listing is rendered by `report::listing`.

use super::args::{FormatArg, ListArgs};
use super::resolve::{self, TargetChoice, process_env};
use super::{CliError, runtime};
use crate::config::Target;
use crate::exit::Ending;
use crate::plan;
use crate::protocol::PlannedOn;
use crate::report::listing;
use crate::runner::session::Session;
use crate::scenario::suite::{Suite, load_suite};
use crate::stop::Stop;
use std::io::Write as _;
use std::sync::Arc;

fn has_target(args: &ListArgs) -> bool {
    args.target.target.is_some()
        || args.target.target_cmd.is_some()
        || resolve::protocol_of(&args.target).is_ok_and(|protocol| {
            process_env(resolve::target_variable(protocol)).is_some_and(|v| !v.trim().is_empty())
        })
}

/// Plans against the target's context (or the declaration alone, with no target) and
/// says what it was planned on. Only a protocol with discovery sends a request.
fn planned_on_context(
    args: &ListArgs,
    suite: &Suite,
) -> Result<(Arc<Suite>, Vec<plan::PlannedCase>, String), CliError> {
    let resolved = if has_target(args) {
        resolve::resolve_common(&args.target, false, &process_env)
    } else {
        let offline = TargetChoice::Given(Target::Offline);
        resolve::resolve_common_with(&args.target, offline, &process_env)
    }
    .map_err(CliError::Usage)?;
    runtime()?.block_on(async {
        let (config, reference) = resolved.start().await.map_err(CliError::Internal)?;
        let sends = !matches!(config.target, Target::Offline);
        let protocol = resolve::protocol_of(&args.target).map_err(CliError::Usage)?;
        let mut session =
            Session::open(protocol, Arc::new(config), suite).map_err(CliError::Usage)?;
        let client = session.client(Stop::never()).map_err(CliError::Internal)?;
        let planned = session.plan(sends.then_some(&client), "list").await;
        if let Some(r) = reference {
            r.shutdown().await;
        }
        let note = match (&planned.snapshot, session.protocol.declared()) {
            (Some(s), _) => match &s.problem {
                Some(p) => format!("discovery unusable: {p}"),
                None => format!(
                    "discovery: {} (sha256 {})",
                    s.url,
                    s.canonical_sha256.clone().unwrap_or_default()
                ),
            },
            (None, Some(declared)) => declared.view.summary,
            (None, None) => "no discovery".to_string(),
        };
        Ok((session.suite.clone(), planned.cases, note))
    })
}

pub fn list(args: &ListArgs) -> Result<Ending, CliError> {
    let suite = load_suite(&resolve::suite_options(&args.target)).map_err(CliError::Scenarios)?;
    let protocol = resolve::protocol_of(&args.target).map_err(CliError::Usage)?;
    let declared = !args.target.accepts.is_empty() || args.target.claims.is_some();
    let planned_on = protocol.description().planned_on;
    // A model door's listing always has a declaration: none given is a text-only model.
    let context_known = has_target(args)
        || (planned_on == PlannedOn::Declaration && declared)
        || planned_on == PlannedOn::DeclarationOrTextOnly;
    let parsed = (args.target.filters.iter())
        .map(|f| plan::filter::Filter::parse(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::Usage)?;
    plan::filter::without_outcome(&parsed, "list").map_err(CliError::Usage)?;
    let (suite, planned, note) = if context_known {
        planned_on_context(args, &suite)?
    } else {
        let filters = args
            .target
            .filters
            .iter()
            .map(|f| plan::filter::Filter::parse(f))
            .collect::<Result<Vec<_>, _>>()
            .map_err(CliError::Usage)?;
        let note = if planned_on == PlannedOn::Declaration {
            "no declaration: pass --accepts or --claims (or --target reference) to see which cases would run"
        } else {
            "no target: pass --target to see which cases would run"
        };
        // A run plans only the cases of its protocol; a listing shows the same ones.
        let suite = Arc::new(suite.for_profile(protocol.name()));
        let planned = plan::plan(&suite, &serde_json::Value::Null, &filters, "list");
        (suite, planned, note.to_string())
    };
    let rows = listing::rows(&suite, &planned, context_known);
    let text = match args.format {
        FormatArg::Json => listing::json(&note, &rows),
        FormatArg::Human => listing::human(&note, &rows),
    };
    // A closed stdout (`| head`) is the reader's choice, not an error.
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Internal(format!("cannot write the listing: {e}")))
        }
        _ => Ok(Ending::Done),
    }
}
