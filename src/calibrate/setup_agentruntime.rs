//! The shape the reference AgentRuntime is calibrated in: this binary's
//! `serve-reference --profile agentruntime`, started as a bridge process per request
//! exactly as `--target reference` starts it, its model a witness (delivery can only be
//! seen there), its declaration its own describe. Every runtime fault runs here.

use crate::config::{RunConfig, Target};
use crate::process::Command;
use reference_hosts::agentruntime::RuntimeFault;

/// The shapes: name, summary, and the `--accepts` the runtime declares (none: its
/// default, image/, audio/wav, application/pdf). The second accepts exactly what the
/// first does not, so every delivery and undeclared case runs in one of them.
pub const SHAPES: [(&str, &str, &[&str]); 2] = [
    (
        "agentruntime-witness",
        "reference AgentRuntime (image/, audio/wav, application/pdf; emits no media) as a bridge process, its model a witness",
        &[],
    ),
    (
        "agentruntime-narrow",
        "reference AgentRuntime declaring audio/mpeg and video/ only, its model a witness",
        &["audio/mpeg", "video/"],
    ),
];

/// The faults run in `agentruntime-narrow`: there only to show the cases the default
/// declaration skips (delivery of audio/mpeg and video, undeclared images, WAV, PDF)
/// able to fail, one fault per way such a case can fail is enough; every fault runs in
/// `agentruntime-witness` (one bridge process per case makes each run cost seconds).
const NARROW_FAULTS: [RuntimeFault; 4] = [
    RuntimeFault::DropsBase64Only,
    RuntimeFault::IgnoresFilePath,
    RuntimeFault::SwallowsPrompt,
    RuntimeFault::ErrorsOnUndeclared,
];

/// Whether `fault` runs in the shape named `setup`.
pub fn runs_in(fault: RuntimeFault, setup: &str) -> bool {
    setup != SHAPES[1].0 || NARROW_FAULTS.contains(&fault)
}

/// The run against the reference runtime, broken by `fault` when given.
pub fn run_config(fault: Option<RuntimeFault>, accepts: &[&str]) -> Result<RunConfig, String> {
    let accepts: Vec<String> = accepts.iter().map(|a| a.to_string()).collect();
    let mut config = RunConfig::new(Target::Command(reference_runtime(fault, &accepts)?));
    config.protocol = Some(crate::protocol::agentruntime::PROFILE);
    config.target_label = Some("reference runtime (serve-reference --profile agentruntime)".into());
    Ok(config)
}

/// This program's `serve-reference --profile agentruntime`, broken by `fault` and
/// declaring `accepts` when given: what calibration and `run --target reference` start.
pub fn reference_runtime(
    fault: Option<RuntimeFault>,
    accepts: &[String],
) -> Result<Command, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find this program to start the reference runtime: {e}"))?;
    let mut argv = vec![
        exe.to_string_lossy().into_owned(),
        "serve-reference".into(),
        "--profile".into(),
        "agentruntime".into(),
    ];
    if let Some(fault) = fault {
        argv.extend(["--fault".into(), fault.name().into()]);
    }
    if !accepts.is_empty() {
        argv.extend(["--accepts".into(), accepts.join(",")]);
    }
    Ok(Command { argv, cwd: None })
}
