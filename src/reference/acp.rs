//! The reference ACP agent (`reference_hosts::acp`) on stdin/stdout, one process for a
//! whole run: `serve-reference --profile acp`. A run reaches it as it reaches any ACP
//! agent, as a command (`--target reference` is this binary's own
//! `serve-reference`), and so does calibration, with its model a witness (delivery
//! can only be seen there) and its declaration its own initialize. Its model is the
//! OpenAI-compatible base URL in `MMCONFORM_WITNESS_URL` (or `--upstream`); `--accepts
//! image,audio,embeddedContext` narrows what it advertises.

use super::serve::{ServeFlag, ServeForm, ServeRequest};
use super::shape::{Shape, ShapeHost, Started};
use super::{ReferenceFlag, ReferenceHost, ReferenceRequest, ReferenceTarget};
use crate::config::{RunConfig, Target};
use crate::exit::Ending;
use crate::process::Command;
use crate::protocol::acp::agent::WITNESS_VAR;
use futures_util::future::BoxFuture;
use reference_hosts::acp::{self, AcpConfig, AcpFault};
use reference_hosts::{HostFault, UpstreamWire};
use std::io::{BufRead as _, Write as _};
use std::sync::Arc;
use std::time::Duration;

/// The longest request line read (a prompt carries its media inline).
const MAX_LINE_BYTES: usize = 256 * 1024 * 1024;

/// How long a calibration run waits for an answer: a fault that never answers costs
/// this once per case it breaks.
const CALIBRATION_TIMEOUT: Duration = Duration::from_secs(3);

/// What the reference agent can advertise (`--accepts`), or `none`.
const CAPABILITIES: [&str; 4] = ["image", "audio", "embeddedContext", "none"];

/// The reference ACP agent, as the registry lists it.
pub static AGENT: ReferenceAgent = ReferenceAgent;

pub struct ReferenceAgent;

static FORMS: [ServeForm; 1] = [ServeForm {
    profile: "acp",
    help: "The reference ACP agent on stdin/stdout (its model is $MMCONFORM_WITNESS_URL)",
    door: "",
    takes: &[ServeFlag::Accepts],
}];

fn parse(flag: &str, given: Option<&str>) -> Result<Option<AcpFault>, String> {
    let names: Vec<&str> = AcpFault::all().iter().map(|f| f.name()).collect();
    let listing = super::fault_listing(&FORMS[0], false);
    super::parse_fault::<AcpFault>(flag, given, &names, &listing)
}

/// This program's `serve-reference --profile acp`, broken by `fault` and advertising
/// `accepts` when given.
fn command(fault: Option<AcpFault>, accepts: &[String]) -> Result<Command, String> {
    super::program::serve_reference(FORMS[0].profile, fault.map(|f| f.name()), accepts)
}

impl ReferenceHost for ReferenceAgent {
    fn name(&self) -> &'static str {
        "acp"
    }

    fn variant_prefix(&self) -> &'static str {
        "acp:"
    }

    fn faults(&self) -> Vec<&'static dyn HostFault> {
        super::faults_of(AcpFault::all())
    }

    fn takes(&self) -> &'static [ReferenceFlag] {
        &[ReferenceFlag::Accepts]
    }

    /// `--reference-fault` and `--reference-accepts` (what it advertises: image, audio,
    /// embeddedContext).
    fn target(&self, request: &ReferenceRequest) -> Result<ReferenceTarget, String> {
        let fault = parse("--reference-fault", request.fault.as_deref())?;
        command(fault, &request.accepts).map(ReferenceTarget::Command)
    }

    fn serve_forms(&self) -> &'static [ServeForm] {
        &FORMS
    }

    fn serve(&self, form: &ServeForm, request: &ServeRequest) -> Result<Ending, Ending> {
        if request.list_faults {
            return Ok(super::serve::list_faults(&self.faults(), form.door));
        }
        let fault = parse("--fault", request.fault.as_deref()).map_err(Ending::Usage)?;
        if let Some(a) = request
            .accepts
            .iter()
            .find(|a| !CAPABILITIES.contains(&a.as_str()))
        {
            return Err(Ending::Usage(format!(
                "--accepts `{a}`: the reference ACP agent advertises image, audio, embeddedContext (or none)"
            )));
        }
        let config = AcpConfig::new(fault, request.model_url(WITNESS_VAR)?, &request.accepts);
        serve_on_stdio(config)
    }

    fn shapes(&self) -> Vec<Shape> {
        let shape = |name, summary, accepts| {
            Shape::new(
                name,
                summary,
                "acp",
                "acp",
                Arc::new(AgentShape { accepts }),
            )
            .witnessed()
        };
        vec![
            shape(
                "acp-witness",
                "reference ACP agent (image, audio, embeddedContext) as one process, its model a witness",
                &[],
            ),
            // Advertising nothing but text, so every unadvertised case runs in it.
            shape(
                "acp-text-only",
                "reference ACP agent advertising no prompt capability beyond text, its model a witness",
                &["none"],
            ),
        ]
    }
}

/// Serves `config` on stdin/stdout until stdin ends.
fn serve_on_stdio(config: AcpConfig) -> Result<Ending, Ending> {
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
    let runtime = super::serve::runtime()?;
    let code = runtime.block_on(acp::serve(config, rx, print));
    // The stdin thread may still block on a read: leave without waiting for it.
    runtime.shutdown_background();
    Ok(Ending::Bridge(code))
}

/// The agent advertising these capabilities (none: all).
#[derive(Debug, Clone, Copy)]
struct AgentShape {
    accepts: &'static [&'static str],
}

impl ShapeHost for AgentShape {
    /// The run against the reference agent, broken by `fault` when given.
    fn start<'a>(
        &'a self,
        fault: Option<&'static dyn HostFault>,
        _upstream: Option<url::Url>,
        _wire: UpstreamWire,
    ) -> BoxFuture<'a, Result<Started, String>> {
        Box::pin(async move {
            let fault = super::own_fault::<AcpFault>(fault)?;
            let accepts: Vec<String> = self.accepts.iter().map(|a| a.to_string()).collect();
            let mut config = RunConfig::new(Target::Command(command(fault, &accepts)?));
            config.target_label =
                Some("reference ACP agent (serve-reference --profile acp)".into());
            config.timeout = CALIBRATION_TIMEOUT;
            Ok(Started {
                reference: None,
                config,
            })
        })
    }
}
