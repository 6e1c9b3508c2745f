//! Arguments + environment -> resolved configuration, once (the ripgrep `Args -> Config`
//! pattern). Every bad value is a usage error (exit 2) before any request is sent.

use super::args::{RunArgs, TargetArgs};
use crate::config::{Claims, Output, RunConfig, Target, Token};
use crate::plan::filter::Filter;
use crate::protocol::options::{Origin, ProtocolOptions};
use crate::protocol::{Protocol, TargetKind};
use crate::reference::EmbeddedHost;
use crate::scenario::suite::SuiteOptions;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Duration;

use super::connection::resolve_connection;
pub use super::target::{resolve_target, target_variable};
use reference_hosts::RunningReference;

/// Reads an environment variable; injected so resolution is testable.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub use crate::reference::parse_modalities;

/// The protocol `--profile` (or the project file) names; clap and the project file
/// only let registered names through.
pub fn protocol_of(args: &TargetArgs) -> Result<&'static dyn Protocol, String> {
    crate::registry::protocol(&args.profile)
        .ok_or_else(|| format!("unknown profile `{}`", args.profile))
}

/// What `--target` names: a host to reach (or nothing, offline), or the embedded host to
/// start first.
#[derive(Debug)]
pub enum TargetChoice {
    Given(Target),
    Embedded(Box<dyn EmbeddedHost>),
}

/// A resolved run. With an embedded host, `config.target` is `Offline` until
/// [`Resolved::start`] starts the host and points the run at it.
#[derive(Debug)]
pub struct Resolved {
    pub config: RunConfig,
    pub embedded: Option<Box<dyn EmbeddedHost>>,
}

impl Resolved {
    /// Starts the embedded host, if any, and hands back the configuration pointed at it
    /// with the host (keep it until the run ends). `Err` is a tool problem.
    pub async fn start(self) -> Result<(RunConfig, Option<RunningReference>), String> {
        let Resolved {
            mut config,
            embedded,
        } = self;
        let running = match embedded {
            Some(host) => Some(host.start(&mut config).await?),
            None => None,
        };
        Ok((config, running))
    }
}

/// `--token-env` takes a variable's name. A value that is not a name is most likely the
/// token itself, typed where the name belongs: refuse it without echoing it.
pub(super) fn check_token_env_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok(())
    } else {
        Err(format!(
            "--token-env takes the NAME of an environment variable (e.g. {}); \
             the value given is not a variable name (not shown, in case it is the token)",
            crate::registry::token_env(crate::registry::default_protocol())
        ))
    }
}

/// The variable `--token-env` names, or the profile's own default (the default
/// profile's, for a profile without one).
pub fn token_env<'a>(args: &'a TargetArgs, protocol: &dyn Protocol) -> &'a str {
    match &args.token_env {
        Some(name) => name,
        None => crate::registry::token_env(protocol),
    }
}

fn resolve_token(
    args: &TargetArgs,
    protocol: &dyn Protocol,
    env: Env,
) -> Result<Option<Token>, String> {
    let variable = token_env(args, protocol);
    check_token_env_name(variable)?;
    if let Some(path) = &args.token_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--token-file {}: {e}", path.display()))?;
        let value = text.lines().next().unwrap_or("").trim().to_string();
        if value.is_empty() {
            return Err(format!("--token-file {} is empty", path.display()));
        }
        return Ok(Some(Token {
            value,
            origin: format!("file {}", path.display()),
        }));
    }
    let value = env(variable)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    if value.is_none() && args.token_env.is_some() {
        // Named on purpose: running without the token would only earn 401s.
        return Err(format!(
            "--token-env {variable}: the variable is not set (or empty)"
        ));
    }
    Ok(value.map(|value| Token {
        value,
        origin: format!("${variable}"),
    }))
}

fn parse_header(raw: &str) -> Result<(String, String), String> {
    let (name, value) = raw
        .split_once(':')
        .ok_or_else(|| format!("--header `{raw}` must look like 'Name: value'"))?;
    let name = name.trim();
    reqwest::header::HeaderName::from_bytes(name.as_bytes())
        .map_err(|_| format!("--header `{raw}`: bad header name"))?;
    reqwest::header::HeaderValue::from_str(value.trim())
        .map_err(|_| format!("--header `{raw}`: bad header value"))?;
    Ok((name.to_string(), value.trim().to_string()))
}

