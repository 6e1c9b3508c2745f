//! The shapes calibration runs the reference hosts in: every host's, in registry
//! order (`crate::reference` says what each is and how it starts), and what starting
//! one adds for a calibration run: the witness its host forwards to, the run's
//! protocol and token variable, the case concurrency and the mutated schemas.

use super::variant::Variant;
use crate::config::RunConfig;
pub use crate::reference::Shape as Setup;
use crate::reference::Started as ShapeStarted;
use crate::witness::{RunningWitness, Witness, WitnessConfig};
use reference_hosts::RunningReference;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a case of a witness setup waits for its model call. The reference hosts
/// call their model before they answer, so a call that is not there by then is late
/// only under a heavily loaded machine; a host that never calls costs this per case.
const CALIBRATION_WITNESS_WAIT: Duration = Duration::from_millis(1500);

/// A started shape: its host, the run configuration pointed at it and, in a witness
/// setup, the witness the host forwards to.
pub struct Started {
    /// The embedded host; `None` for a process target, started by the run.
    pub reference: Option<RunningReference>,
    pub config: RunConfig,
    pub witness: Option<Arc<RunningWitness>>,
}

/// Every calibration shape, in the order the matrix lists them.
pub fn setups() -> Vec<Setup> {
    crate::registry::reference_hosts()
        .into_iter()
        .flat_map(|host| host.shapes())
        .collect()
}

/// Starts `setup`'s faithful host, or the host broken by `variant`, on a loopback port,
/// and returns it with the run configuration pointed at it; schema mutants come in as
/// a directory of replacement schemas.
pub async fn start(
    setup: &Setup,
    variant: Option<&Variant>,
    schemas_dir: Option<PathBuf>,
    concurrency: usize,
) -> Result<Started, String> {
    let witness = match setup.witness {
        true => Some(Arc::new(start_witness().await?)),
        false => None,
    };
    let upstream = witness
        .as_ref()
        .map(|w| url::Url::parse(&w.base_url()).map_err(|e| format!("witness URL: {e}")))
        .transpose()?;
    let protocol = crate::registry::protocol(setup.profile)
        .ok_or_else(|| format!("the shape {} runs no registered profile", setup.name))?;
    let ShapeStarted {
        reference,
        mut config,
    } = setup
        .start
        .start(
            variant.and_then(Variant::host_fault),
            upstream,
            setup.upstream_wire,
        )
        .await?;
    config.protocol = Some(protocol.name());
    // The secrets among the shape's options, as the CLI names them (RFC 0108's endpoint).
    config
        .extra_secrets
        .extend(protocol.check_options(&config.options)?);
    config.token_env = crate::registry::token_env(protocol).to_string();
    config.concurrency = concurrency;
    config.schemas_dir = schemas_dir;
    if let Some(w) = &witness {
        // What `run --witness` sets (cli::run_witness, cli::resolve).
        config.witness_url = Some(w.base_url());
        config.witness_wait = CALIBRATION_WITNESS_WAIT;
        config.model_provider = Some(reference_hosts::COMPAT_PROVIDER.to_string());
    }
    Ok(Started {
        reference,
        config,
        witness,
    })
}

/// A witness on a loopback port with the default limits.
async fn start_witness() -> Result<RunningWitness, String> {
    Witness::start(WitnessConfig {
        listen: crate::reference::loopback(),
        ..WitnessConfig::default()
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_shape_runs_a_registered_profile() {
        let all = setups();
        let mut names: Vec<&str> = all.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for setup in &all {
            assert!(
                crate::registry::protocol(setup.profile).is_some(),
                "{}",
                setup.name
            );
        }
    }
}
