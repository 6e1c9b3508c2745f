//! `mmconform serve-reference`: the embedded reference host as a standalone server.

use super::args::{ServeArgs, ServeProfileArg};
use super::embedded::{self, MODALITIES, agent_declaration, upstream_url};
use super::embedded_openai::{fault_listing, openai_fault_names};
use super::resolve::parse_modalities;
use super::{CliError, runtime};
use crate::exit::Ending;
use reference_hosts::agui::{self, AgentConfig, AguiFault, DEFAULT_ACCEPTS};
use reference_hosts::anthropic::{self, AnthropicConfig, AnthropicFault};
use reference_hosts::openai::{self, OpenaiConfig, OpenaiFault};
use reference_hosts::{Fault, ReferenceConfig, RunningReference};

/// What `--list-faults` appends to a fault that only shows with `--upstream`.
pub const NEEDS_UPSTREAM: &str = "[needs --upstream]";

/// Prints `name description` lines, marking the faults that need an upstream; a closed
/// stdout (`| head`) ends the listing quietly.
fn list_faults<'a>(
    faults: impl Iterator<Item = (&'a str, &'a str, bool)>,
) -> Result<Ending, CliError> {
    for (name, description, needs_upstream) in faults {
        let mark = if needs_upstream { NEEDS_UPSTREAM } else { "" };
        let listed = format!("{name:32} {description} {mark}");
        super::out::line(format_args!("{}", listed.trim_end()));
    }
    Ok(Ending::Done)
}

/// `--upstream`, checked as `--reference-upstream` is.
fn upstream(args: &ServeArgs) -> Result<Option<url::Url>, CliError> {
    args.upstream
        .as_deref()
        .map(|raw| upstream_url(raw, args.allow_external_probe_urls, "--upstream"))
        .transpose()
        .map_err(CliError::Usage)
}

/// `, upstream URL` for a banner.
fn upstream_banner(upstream: Option<&url::Url>) -> String {
    upstream
        .map(|u| format!(", upstream {u}"))
        .unwrap_or_default()
}

/// `--delay-ms`: how long each call takes at the least.
fn service_time(args: &ServeArgs) -> std::time::Duration {
    std::time::Duration::from_millis(args.delay_ms)
}

/// `, service time N ms` for a banner.
fn service_time_banner(args: &ServeArgs) -> String {
    match args.delay_ms {
        0 => String::new(),
        ms => format!(", service time {ms} ms"),
    }
}