/// `--accepts` and `--claims` where the profile takes them; elsewhere a usage error naming
/// the profiles that do and where this one reads its target's own declaration.
fn check_user_declaration(args: &TargetArgs, protocol: &dyn Protocol) -> Result<(), String> {
    use crate::protocol::UserDeclaration;
    let (accepts, claims) = (!args.accepts.is_empty(), args.claims.is_some());
    let own = match protocol.description().declaration {
        UserDeclaration::AcceptsOrClaims => return Ok(()),
        UserDeclaration::AcceptsOnly { .. } if !claims => return Ok(()),
        UserDeclaration::None { .. } if !accepts && !claims => return Ok(()),
        UserDeclaration::AcceptsOnly { own } | UserDeclaration::None { own } => own,
    };
    let takers: Vec<&str> = crate::registry::protocols()
        .filter(|p| p.description().declaration == UserDeclaration::AcceptsOrClaims)
        .map(|p| p.name())
        .collect();
    let given = match (accepts, claims) {
        (true, true) => "--accepts/--claims declare",
        (true, false) => "--accepts declares",
        _ => "--claims declares",
    };
    Err(format!(
        "{given} what a target without discovery accepts (--profile {}); --profile {} reads {own}",
        takers.join(", "),
        protocol.name()
    ))
}

/// What the target is declared to accept: the embedded host's own declaration, or the
/// user's (`--accepts` or `--claims`); the protocol reads it when the run opens (a
/// protocol with discovery refuses one).
pub fn resolve_claims(args: &TargetArgs, target: &TargetChoice) -> Claims {
    let embedded = match target {
        TargetChoice::Embedded(host) => host.claims(),
        TargetChoice::Given(_) => None,
    };
    Claims {
        accepts: args.accepts.clone(),
        file: args.claims.clone(),
        embedded,
    }
}

fn parse_media_ref(raw: &str, kinds: &[&str]) -> Result<(String, String), String> {
    let (modality, reference) = raw
        .split_once('=')
        .ok_or_else(|| format!("--media-ref `{raw}` must look like MODALITY=REF"))?;
    parse_modalities(&[modality.to_string()], kinds).map_err(|e| format!("--media-ref: {e}"))?;
    if reference.is_empty() {
        return Err(format!("--media-ref `{raw}` has an empty REF"));
    }
    Ok((modality.trim().to_string(), reference.to_string()))
}

/// The proxy variables reqwest reads, in the order it prefers them.
/// `5/s`, `30/m`, `0.5`: requests per second, as the least time between two starts.
pub fn parse_rate(raw: &str) -> Result<Duration, String> {
    let bad = || format!("--rate `{raw}` must look like 5/s, 30/m or 0.5 (requests per second)");
    let (number, per) = match raw.trim().split_once('/') {
        Some((n, unit)) => (
            n.trim(),
            match unit.trim() {
                "s" | "sec" | "second" => 1.0,
                "m" | "min" | "minute" => 60.0,
                _ => return Err(bad()),
            },
        ),
        None => (raw.trim(), 1.0),
    };
    let count: f64 = number.parse().map_err(|_| bad())?;
    if !(count.is_finite() && count > 0.0 && count <= 10_000.0) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(per / count))
}

pub fn suite_options(args: &TargetArgs) -> SuiteOptions {
    SuiteOptions {
        include_builtin: !args.no_builtin,
        paths: args.scenarios.clone(),
        checks: crate::registry::check_options(args.allow_external_probe_urls),
    }
}

/// Resolves the parts `run` and `list` share. `concurrency`, reports and modes are `run`'s.
pub fn resolve_common(args: &TargetArgs, offline: bool, env: Env) -> Result<Resolved, String> {
    let target = resolve_target(args, offline, env)?;
    resolve_common_with(args, target, env)
}

