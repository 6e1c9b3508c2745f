//! A target that is a program (a protocol whose `TargetKind` is `Command`): the command
//! `--target-cmd 'CMD ARGS'` (or `MMCONFORM_TARGET_CMD`) names, or `--target
//! reference`, the reference host the registry names for the profile (this binary's own
//! `serve-reference`, started the same way: the reference is reached exactly as any
//! target of its protocol is).

use super::args::TargetArgs;
use super::resolve::{Env, TargetChoice};
use crate::config::Target;
use crate::process::Command;
use crate::protocol::{Protocol, TargetKind};
use crate::reference::ReferenceTarget;

/// The variable naming the command when `--target-cmd` is absent.
pub const TARGET_CMD_ENV: &str = "MMCONFORM_TARGET_CMD";

/// The profiles whose target is a program, each with what the program is.
fn programs() -> Vec<(&'static str, &'static str)> {
    crate::registry::protocols()
        .filter_map(|p| match p.description().target {
            TargetKind::Command { program, .. } => Some((p.name(), program)),
            TargetKind::Url(_) => None,
        })
        .collect()
}

/// The profiles whose target is a program.
pub fn program_profiles() -> Vec<&'static str> {
    programs().into_iter().map(|(name, _)| name).collect()
}

pub fn resolve(
    args: &TargetArgs,
    protocol: &dyn Protocol,
    offline: bool,
    env: Env,
) -> Result<TargetChoice, String> {
    let TargetKind::Command { program, .. } = protocol.description().target else {
        let profiles: Vec<String> = programs()
            .iter()
            .map(|(name, program)| format!("--profile {name} ({program})"))
            .collect();
        return Err(format!(
            "--target-cmd starts a program: add {}",
            profiles.join(" or ")
        ));
    };
    if offline {
        return Err(format!(
            "--offline runs {}'s schema checks; a run of a program needs --target-cmd",
            super::target::offline_profiles()
        ));
    }
    if args.reference.reference_upstream.is_some() {
        return Err(
            "--reference-upstream: the reference's model is the witness (--witness)".into(),
        );
    }
    if args.target.as_deref().map(str::trim) == Some("reference") {
        return Ok(match super::target::reference(args, protocol)? {
            ReferenceTarget::Command(command) => TargetChoice::Given(Target::Command(command)),
            ReferenceTarget::Embedded(host) => TargetChoice::Embedded(host),
        });
    }
    super::target::refuse_reference_flags(args)?;
    let from_env = env(TARGET_CMD_ENV).filter(|v| !v.trim().is_empty());
    let command = match (
        args.target.as_deref().map(str::trim),
        &args.target_cmd,
        from_env,
    ) {
        (Some(other), _, _) => {
            return Err(format!(
                "--target `{other}`: {program} is reached as a command: \
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
                "no target: pass --target-cmd 'CMD ARGS' ({program}) or \
                 `--target reference`, or set {TARGET_CMD_ENV}"
            ));
        }
    };
    if let Some(dir) = &command.cwd
        && !dir.is_dir()
    {
        return Err(format!("--target-cwd {}: not a directory", dir.display()));
    }
    Ok(TargetChoice::Given(Target::Command(command)))
}
