//! `mmconform list`: every case with its requirement; with a target, what a run would do.

use super::args::{FormatArg, ListArgs, ProfileArg};
use super::resolve::{self, TargetChoice, process_env};
use super::{CliError, runtime};
use crate::config::Target;
use crate::plan::{self, Disposition};
use crate::profile::agui;
use crate::runner::agui as agui_run;
use crate::runner::discovery;
use crate::runner::http::{HttpClient, HttpSettings};
use crate::runner::stop::Stop;
use crate::runner::target::resolve_target;
use crate::scenario::suite::load_suite;
use serde_json::{Value, json};
use std::io::Write as _;

fn has_target(args: &ListArgs) -> bool {
    args.target.target.is_some()
        || process_env("OPENWOP_BASE_URL").is_some_and(|v| !v.trim().is_empty())
}

/// The planning context of an agui listing: the declaration, from the target (the
/// reference agent's own, started to learn its media URL) or from --accepts/--claims.
/// No request is sent: AG-UI has nothing to discover.
fn agui_context(args: &ListArgs) -> Result<(Option<Value>, String), CliError> {
    let declared = !args.target.accepts.is_empty() || args.target.claims.is_some();
    if args.target.target.is_none() {
        if !declared {
            return Ok((
                None,
                "no declaration: pass --accepts or --claims (or --target reference) to see which cases would run".into(),
            ));
        }
        let config = resolve::resolve_common_with(
            &args.target,
            TargetChoice::Given(Target::Offline),
            &process_env,
        )
        .map_err(CliError::Usage)?
        .config;
        let declaration =
            config.profile.declaration().cloned().ok_or_else(|| {
                CliError::Internal("an agui listing without a declaration".into())
            })?;
        let note = format!(
            "declared ({}): {}",
            declaration.declared_by,
            declaration.summary()
        );
        let context = agui_run::context(&declaration, &config);
        return Ok((Some(context), note));
    }
    let resolved =
        resolve::resolve_common(&args.target, false, &process_env).map_err(CliError::Usage)?;
    let declaration = resolved
        .config
        .profile
        .declaration()
        .cloned()
        .ok_or_else(|| CliError::Internal("an agui listing without a declaration".into()))?;
    runtime()?.block_on(async {
        let (config, reference) = resolved.start().await.map_err(CliError::Internal)?;
        if let Some(r) = reference {
            r.shutdown().await;
        }
        let note = format!(
            "declared ({}): {}",
            declaration.declared_by,
            declaration.summary()
        );
        Ok((Some(agui_run::context(&declaration, &config)), note))
    })
}

pub fn list(args: &ListArgs) -> Result<i32, CliError> {
    let suite = load_suite(&resolve::suite_options(&args.target)).map_err(CliError::Scenarios)?;
    let agui = args.target.profile == ProfileArg::Agui;
    let profile = if agui { agui::PROFILE } else { "openwop" };
    // A run plans only the cases of its profile; a listing shows the same ones.
    let suite = suite.for_profile(profile);
    let filters = args
        .target
        .filters
        .iter()
        .map(|f| plan::filter::FilterTerm::parse(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::Usage)?;
    let (context, discovery_note) = if agui {
        agui_context(args)?
    } else if has_target(args) {
        let resolved =
            resolve::resolve_common(&args.target, false, &process_env).map_err(CliError::Usage)?;
        runtime()?.block_on(async {
            let (config, reference) = resolved.start().await.map_err(CliError::Internal)?;
            let target = resolve_target(&config);
            let settings = HttpSettings::for_run(&config, &target.base_url);
            let client = HttpClient::new(settings, config.redactor(), Stop::never())
                .map_err(CliError::Internal)?;
            let disc = discovery::fetch(&client, &config).await;
            if let Some(r) = reference {
                r.shutdown().await;
            }
            let note = match &disc.problem {
                Some(p) => format!("discovery unusable: {p}"),
                None => format!(
                    "discovery: {} (sha256 {})",
                    disc.snapshot.url,
                    disc.snapshot.canonical_sha256.clone().unwrap_or_default()
                ),
            };
            Ok::<_, CliError>((Some(disc.context), note))
        })?
    } else {
        (
            None,
            "no target: pass --target to see which cases would run".to_string(),
        )
    };

    let planned = plan::plan(
        &suite,
        context.as_ref().unwrap_or(&Value::Null),
        &filters,
        "list",
    );
    let rows: Vec<Value> = planned
        .iter()
        .map(|p| {
            let case = &suite.cases[p.case];
            let (disposition, reason) = match (&p.disposition, context.is_some()) {
                (Disposition::Excluded(r), _) => ("excluded", Some(r.clone())),
                (_, false) => ("selected", None),
                (Disposition::Run, true) => ("will-run", None),
                (Disposition::Skip(r), true) => ("skip", Some(r.clone())),
                (Disposition::Error(r), true) => ("error", Some(r.clone())),
            };
            json!({
                "id": p.id,
                "case_id": case.spec.id,
                "title": p.title,
                "level": case.spec.requirement.level,
                "source": case.spec.requirement.source,
                "requirement": case.spec.requirement.text,
                "file": case.file,
                "disposition": disposition,
                "reason": reason,
                "decided_on": p.decided_on,
            })
        })
        .collect();
    let text = match args.format {
        FormatArg::Json => {
            let doc = json!({"note": discovery_note, "cases": rows});
            serde_json::to_string_pretty(&doc).map_err(|e| CliError::Internal(e.to_string()))?
        }
        FormatArg::Human => {
            let mut text = format!("{discovery_note}\n");
            for row in &rows {
                let reason = row["reason"]
                    .as_str()
                    .map(|r| format!("  ({r})"))
                    .unwrap_or_default();
                text.push_str(&format!(
                    "{:9} {:6} {:16} {}{reason}\n",
                    row["disposition"].as_str().unwrap_or(""),
                    row["level"].as_str().unwrap_or(""),
                    row["source"].as_str().unwrap_or(""),
                    row["id"].as_str().unwrap_or(""),
                ));
            }
            text.push_str(&format!("{} case(s)", rows.len()));
            text
        }
    };
    // A closed stdout (`| head`) is the reader's choice, not an error.
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Internal(format!("cannot write the listing: {e}")))
        }
        _ => Ok(0),
    }
}
