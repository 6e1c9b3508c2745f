//! `serve-reference --profile agentruntime`: the reference AgentRuntime as a bridge
//! speaking protocol v1 on stdin/stdout, one request per process. Its model is the
//! OpenAI-compatible base URL in `MMCONFORM_WITNESS_URL` (or `--upstream`); without
//! one it answers without a model. SIGTERM is its abort signal.

use super::args::ServeArgs;
use super::embedded::parse_fault;
use super::target_cmd::RUNTIME_FAULT_LISTING;
use super::{CliError, out};
use crate::exit::Ending;
use crate::protocol::agentruntime::bridge::WITNESS_VAR;
use reference_hosts::agentruntime::{self, DEFAULT_ACCEPTS, RuntimeConfig, RuntimeFault};
use std::io::{BufRead as _, Read as _, Write as _};

/// The longest request line read.
const MAX_REQUEST_BYTES: u64 = 256 * 1024 * 1024;

pub fn serve(args: &ServeArgs) -> Result<Ending, CliError> {
    if args.list_faults {
        for f in RuntimeFault::all() {
            out::line(format_args!("{:32} {}", f.name(), f.description()));
        }
        return Ok(Ending::Done);
    }
    let names: Vec<&str> = RuntimeFault::all().iter().map(|f| f.name()).collect();
    let fault = parse_fault::<RuntimeFault>(
        "--fault",
        args.fault.as_deref(),
        &names,
        RUNTIME_FAULT_LISTING,
    )
    .map_err(CliError::Usage)?;
    let model = match args
        .upstream
        .clone()
        .or_else(|| std::env::var(WITNESS_VAR).ok())
    {
        Some(raw) => Some(
            url::Url::parse(&raw)
                .map_err(|e| CliError::Usage(format!("the model URL `{raw}`: {e}")))?,
        ),
        None => None,
    };
    let mut config = RuntimeConfig::new(fault, model);
    config.emits_outbound = args.emits_outbound;
    if !args.accepts.is_empty() {
        config.accepts = args.accepts.clone();
    } else {
        config.accepts = DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect();
    }
    let mut request = String::new();
    std::io::stdin()
        .lock()
        .take(MAX_REQUEST_BYTES)
        .read_line(&mut request)
        .map_err(|e| CliError::Internal(format!("cannot read the request line: {e}")))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start the async runtime: {e}")))?;
    let code = runtime.block_on(async {
        let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| CliError::Internal(format!("cannot watch SIGTERM: {e}")))?;
        let aborted = async move {
            sigterm.recv().await;
        };
        let mut print = |line: String| {
            let mut stdout = std::io::stdout().lock();
            // A reader that went away is the tester's business, not a crash of ours.
            let _ = writeln!(stdout, "{line}");
            let _ = stdout.flush();
        };
        Ok::<i32, CliError>(agentruntime::serve(&config, &request, &mut print, aborted).await)
    })?;
    Ok(Ending::Bridge(code))
}
