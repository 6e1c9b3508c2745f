//! `mmconform serve-reference`: the embedded reference host as a standalone server.

use super::args::{ProfileArg, ServeArgs};
use super::embedded::{self, MODALITIES, agent_declaration};
use super::resolve::parse_modalities;
use super::{CliError, runtime};
use crate::exit::Ending;
use reference_hosts::agui::{self, AgentConfig, AguiFault, DEFAULT_ACCEPTS};
use reference_hosts::{Fault, ReferenceConfig, RunningReference};

/// Prints `name description` lines; a closed stdout (`| head`) ends the listing quietly.
fn list_faults<'a>(faults: impl Iterator<Item = (&'a str, &'a str)>) -> Result<Ending, CliError> {
    for (name, description) in faults {
        super::out::line(format_args!("{name:32} {description}"));
    }
    Ok(Ending::Done)
}

/// `serve-reference --profile agui`: the AG-UI reference agent.
fn serve_agui(args: &ServeArgs) -> Result<Ending, CliError> {
    if args.list_faults {
        return list_faults(AguiFault::all().iter().map(|f| (f.name(), f.description())));
    }
    let fault = embedded::parse_fault::<AguiFault>(
        "--fault",
        args.fault.as_deref(),
        &embedded::agui_fault_names(),
        embedded::AGUI_FAULT_LISTING,
    )
    .map_err(CliError::Usage)?;
    let accepts: Vec<String> = if args.accepts.is_empty() {
        DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.accepts.clone()
    };
    let config = AgentConfig::new(&accepts, fault)
        .map_err(|e| CliError::Usage(format!("--accepts: {e}")))?;
    let declaration =
        agent_declaration(&config).map_err(|e| CliError::Usage(format!("--accepts: {e}")))?;
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    runtime()?.block_on(async move {
        let running = agui::spawn(config.clone(), addr).await;
        serve_until_interrupted(running, addr, |running| {
            format!(
                "mmconform AG-UI reference agent listening on {} ({}{})",
                agui::endpoint_url(running),
                declaration.summary(),
                config
                    .fault
                    .map(|f| format!(", FAULT {}", f.name()))
                    .unwrap_or_default(),
            )
        })
        .await
    })
}

/// Announces a started embedded host and serves until Ctrl-C.
async fn serve_until_interrupted(
    running: std::io::Result<RunningReference>,
    addr: std::net::SocketAddr,
    banner: impl FnOnce(&RunningReference) -> String,
) -> Result<Ending, CliError> {
    let running = running.map_err(|e| CliError::Usage(format!("cannot listen on {addr}: {e}")))?;
    super::out::line(format_args!("{}", banner(&running)));
    let _ = tokio::signal::ctrl_c().await;
    running.shutdown().await;
    Ok(Ending::Done)
}

pub fn serve(args: &ServeArgs) -> Result<Ending, CliError> {
    if args.profile == ProfileArg::Agui {
        return serve_agui(args);
    }
    if !args.accepts.is_empty() {
        return Err(CliError::Usage(
            "--accepts declares the AG-UI agent: add --profile agui".into(),
        ));
    }
    if args.list_faults {
        return list_faults(Fault::all().iter().map(|f| (f.name(), f.description())));
    }
    let modalities = parse_modalities(&args.modalities, &MODALITIES)
        .map_err(|e| CliError::Usage(format!("--modalities: {e}")))?;
    let fault = embedded::parse_fault::<Fault>(
        "--fault",
        args.fault.as_deref(),
        &embedded::fault_names(),
        embedded::FAULT_LISTING,
    )
    .map_err(CliError::Usage)?;
    let token = match (&args.token, &args.token_env) {
        (Some(t), _) => {
            super::out::error_line(format_args!(
                "warning: --token puts the secret in your shell history and process list; prefer --token-env"
            ));
            Some(t.clone())
        }
        (None, Some(var)) => Some(
            std::env::var(var)
                .map_err(|_| CliError::Usage(format!("--token-env: ${var} is not set")))?,
        ),
        (None, None) => None,
    };
    if args.max_bytes_per_part == Some(0) || args.max_request_body_bytes == Some(0) {
        return Err(CliError::Usage("limits must be at least 1 byte".into()));
    }
    let config = ReferenceConfig {
        modalities,
        advertise_input: true,
        max_bytes_per_part: args.max_bytes_per_part,
        max_request_body_bytes: args.max_request_body_bytes,
        token,
        fault,
    };
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    runtime()?.block_on(async move {
        let running = reference_hosts::spawn(config.clone(), addr).await;
        serve_until_interrupted(running, addr, |running| {
            format!(
                "mmconform reference host listening on {} (modalities {}{}{})",
                running.base_url(),
                config.modalities.join(","),
                config
                    .max_bytes_per_part
                    .map(|n| format!(", maxBytesPerPart {n}"))
                    .unwrap_or_default(),
                config
                    .fault
                    .map(|f| format!(", FAULT {}", f.name()))
                    .unwrap_or_default(),
            )
        })
        .await
    })
}
