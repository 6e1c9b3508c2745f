//! `run --witness ADDR`: the witness a run starts before any case. It is bounded by
//! the witness's default limits, its base URL is printed on stderr before any case
//! runs, the embedded reference host (`--target reference`) forwards to it unless
//! `--reference-upstream` says otherwise, and the run records it in its configuration
//! (`RunConfig::witness_url`); the executor gets the running witness itself.

use super::args::RunArgs;
use super::resolve::Resolved;
use crate::witness::{RunningWitness, Witness, WitnessConfig};
use std::sync::Arc;

/// Starts the witness `--witness` asks for and points the run at it. `Ok(None)`
/// without `--witness`; `Err` is a usage problem (a non-loopback address without
/// `--witness-allow-remote`, an address that cannot be bound).
pub async fn start(
    args: &RunArgs,
    resolved: &mut Resolved,
) -> Result<Option<Arc<RunningWitness>>, String> {
    let Some(listen) = args.witness else {
        return Ok(None);
    };
    let config = WitnessConfig {
        listen,
        allow_non_loopback: args.witness_allow_remote,
        ..WitnessConfig::default()
    };
    let running = Witness::start(config)
        .await
        .map_err(|e| format!("--witness: {e}"))?;
    let base_url = running.base_url();
    super::out::error_line(format_args!(
        "witness: {base_url} — point the host's model at it"
    ));
    if let Some(embedded) = resolved.embedded.as_mut() {
        let url = url::Url::parse(&base_url)
            .map_err(|e| format!("the witness URL `{base_url}` does not parse: {e}"))?;
        embedded.default_upstream(url);
    }
    resolved.config.witness_url = Some(base_url);
    Ok(Some(Arc::new(running)))
}

/// Stops the witness once the run is over (calls in flight get a few seconds).
pub async fn stop(witness: Option<Arc<RunningWitness>>) {
    // The executor's handle is gone by now; if one were left, dropping the last
    // handle stops the server all the same.
    if let Some(running) = witness.and_then(|w| Arc::try_unwrap(w).ok()) {
        running.shutdown().await;
    }
}