/// [`resolve_common`] with the target already decided (`list --profile agui --accepts ...`
/// plans against a declaration without any target).
pub fn resolve_common_with(
    args: &TargetArgs,
    target: TargetChoice,
    env: Env,
) -> Result<Resolved, String> {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 3600.0) {
        return Err(format!(
            "--timeout {} must be between 0 and 3600 seconds",
            args.timeout
        ));
    }
    let filters = args
        .filters
        .iter()
        .map(|f| Filter::parse(f))
        .collect::<Result<Vec<_>, _>>()?;
    let headers = args
        .headers
        .iter()
        .map(|h| parse_header(h))
        .collect::<Result<Vec<_>, _>>()?;
    let protocol = protocol_of(args)?;
    let media_refs: BTreeMap<String, String> = args
        .media_refs
        .iter()
        .map(|r| parse_media_ref(r, protocol.description().media_ref_kinds))
        .collect::<Result<_, _>>()?;
    if let Some(base) = &args.media_base_url {
        url::Url::parse(base).map_err(|e| format!("--media-base-url `{base}`: {e}"))?;
    }
    check_user_declaration(args, protocol)?;
    let claims = resolve_claims(args, &target);
    let (mut config, embedded) = match target {
        TargetChoice::Given(target) => (RunConfig::new(target), None),
        TargetChoice::Embedded(host) => (RunConfig::new(Target::Offline), Some(host)),
    };
    (config.protocol, config.claims) = (Some(protocol.name()), claims);
    config.token = resolve_token(args, protocol, env)?;
    config.token_env = token_env(args, protocol).to_string();
    config.headers = headers;
    config.timeout = Duration::from_secs_f64(args.timeout);
    config.filters = filters;
    config.filter_text = args.filters.clone();
    config.allow_external_probe_urls = args.allow_external_probe_urls;
    let (options, option_secrets) = resolve_options(args, protocol, env)?;
    config.options = options;
    config.media_base_url = args.media_base_url.clone();
    config.media_refs = media_refs;
    config.max_probe_bytes = args.max_probe_bytes;
    config.schemas_dir = args.schemas_dir.clone();
    let remote = match &config.target {
        Target::Url(url) => Some(url),
        Target::Offline | Target::Command(_) => None,
    };
    let connection = resolve_connection(args, &config.headers, remote, env)?;
    config.secret_headers = connection.secret_headers;
    config.extra_secrets = connection.extra_secrets;
    config.proxy = connection.proxy;
    config.agent = resolve_agent(args, protocol, env)?;
    // The protocol's own secrets (RFC 0108's endpoint), as it names them.
    config.extra_secrets.extend(option_secrets);
    config.max_redirects = usize::from(args.max_redirects);
    config.tls = connection.tls;
    config.warnings = connection.warnings;
    environment_secrets(&mut config, &args.mask_env);
    Ok(Resolved { config, embedded })
}

/// The run's protocol options: the flags given and their defaults (the project file's
/// keys among them), and the variables of the options read from one. An option of
/// another protocol, given, is a usage error; the protocol checks its own (exit 2) and
/// names the secrets among them.
pub fn resolve_options(
    args: &TargetArgs,
    protocol: &dyn Protocol,
    env: Env,
) -> Result<(ProtocolOptions, Vec<String>), String> {
    let own = protocol.description().options;
    let mut options = ProtocolOptions::default();
    for (name, (value, origin)) in &args.protocol.values {
        if own.iter().any(|spec| spec.name == *name) {
            options.set(name, value.clone(), *origin);
        } else if origin.is_given() {
            let takers = super::protocol_flags::takers(name);
            return Err(format!(
                "--{name}: add --profile {}",
                takers.join(" or --profile ")
            ));
        }
    }
    for spec in own.iter().filter(|spec| !spec.flag) {
        if let Some(value) = spec.env.and_then(env) {
            options.set(spec.name, value, Origin::Environment);
        }
    }
    let secrets = protocol.check_options(&options)?;
    Ok((options, secrets))
}

/// `--target-env`, `--target-unset`, `--target-inherit-env`: only for a target that is
/// a program.
fn resolve_agent(
    args: &TargetArgs,
    protocol: &dyn Protocol,
    env: Env,
) -> Result<crate::config::AgentSettings, String> {
    let program = matches!(protocol.description().target, TargetKind::Command { .. });
    let shaped =
        !args.target_env.is_empty() || !args.target_unset.is_empty() || args.target_inherit_env;
    if !program && shaped {
        return Err(format!(
            "--target-env, --target-unset and --target-inherit-env shape a started program: use them with --profile {}",
            super::target_cmd::program_profiles().join(" or ")
        ));
    }
    let mut settings = crate::config::AgentSettings {
        unset: args.target_unset.clone(),
        inherit_env: args.target_inherit_env,
        ..Default::default()
    };
    for raw in &args.target_env {
        match raw.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                settings
                    .env
                    .push((name.trim().to_string(), value.to_string()));
            }
            None if !raw.trim().is_empty() => {
                let name = raw.trim();
                if env(name).is_none() {
                    return Err(format!(
                        "--target-env {name}: no such variable in this environment to pass on (give NAME=VALUE to set one)"
                    ));
                }
                settings.pass.push(name.to_string());
            }
            _ => {
                return Err(format!(
                    "--target-env `{}`: expected NAME or NAME=VALUE",
                    raw.split('=').next().unwrap_or("")
                ));
            }
        }
    }
    Ok(settings)
}

