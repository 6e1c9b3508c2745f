//! `serve-reference --profile acp`: the reference ACP agent on stdin/stdout, one
//! process for a whole run. Its model is the OpenAI-compatible base URL in
//! `MMCONFORM_WITNESS_URL` (or `--upstream`); `--accepts image,audio,embeddedContext`
//! narrows what it advertises.

use super::args::ServeArgs;
use super::embedded::parse_fault;
use super::target_cmd::ACP_FAULT_LISTING;
use super::{CliError, out};
use crate::exit::Ending;
use crate::protocol::acp::agent::WITNESS_VAR;
use reference_hosts::acp::{self, AcpConfig, AcpFault};
use std::io::{BufRead as _, Write as _};
use std::sync::Arc;

/// The longest request line read (a prompt carries its media inline).
const MAX_LINE_BYTES: usize = 256 * 1024 * 1024;

pub fn serve(args: &ServeArgs) -> Result<Ending, CliError> {
    if args.list_faults {
        for f in AcpFault::all() {
            out::line(format_args!("{:32} {}", f.name(), f.description()));
        }
        return Ok(Ending::Done);
    }
    let names: Vec<&str> = AcpFault::all().iter().map(|f| f.name()).collect();
    let fault =
        parse_fault::<AcpFault>("--fault", args.fault.as_deref(), &names, ACP_FAULT_LISTING)
            .map_err(CliError::Usage)?;
    for a in &args.accepts {
        if !["image", "audio", "embeddedContext", "none"].contains(&a.as_str()) {
            return Err(CliError::Usage(format!(
                "--accepts `{a}`: the reference ACP agent advertises image, audio, embeddedContext (or none)"
            )));
        }
    }
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
    let config = AcpConfig::new(fault, model, &args.accepts);
    let (tx, rx) = tokio::sync::mpsc::channel::<String>(16);
    // stdin is read on a thread of its own: a blocking read must not hold the turns.
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut line = String::new();
        loop {
            line.clear();
            match stdin.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line.len() > MAX_LINE_BYTES => return,
                Ok(_) => {
                    if tx.blocking_send(line.trim_end().to_string()).is_err() {
                        return;
                    }
                }
            }
        }
    });
    let print: acp::Print = Arc::new(|line: String| {
        let mut stdout = std::io::stdout().lock();
        // A reader that went away is the client's business, not a crash of ours.
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start the async runtime: {e}")))?;
    let code = runtime.block_on(acp::serve(config, rx, print));
    // The stdin thread may still block on a read: leave without waiting for it.
    runtime.shutdown_background();
    Ok(Ending::Bridge(code))
}
