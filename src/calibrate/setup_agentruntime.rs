//! The shape the reference AgentRuntime is calibrated in: this binary's
//! `serve-reference --profile agentruntime`, started as a bridge process per request
//! exactly as `--target reference` starts it, its model a witness (delivery can only be
//! seen there), its declaration its own describe. Every runtime fault runs here.

use crate::config::{RunConfig, Target};
use crate::process::Command;
use reference_hosts::agentruntime::RuntimeFault;

/// One way the reference runtime is started for calibration.
#[derive(Debug, Clone, Copy)]
pub struct RuntimeShape {
    pub name: &'static str,
    pub summary: &'static str,
    /// The `--accepts` it declares (none: its default, image/, audio/wav, application/pdf).
    pub accepts: &'static [&'static str],
    /// `--emits-outbound`: it declares `emitsOutbound: true` and sends media back.
    pub emits_outbound: bool,
    /// The faults run in it; `None`: every fault but the outbound ones.
    pub faults: Option<&'static [RuntimeFault]>,
    /// The only cases it runs (unless calibrate was given `--filter`); `None`: all.
    /// Each case is a bridge process: a shape there for one case runs that one.
    pub only_cases: Option<&'static str>,
}

/// The shapes. The second accepts exactly what the first does not, so every delivery
/// and undeclared case runs in one of them; the third declares outbound media, so the
/// outbound case is proven both ways.
pub const SHAPES: [RuntimeShape; 3] = [
    RuntimeShape {
        name: "agentruntime-witness",
        summary: "reference AgentRuntime (image/, audio/wav, application/pdf; emits no media) as a bridge process, its model a witness",
        accepts: &[],
        emits_outbound: false,
        faults: None,
        only_cases: None,
    },
    RuntimeShape {
        name: "agentruntime-narrow",
        summary: "reference AgentRuntime declaring audio/mpeg and video/ only, its model a witness",
        accepts: &["audio/mpeg", "video/"],
        emits_outbound: false,
        faults: Some(&NARROW_FAULTS),
        only_cases: None,
    },
    RuntimeShape {
        name: "agentruntime-outbound",
        summary: "reference AgentRuntime declaring emitsOutbound: true, sending a PNG file and an inline JPEG back with every run (agentruntime.outbound and its faults only)",
        accepts: &[],
        emits_outbound: true,
        faults: Some(&OUTBOUND_FAULTS),
        only_cases: Some("agentruntime.outbound"),
    },
];

/// The faults run in `agentruntime-narrow`: there only to show the cases the default
/// declaration skips (delivery of audio/mpeg and video, undeclared images, WAV, PDF)
/// able to fail, one fault per way such a case can fail is enough; every other fault
/// runs in `agentruntime-witness` (one bridge process per case makes each run cost
/// seconds).
const NARROW_FAULTS: [RuntimeFault; 4] = [
    RuntimeFault::DropsBase64Only,
    RuntimeFault::IgnoresFilePath,
    RuntimeFault::SwallowsPrompt,
    RuntimeFault::ErrorsOnUndeclared,
];

/// The faults that spoil declared outbound media: they change nothing in a runtime
/// that sends none, so they run only in `agentruntime-outbound`, and only they do.
pub const OUTBOUND_FAULTS: [RuntimeFault; 5] = [
    RuntimeFault::OutboundWithoutMime,
    RuntimeFault::OutboundFileMissing,
    RuntimeFault::OutboundBadBase64,
    RuntimeFault::OutboundMislabelled,
    RuntimeFault::ResultMediaNotList,
];

/// Whether `fault` runs in the shape named `setup`.
pub fn runs_in(fault: RuntimeFault, setup: &str) -> bool {
    let Some(shape) = SHAPES.iter().find(|s| s.name == setup) else {
        return false;
    };
    match shape.faults {
        Some(faults) => faults.contains(&fault),
        None => !OUTBOUND_FAULTS.contains(&fault),
    }
}

/// The run against the reference runtime, broken by `fault` when given.
pub fn run_config(fault: Option<RuntimeFault>, shape: &RuntimeShape) -> Result<RunConfig, String> {
    let accepts: Vec<String> = shape.accepts.iter().map(|a| a.to_string()).collect();
    let mut command = reference_runtime(fault, &accepts)?;
    if shape.emits_outbound {
        command.argv.push("--emits-outbound".into());
    }
    let mut config = RunConfig::new(Target::Command(command));
    config.protocol = Some(crate::protocol::agentruntime::PROFILE);
    config.target_label = Some("reference runtime (serve-reference --profile agentruntime)".into());
    Ok(config)
}

/// This program's `serve-reference --profile agentruntime`, broken by `fault` and
/// declaring `accepts` when given: what calibration and `run --target reference` start
/// (each adds `--emits-outbound` when its shape declares outbound media).
pub fn reference_runtime(
    fault: Option<RuntimeFault>,
    accepts: &[String],
) -> Result<Command, String> {
    let mut argv = vec![
        crate::process::command::this_program()?,
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
