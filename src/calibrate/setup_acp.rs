//! The shapes the reference ACP agent is calibrated in: this binary's
//! `serve-reference --profile acp`, started as one agent process per run exactly as
//! `--target reference` starts it, its model a witness (delivery can only be seen
//! there), its declaration its own initialize. Every ACP fault runs here.

use crate::config::{RunConfig, Target};
use crate::process::Command;
use reference_hosts::acp::AcpFault;
use std::time::Duration;

/// The shapes: name, summary, and the capabilities the agent advertises (none: all).
/// The second advertises nothing but text, so every unadvertised case runs in it.
pub const SHAPES: [(&str, &str, &[&str]); 2] = [
    (
        "acp-witness",
        "reference ACP agent (image, audio, embeddedContext) as one process, its model a witness",
        &[],
    ),
    (
        "acp-text-only",
        "reference ACP agent advertising no prompt capability beyond text, its model a witness",
        &["none"],
    ),
];

/// How long a calibration run waits for an answer: a fault that never answers costs
/// this once per case it breaks.
const CALIBRATION_TIMEOUT: Duration = Duration::from_secs(3);

/// The run against the reference agent, broken by `fault` when given.
pub fn run_config(fault: Option<AcpFault>, accepts: &[&str]) -> Result<RunConfig, String> {
    let mut argv = vec![
        crate::process::command::this_program()?,
        "serve-reference".into(),
        "--profile".into(),
        "acp".into(),
    ];
    if let Some(fault) = fault {
        argv.extend(["--fault".into(), fault.name().into()]);
    }
    if !accepts.is_empty() {
        argv.extend(["--accepts".into(), accepts.join(",")]);
    }
    let mut config = RunConfig::new(Target::Command(Command { argv, cwd: None }));
    config.protocol = Some(crate::protocol::acp::PROFILE);
    config.target_label = Some("reference ACP agent (serve-reference --profile acp)".into());
    config.timeout = CALIBRATION_TIMEOUT;
    Ok(config)
}
