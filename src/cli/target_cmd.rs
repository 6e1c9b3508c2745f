//! `--profile agentruntime`'s target: the bridge command (`--target-cmd 'CMD ARGS'`,
//! or `MMCONFORM_TARGET_CMD`), or `--target reference`, which is this binary's own
//! `serve-reference --profile agentruntime` started the same way (a process per
//! request, never embedded: the reference is reached exactly as any runtime is).

use super::args::{ProfileArg, TargetArgs};
use super::embedded::parse_fault;
use super::resolve::Env;
use crate::config::Target;
use crate::process::Command;
use reference_hosts::agentruntime::RuntimeFault;

/// The variable naming the bridge when `--target-cmd` is absent.
pub const TARGET_CMD_ENV: &str = "MMCONFORM_TARGET_CMD";

pub const RUNTIME_FAULT_LISTING: &str =
    "mmconform serve-reference --profile agentruntime --list-faults";

pub fn resolve(args: &TargetArgs, offline: bool, env: Env) -> Result<Target, String> {
    if args.profile != ProfileArg::Agentruntime {
        return Err(
            "--target-cmd starts an AgentRuntime bridge: add --profile agentruntime".into(),
        );
    }
    if offline {
        return Err(
            "--offline runs openwop's schema checks; an agentruntime run needs --target-cmd".into(),
        );
    }
    if args.reference.reference_upstream.is_some() {
        return Err(
            "--reference-upstream: the reference runtime's model is the witness (--witness)".into(),
        );
    }
    let from_env = env(TARGET_CMD_ENV).filter(|v| !v.trim().is_empty());
    let command = match (
        args.target.as_deref().map(str::trim),
        &args.target_cmd,
        from_env,
    ) {
        (Some("reference"), _, _) => reference_command(args)?,
        (Some(other), _, _) => {
            return Err(format!(
                "--target `{other}`: an AgentRuntime is reached through its bridge, a command: \
                 pass --target-cmd 'CMD ARGS' (or `--target reference`)"
            ));
        }
        (None, Some(line), _) => Command::parse(line, args.target_cwd.clone())
            .map_err(|e| format!("--target-cmd: {e}"))?,
        (None, None, Some(line)) => {
            Command::parse(&line, None).map_err(|e| format!("${TARGET_CMD_ENV}: {e}"))?
        }
        (None, None, None) => {
            return Err(format!(
                "no target: pass --target-cmd 'CMD ARGS' (the runtime's bridge) or \
                 `--target reference`, or set {TARGET_CMD_ENV}"
            ));
        }
    };
    if let Some(dir) = &command.cwd
        && !dir.is_dir()
    {
        return Err(format!("--target-cwd {}: not a directory", dir.display()));
    }
    Ok(Target::Command(command))
}

/// This binary's `serve-reference --profile agentruntime`, with the `--reference-*`
/// flags that shape it.
fn reference_command(args: &TargetArgs) -> Result<Command, String> {
    let reference = &args.reference;
    let names: Vec<&str> = RuntimeFault::all().iter().map(|f| f.name()).collect();
    let fault = parse_fault::<RuntimeFault>(
        "--reference-fault",
        reference.reference_fault.as_deref(),
        &names,
        RUNTIME_FAULT_LISTING,
    )?;
    crate::calibrate::setup_agentruntime::reference_runtime(fault, &reference.reference_accepts)
}