/// The values to mask besides the token and the headers: every `--target-env` value
/// long enough to be masked but a model name's, and the secret-looking variables of this environment
/// (and the `--mask-env` ones), which a started program could have learnt. Warnings
/// for `--mask-env` names that mask nothing.
fn environment_secrets(config: &mut RunConfig, mask_env: &[String]) {
    use crate::redact::environment;
    config.extra_secrets.extend(
        config
            .agent
            .env
            .iter()
            .filter(|(name, v)| environment::maskable(v) && !environment::names_a_model(name))
            .map(|(_, v)| v.clone()),
    );
    let found = environment::of_this_process(mask_env);
    config.extra_secrets.extend(found.values);
    config.warnings.extend(found.warnings);
}

pub fn resolve_run(args: &RunArgs, color: bool, env: Env) -> Result<Resolved, String> {
    let mut resolved = resolve_common(&args.target, args.offline, env)?;
    let config = &mut resolved.config;
    config.concurrency = usize::from(args.concurrency);
    config.strict = args.strict;
    // REQUIRE_ENV is read by clap (`--require`'s `env`).
    config.require = args.require;
    let mut opted: Vec<String> = args.opt_out.clone();
    if let Some(list) = env(super::environment::OPT_OUT_ENV) {
        opted.extend(
            list.split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
    }
    opted.dedup();
    config.opted_out_profiles = opted;
    super::rerun::apply(
        config,
        args.rerun_failed.as_deref(),
        args.from_report.as_deref(),
    )?;
    config.waived = args
        .waive
        .iter()
        .map(|w| Filter::parse(w).map_err(|e| format!("--waive: {e}")))
        .collect::<Result<_, _>>()?;
    config.max_response_bytes = args.max_response_bytes.max(1024);
    config.retries = args.retries;
    config.min_interval = args.rate.as_deref().map(parse_rate).transpose()?;
    if let Some(secs) = args.deadline {
        if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
            return Err(format!(
                "--deadline {secs} must be between 0 and 86400 seconds"
            ));
        }
        config.deadline = Some(Duration::from_secs_f64(secs));
    }
    if !(args.witness_wait.is_finite() && (0.0..=600.0).contains(&args.witness_wait)) {
        return Err(format!(
            "--witness-wait {} must be between 0 and 600 seconds",
            args.witness_wait
        ));
    }
    config.witness_wait = Duration::from_secs_f64(args.witness_wait);
    if args.witness.is_some() {
        let provider = args.witness_provider.trim();
        if provider.is_empty() {
            return Err("--witness-provider must name a provider".into());
        }
        config.model_provider = Some(provider.to_string());
    }
    config.output = Output {
        junit: args.junit.clone(),
        report: args.report.clone(),
        html: args.html.clone(),
        annotations: match args.annotations {
            Some(choice) => choice == super::args::AnnotationsArg::Github,
            None => env(super::environment::GITHUB_ACTIONS_ENV).is_some_and(|v| v.trim() == "true"),
        },
        color,
        // The bar draws on stderr and case lines go to stdout: only when both are the
        // terminal can the bar step aside for each line. With stdout piped (`| tee`)
        // the two would interleave and leave stale bar lines behind.
        progress: std::io::stderr().is_terminal() && std::io::stdout().is_terminal(),
        verbose: args.verbose,
        quiet: args.quiet,
        summary: super::destination::github_summary(args.github_summary.as_ref(), env),
    };
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_per_second_or_per_minute() {
        assert_eq!(parse_rate("5/s").unwrap(), Duration::from_millis(200));
        assert_eq!(parse_rate("30/m").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_rate("0.5").unwrap(), Duration::from_secs(2));
        for bad in ["0", "-1/s", "5/h", "fast", "nan", "1e9"] {
            assert!(parse_rate(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn token_env_must_be_a_variable_name() {
        assert!(check_token_env_name("OPENWOP_API_KEY").is_ok());
        assert!(check_token_env_name("_x1").is_ok());
        for bad in ["", "1ABC", "sk-live-123", "Bearer abc", "a.b"] {
            let e = check_token_env_name(bad).unwrap_err();
            assert!(bad.is_empty() || !e.contains(bad), "{e}");
        }
    }
}
