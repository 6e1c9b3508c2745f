//! The environment variables mmconform reads, for the man page and the CLI reference:
//! every protocol's own, from the registry (the variable naming its target, its token
//! variable, the variables of its options), and the run-wide ones, named here. Those
//! keep the official openwop conformance suite's names, so one CI setting serves both
//! tools.

use crate::protocol::TargetKind;

/// `true` means `--require` (read by clap, `--require`'s `env`).
pub const REQUIRE_ENV: &str = "OPENWOP_REQUIRE_BEHAVIOR";

/// Comma-separated profiles added to `--opt-out`.
pub const OPT_OUT_ENV: &str = "OPENWOP_OPTED_OUT_PROFILES";

/// Adds `name` to the profiles a variable serves, or the variable with its first one.
fn serve(
    list: &mut Vec<(&'static str, Vec<&'static str>)>,
    variable: &'static str,
    name: &'static str,
) {
    match list.iter_mut().find(|(v, _)| *v == variable) {
        Some((_, names)) => names.push(name),
        None => list.push((variable, vec![name])),
    }
}

/// Every variable with what reads it, in the order the man page lists them.
pub fn variables() -> Vec<(String, String)> {
    let mut targets = Vec::new();
    let mut programs = Vec::new();
    let mut tokens = Vec::new();
    let mut options = Vec::new();
    let default_token = crate::registry::token_env(crate::registry::default_protocol());
    for protocol in crate::registry::protocols() {
        let description = protocol.description();
        match &description.target {
            TargetKind::Url(url) => serve(&mut targets, url.env, protocol.name()),
            TargetKind::Command { .. } => programs.push(protocol.name()),
        }
        let token = crate::registry::token_env(protocol);
        if token != default_token {
            serve(&mut tokens, token, protocol.name());
        }
        for spec in description.options.iter().filter(|s| !s.flag) {
            if let Some(env) = spec.env
                && !options.iter().any(|(v, _): &(String, String)| v == env)
            {
                options.push((env.to_string(), spec.help.to_string()));
            }
        }
    }
    let profiles = |names: &[&str]| format!("--profile {}", names.join(", "));
    let mut out: Vec<(String, String)> = targets
        .iter()
        .map(|(variable, names)| {
            let what = format!(
                "run, list: the target of {} when --target is absent",
                profiles(names)
            );
            (variable.to_string(), what)
        })
        .collect();
    out.push((
        super::target_cmd::TARGET_CMD_ENV.into(),
        format!(
            "run, list: the command of {} when --target-cmd is absent",
            profiles(&programs)
        ),
    ));
    out.push((
        default_token.into(),
        "the bearer token (another variable with --token-env)".into(),
    ));
    out.extend(tokens.iter().map(|(variable, names)| {
        let what = format!(
            "the bearer token of a {} run (another variable with --token-env)",
            profiles(names)
        );
        (variable.to_string(), what)
    }));
    out.extend(options);
    for (name, meaning) in [
        (REQUIRE_ENV, "run: true means --require"),
        (
            OPT_OUT_ENV,
            "run: comma-separated profiles added to --opt-out",
        ),
        (
            "NO_COLOR",
            "no colours with --color auto (when set and not empty)",
        ),
        (
            "GITHUB_STEP_SUMMARY",
            "run: the run's Markdown verdict is appended to this file (GitHub Actions sets it)",
        ),
    ] {
        out.push((name.into(), meaning.into()));
    }
    out
}