/// `serve-reference --profile agui`: the AG-UI reference agent.
fn serve_agui(args: &ServeArgs) -> Result<Ending, CliError> {
    if args.list_faults {
        return list_faults(
            AguiFault::all()
                .iter()
                .map(|f| (f.name(), f.description(), f.needs_upstream())),
        );
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
        .map_err(|e| CliError::Usage(format!("--accepts: {e}")))?
        .with_upstream(upstream(args)?)
        .with_token(token(args)?);
    let declaration =
        agent_declaration(&config).map_err(|e| CliError::Usage(format!("--accepts: {e}")))?;
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    runtime()?.block_on(async move {
        let running = agui::spawn_with_service_time(config.clone(), addr, service_time(args)).await;
        serve_until_interrupted(running, addr, |running| {
            format!(
                "mmconform AG-UI reference agent listening on {} ({}{}{}{})",
                agui::endpoint_url(running),
                declaration.summary(),
                upstream_banner(config.upstream.as_ref()),
                service_time_banner(args),
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

/// `serve-reference --profile openai` (or `openai-responses`: the same server, whose
/// faults listed and taken are its Responses door's): the OpenAI-compatible reference
/// server.
fn serve_openai(args: &ServeArgs, responses: bool) -> Result<Ending, CliError> {
    if args.list_faults {
        return list_faults(
            OpenaiFault::all()
                .iter()
                .filter(|f| f.seen_at(responses))
                .map(|f| (f.name(), f.description(), f.needs_upstream())),
        );
    }
    let fault = embedded::parse_fault::<OpenaiFault>(
        "--fault",
        args.fault.as_deref(),
        &openai_fault_names(responses),
        fault_listing(responses),
    )
    .map_err(CliError::Usage)?;
    if args.max_request_body_bytes == Some(0) {
        return Err(CliError::Usage("limits must be at least 1 byte".into()));
    }
    let config = OpenaiConfig {
        token: token(args)?,
        max_request_body_bytes: args.max_request_body_bytes,
        ..OpenaiConfig::new(fault)
    }
    .with_models(&args.models)
    .map_err(|e| CliError::Usage(format!("--models: {e}")))?
    .with_upstream(upstream(args)?);
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    runtime()?.block_on(async move {
        let running = openai::spawn(config.clone(), addr).await;
        serve_until_interrupted(running, addr, |running| {
            let models: Vec<&str> = config.models.iter().map(|m| m.id).collect();
            format!(
                "mmconform OpenAI-compatible reference server listening on {} (models {}{}{})",
                openai::base_url(running),
                models.join(","),
                upstream_banner(config.upstream.as_ref()),
                config
                    .fault
                    .map(|f| format!(", FAULT {}", f.name()))
                    .unwrap_or_default(),
            )
        })
        .await
    })
}

fn serve_anthropic(args: &ServeArgs) -> Result<Ending, CliError> {
    if args.list_faults {
        return list_faults(
            AnthropicFault::all()
                .iter()
                .map(|f| (f.name(), f.description(), f.needs_upstream())),
        );
    }
    let fault = embedded::parse_fault::<AnthropicFault>(
        "--fault",
        args.fault.as_deref(),
        &super::embedded_anthropic::fault_names(),
        super::embedded_anthropic::FAULT_LISTING,
    )
    .map_err(CliError::Usage)?;
    if args.max_request_body_bytes == Some(0) {
        return Err(CliError::Usage("limits must be at least 1 byte".into()));
    }
    let config = AnthropicConfig {
        api_key: token(args)?,
        max_request_body_bytes: args.max_request_body_bytes,
        ..AnthropicConfig::new(fault)
    }
    .with_upstream(upstream(args)?);
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    runtime()?.block_on(async move {
        let running = anthropic::spawn(config.clone(), addr).await;
        serve_until_interrupted(running, addr, |running| {
            let models: Vec<&str> = config.models.iter().map(|m| m.id).collect();
            format!(
                "mmconform Anthropic Messages reference server listening on {} (models {}{}{})",
                anthropic::base_url(running),
                models.join(","),
                upstream_banner(config.upstream.as_ref()),
                config
                    .fault
                    .map(|f| format!(", FAULT {}", f.name()))
                    .unwrap_or_default(),
            )
        })
        .await
    })
}

/// The token to require (a bearer token; `x-api-key` for the Anthropic server):
/// `--token` (with a warning) or `--token-env`.
fn token(args: &ServeArgs) -> Result<Option<String>, CliError> {
    match (&args.token, &args.token_env) {
        (Some(t), _) => {
            super::out::error_line(format_args!(
                "warning: --token puts the secret in your shell history and process list; prefer --token-env"
            ));
            Ok(Some(t.clone()))
        }
        (None, Some(var)) => std::env::var(var)
            .map(Some)
            .map_err(|_| CliError::Usage(format!("--token-env: ${var} is not set"))),
        (None, None) => Ok(None),
    }
}

pub fn serve(args: &ServeArgs) -> Result<Ending, CliError> {
    let openai = matches!(
        args.profile,
        ServeProfileArg::Openai | ServeProfileArg::OpenaiResponses
    );
    if !openai && !args.models.is_empty() {
        return Err(CliError::Usage(
            "--models picks the OpenAI-compatible server's models: add --profile openai".into(),
        ));
    }
    match args.profile {
        ServeProfileArg::Agui => return serve_agui(args),
        ServeProfileArg::Openai | ServeProfileArg::OpenaiResponses if !args.accepts.is_empty() => {
            return Err(CliError::Usage(
                "--accepts declares the AG-UI agent: use --models for the OpenAI-compatible server"
                    .into(),
            ));
        }
        ServeProfileArg::Openai => return serve_openai(args, false),
        ServeProfileArg::OpenaiResponses => return serve_openai(args, true),
        ServeProfileArg::Anthropic if !args.accepts.is_empty() || !args.models.is_empty() => {
            return Err(CliError::Usage(
                "the Anthropic reference server serves both its models: name one with run --model"
                    .into(),
            ));
        }
        ServeProfileArg::Anthropic => return serve_anthropic(args),
        ServeProfileArg::Agentruntime => return super::serve_runtime::serve(args),
        ServeProfileArg::Acp => return super::serve_acp::serve(args),
        ServeProfileArg::Openwop => {}
    }
    if !args.accepts.is_empty() {
        return Err(CliError::Usage(
            "--accepts declares the AG-UI agent: add --profile agui".into(),
        ));
    }
    if args.list_faults {
        return list_faults(
            Fault::all()
                .iter()
                .map(|f| (f.name(), f.description(), f.needs_upstream())),
        );
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
    let token = token(args)?;
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
        upstream: upstream(args)?,
        compat_endpoint: args.self_hosted_endpoint.clone(),
    };
    let addr = std::net::SocketAddr::new(args.bind, args.port);
    runtime()?.block_on(async move {
        let running =
            reference_hosts::spawn_with_service_time(config.clone(), addr, service_time(args))
                .await;
        serve_until_interrupted(running, addr, |running| {
            format!(
                "mmconform reference host listening on {} (modalities {}{}{}{}{})",
                running.base_url(),
                config.modalities.join(","),
                config
                    .max_bytes_per_part
                    .map(|n| format!(", maxBytesPerPart {n}"))
                    .unwrap_or_default(),
                upstream_banner(config.upstream.as_ref()),
                service_time_banner(args),
                config
                    .fault
                    .map(|f| format!(", FAULT {}", f.name()))
                    .unwrap_or_default(),
            )
        })
        .await
    })
}
