//! `mmconform list`: every case with its requirement; with a target, what a run would do.

use super::args::{FormatArg, ListArgs};
use super::resolve::{self, process_env};
use super::run::{start_target, with_reference_media_refs};
use super::{CliError, runtime};
use crate::plan::{self, Disposition};
use crate::runner::discovery;
use crate::runner::http::{HttpClient, HttpSettings};
use crate::runner::stop::Stop;
use crate::scenario::suite::load_suite;
use serde_json::{Value, json};

fn has_target(args: &ListArgs) -> bool {
    args.target.target.is_some()
        || process_env("OPENWOP_BASE_URL").is_some_and(|v| !v.trim().is_empty())
}

pub fn list(args: &ListArgs) -> Result<i32, CliError> {
    let suite = load_suite(&resolve::suite_options(&args.target)).map_err(CliError::Scenarios)?;
    let filters = args
        .target
        .filters
        .iter()
        .map(|f| plan::filter::FilterTerm::parse(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::Usage)?;
    let (context, discovery_note) = if has_target(args) {
        let config =
            resolve::resolve_common(&args.target, false, &process_env).map_err(CliError::Usage)?;
        let config = with_reference_media_refs(config);
        runtime()?.block_on(async {
            let (reference, target) = start_target(&config).await?;
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
    match args.format {
        FormatArg::Json => {
            let doc = json!({"note": discovery_note, "cases": rows});
            super::out::line(format_args!(
                "{}",
                serde_json::to_string_pretty(&doc)
                    .map_err(|e| CliError::Internal(e.to_string()))?
            ));
        }
        FormatArg::Human => {
            super::out::line(format_args!("{discovery_note}"));
            for row in &rows {
                let reason = row["reason"]
                    .as_str()
                    .map(|r| format!("  ({r})"))
                    .unwrap_or_default();
                super::out::line(format_args!(
                    "{:9} {:6} {:16} {}{reason}",
                    row["disposition"].as_str().unwrap_or(""),
                    row["level"].as_str().unwrap_or(""),
                    row["source"].as_str().unwrap_or(""),
                    row["id"].as_str().unwrap_or(""),
                ));
            }
            super::out::line(format_args!("{} case(s)", rows.len()));
        }
    }
    Ok(0)
}
