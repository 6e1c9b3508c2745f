//! The reference AgentRuntime (`reference_hosts::agentruntime`), a bridge speaking
//! protocol v1 on stdin/stdout, one request per process: `serve-reference --profile
//! agentruntime`. A run reaches it as it reaches any runtime, as a command
//! (`--target reference` is this binary's own `serve-reference`), and so does
//! calibration, with its model a witness (delivery can only be seen there) and its
//! declaration its own describe. SIGTERM is its abort signal.

use super::serve::{ServeFlag, ServeForm, ServeRequest};
use super::shape::{Shape, ShapeHost, Started};
use super::{ReferenceFlag, ReferenceHost, ReferenceRequest, ReferenceTarget};
use crate::config::{RunConfig, Target};
use crate::exit::Ending;
use crate::process::Command;
use crate::protocol::agentruntime::bridge::WITNESS_VAR;
use futures_util::future::BoxFuture;
use reference_hosts::agentruntime::{self, DEFAULT_ACCEPTS, RuntimeConfig, RuntimeFault};
use reference_hosts::{HostFault, UpstreamWire};
use std::io::{BufRead as _, Read as _, Write as _};
use std::sync::Arc;

/// The longest request line read.
const MAX_REQUEST_BYTES: u64 = 256 * 1024 * 1024;

/// The reference AgentRuntime, as the registry lists it.
pub static RUNTIME: ReferenceRuntime = ReferenceRuntime;

pub struct ReferenceRuntime;

static FORMS: [ServeForm; 1] = [ServeForm {
    profile: "agentruntime",
    help: "The reference AgentRuntime, speaking bridge protocol v1 on stdin/stdout (one request per process; its model is $MMCONFORM_WITNESS_URL)",
    door: "",
    takes: &[ServeFlag::Accepts, ServeFlag::EmitsOutbound],
}];

fn parse(flag: &str, given: Option<&str>) -> Result<Option<RuntimeFault>, String> {
    let names: Vec<&str> = RuntimeFault::all().iter().map(|f| f.name()).collect();
    let listing = super::fault_listing(&FORMS[0], false);
    super::parse_fault::<RuntimeFault>(flag, given, &names, &listing)
}

/// This program's `serve-reference --profile agentruntime`, broken by `fault`,
/// declaring `accepts` when given and `emitsOutbound: true` when `emits_outbound`.
fn command(
    fault: Option<RuntimeFault>,
    accepts: &[String],
    emits_outbound: bool,
) -> Result<Command, String> {
    let mut command =
        super::program::serve_reference(FORMS[0].profile, fault.map(|f| f.name()), accepts)?;
    if emits_outbound {
        command.argv.push("--emits-outbound".into());
    }
    Ok(command)
}

impl ReferenceHost for ReferenceRuntime {
    fn name(&self) -> &'static str {
        "agentruntime"
    }

    fn variant_prefix(&self) -> &'static str {
        "agentruntime:"
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(RuntimeFault::all())
    }

    fn takes(&self) -> &'static [ReferenceFlag] {
        &[ReferenceFlag::Accepts, ReferenceFlag::EmitsOutbound]
    }

    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let fault = parse("--reference-fault", request.fault.as_deref())?;
        command(fault, &request.accepts, request.emits_outbound).map(ReferenceTarget::Command)
    }

    fn serve_forms(&self) -> &'static [ServeForm] {
        &FORMS
    }

    fn serve(&self, form: &ServeForm, request: &ServeRequest) -> Result<Ending, Ending> {
        if request.list_faults {
            return Ok(super::serve::list_faults(&self.faults(), form.door));
        }
        let fault = parse("--fault", request.fault.as_deref()).map_err(Ending::Usage)?;
        let mut config = RuntimeConfig::new(fault, request.model_url(WITNESS_VAR)?);
        config.emits_outbound = request.emits_outbound;
        config.accepts = if request.accepts.is_empty() {
            DEFAULT_ACCEPTS.iter().map(|s| s.to_string()).collect()
        } else {
            request.accepts.clone()
        };
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .take(MAX_REQUEST_BYTES)
            .read_line(&mut line)
            .map_err(|e| Ending::Internal(format!("cannot read the request line: {e}")))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Ending::Internal(format!("cannot start the async runtime: {e}")))?;
        let code = runtime.block_on(async {
            let mut sigterm =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .map_err(|e| Ending::Internal(format!("cannot watch SIGTERM: {e}")))?;
            let aborted = async move {
                sigterm.recv().await;
            };
            let mut print = |line: String| {
                let mut stdout = std::io::stdout().lock();
                // A reader that went away is the tester's business, not a crash of ours.
                let _ = writeln!(stdout, "{line}");
                let _ = stdout.flush();
            };
            Ok::<i32, Ending>(agentruntime::serve(&config, &line, &mut print, aborted).await)
        })?;
        Ok(Ending::Bridge(code))
    }

    fn shapes(&self) -> Vec<Shape> {
        SHAPES
            .iter()
            .map(|shape| {
                let mut calibrated = Shape::new(
                    shape.name,
                    shape.summary,
                    "agentruntime",
                    "agentruntime",
                    Arc::new(*shape),
                )
                .witnessed();
                calibrated.only_cases = shape.only_cases;
                calibrated
            })
            .collect()
    }
}

/// One way the reference runtime is started for calibration.
#[derive(Debug, Clone, Copy)]
struct RuntimeShape {
    name: &'static str,
    summary: &'static str,
    /// The `--accepts` it declares (none: its default, image/, audio/wav, application/pdf).
    accepts: &'static [&'static str],
    /// `--emits-outbound`: it declares `emitsOutbound: true` and sends media back.
    emits_outbound: bool,
    /// The faults run in it; `None`: every fault but the outbound ones.
    faults: Option<&'static [RuntimeFault]>,
    /// The only cases it runs (unless calibrate was given `--filter`); `None`: all.
    /// Each case is a bridge process: a shape there for one case runs that one.
    only_cases: Option<&'static str>,
}

/// The shapes. The second accepts exactly what the first does not, so every delivery
/// and undeclared case runs in one of them; the third declares outbound media, so the
/// outbound case is proven both ways.
const SHAPES: [RuntimeShape; 3] = [
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
const OUTBOUND_FAULTS: [RuntimeFault; 5] = [
    RuntimeFault::OutboundWithoutMime,
    RuntimeFault::OutboundFileMissing,
    RuntimeFault::OutboundBadBase64,
    RuntimeFault::OutboundMislabelled,
    RuntimeFault::ResultMediaNotList,
];

impl ShapeHost for RuntimeShape {
    fn runs(&self, fault: &dyn HostFault) -> bool {
        let listed = |faults: &[RuntimeFault]| faults.iter().any(|f| f.name() == fault.name());
        match self.faults {
            Some(faults) => listed(faults),
            None => !listed(&OUTBOUND_FAULTS),
        }
    }

    /// The run against the reference runtime, broken by `fault` when given.
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        _upstream: Option<url::Url>,
        _wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let fault = super::own_fault::<RuntimeFault>(fault)?;
            let accepts: Vec<String> = self.accepts.iter().map(|a| a.to_string()).collect();
            let mut config = RunConfig::new(Target::Command(command(
                fault,
                &accepts,
                self.emits_outbound,
            )?));
            config.target_label =
                Some("reference runtime (serve-reference --profile agentruntime)".into());
            Ok(Started {
                reference: None,
                config,
            })
        })
    }
}
