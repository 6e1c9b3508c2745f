//! Arguments + environment -> resolved configuration, once (the ripgrep `Args -> Config`
//! pattern). Every bad value is a usage error (exit 2) before any request is sent.

use super::args::{DialectArg, OpenwopMajorArg, ProfileArg, RunArgs, TargetArgs};
use crate::config::{
    Claims, EmbeddedClaims, NamedProvider, OpenwopMajor, Output, RunConfig, Target, Token,
};
use crate::plan::filter::FilterTerm;
use crate::protocol::agui;
use crate::protocol::openwop::Dialect;
use crate::protocol::openwop::facts::NON_TEXT_MODALITIES;
use crate::scenario::suite::SuiteOptions;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::time::Duration;

use super::connection::resolve_connection;
use super::embedded::{self, Embedded};
use reference_hosts::RunningReference;

/// Reads an environment variable; injected so resolution is testable.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub fn parse_modalities(list: &[String], allowed: &[&str]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for m in list.iter().map(|m| m.trim()).filter(|m| !m.is_empty()) {
        if !allowed.contains(&m) {
            return Err(format!(
                "unknown modality `{m}` (use {}){}",
                allowed.join(", "),
                crate::suggest::hint(m, allowed.iter().copied())
            ));
        }
        if !out.iter().any(|o| o == m) {
            out.push(m.to_string());
        }
    }
    Ok(out)
}

/// What `--target` names: a host to reach (or nothing, offline), or the embedded host to
/// start first.
#[derive(Debug, Clone)]
pub enum TargetChoice {
    Given(Target),
    Embedded(Embedded),
}

/// A resolved run. With an embedded host, `config.target` is `Offline` until
/// [`Resolved::start`] starts the host and points the run at it.
#[derive(Debug)]
pub struct Resolved {
    pub config: RunConfig,
    pub embedded: Option<Embedded>,
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
            Some(host) => Some(embedded::start(host, &mut config).await?),
            None => None,
        };
        Ok((config, running))
    }
}

/// The environment variable that names the target when `--target` is absent, one per
/// profile (an OpenAI profile adds its `OPENAI_BASE_URL` here).
pub fn target_env(profile: ProfileArg) -> &'static str {
    match profile {
        ProfileArg::Openwop => "OPENWOP_BASE_URL",
        ProfileArg::Agui => "AGUI_TARGET_URL",
        ProfileArg::Openai | ProfileArg::OpenaiResponses => "OPENAI_BASE_URL",
        ProfileArg::Anthropic => "ANTHROPIC_BASE_URL",
        ProfileArg::Agentruntime | ProfileArg::Acp => super::target_cmd::TARGET_CMD_ENV,
    }
}

pub fn resolve_target(args: &TargetArgs, offline: bool, env: Env) -> Result<TargetChoice, String> {
    if matches!(args.profile, ProfileArg::Agentruntime | ProfileArg::Acp)
        || args.target_cmd.is_some()
    {
        return super::target_cmd::resolve(args, offline, env).map(TargetChoice::Given);
    }
    let agui = args.profile == ProfileArg::Agui;
    if offline {
        if args.profile != ProfileArg::Openwop {
            let name = protocol_name(args.profile);
            return Err(format!(
                "--offline runs openwop's schema checks; an {name} run needs a --target"
            ));
        }
        return Ok(TargetChoice::Given(Target::Offline));
    }
    let variable = target_env(args.profile);
    let raw = match (&args.target, env(variable)) {
        (Some(t), _) => t.clone(),
        (None, Some(t)) if !t.trim().is_empty() => t,
        _ if agui => {
            return Err(format!(
                "no target: pass --target URL (the agent's run endpoint) \
                 or `--target reference`, or set {variable}"
            ));
        }
        _ if args.profile.is_openai() => {
            return Err(format!(
                "no target: pass --target URL (the API base, http://host:port/v1) \
                 or `--target reference`, or set {variable}"
            ));
        }
        _ => {
            return Err(format!(
                "no target: pass --target URL (or `--target reference`), \
                 set {variable}, or use --offline"
            ));
        }
    };
    // A word like `reference`, misspelled, is neither the embedded host nor a host
    // name: `http://refrence` would be the wrong fix.
    let word = raw.trim();
    if word != "reference"
        && !word.contains(['.', ':', '/'])
        && crate::suggest::closest(word, ["reference"]).is_some()
    {
        return Err(format!(
            "--target `{word}` is not a URL nor `reference`; did you mean `reference`?"
        ));
    }
    if raw.trim() == "reference" {
        return Embedded::from_args(
            &args.reference,
            args.profile,
            args.model.as_deref(),
            args.allow_external_probe_urls,
        )
        .map(TargetChoice::Embedded);
    }
    // The embedded host's options mean nothing to a real target: silently ignoring one
    // would run against a host the user did not describe.
    let reference = &args.reference;
    for (flag, given) in [
        (
            "--reference-upstream",
            reference.reference_upstream.is_some(),
        ),
        ("--reference-fault", reference.reference_fault.is_some()),
        (
            "--reference-accepts",
            !reference.reference_accepts.is_empty(),
        ),
        (
            "--reference-emits-outbound",
            reference.reference_emits_outbound,
        ),
    ] {
        if given {
            return Err(format!(
                "{flag} configures the embedded host: add --target reference"
            ));
        }
    }
    let no_scheme = || {
        format!(
            "--target `{raw}` has no scheme: did you mean http://{}?",
            raw.trim()
        )
    };
    let url = url::Url::parse(raw.trim()).map_err(|e| {
        if raw.contains("://") {
            format!("--target `{raw}` is not a URL: {e}")
        } else {
            no_scheme()
        }
    })?;
    // `localhost:8080` parses, as the scheme `localhost`.
    if !raw.contains("://") {
        return Err(no_scheme());
    }
    if let Some(fix) = appended_path(&url, args.profile) {
        return Err(format!("--target `{raw}` {fix}"));
    }
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(format!(
            "--target `{raw}` must be an http(s) URL with a host"
        ));
    }
    // An agui target is the endpoint itself and is sent as given; an openwop target is
    // a base that paths are appended to.
    if (url.query().is_some() && !agui) || url.fragment().is_some() {
        return Err(format!(
            "--target `{raw}` must not carry a query or fragment"
        ));
    }
    Ok(TargetChoice::Given(Target::Url(url)))
}

/// The path mmconform appends to a target itself, when `url` already ends with it, and
/// the base URL to give instead.
fn appended_path(url: &url::Url, profile: ProfileArg) -> Option<String> {
    let own = match profile {
        ProfileArg::Openwop => "/.well-known/openwop",
        ProfileArg::Openai => "/chat/completions",
        ProfileArg::OpenaiResponses => "/responses",
        ProfileArg::Anthropic => "/messages",
        ProfileArg::Agui | ProfileArg::Agentruntime | ProfileArg::Acp => return None,
    };
    let path = url.path().trim_end_matches('/');
    let base = path.strip_suffix(own)?;
    let mut fixed = url.clone();
    fixed.set_path(base);
    Some(format!(
        "ends with {own}, which mmconform appends itself: pass {}",
        fixed.as_str().trim_end_matches('/')
    ))
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
        Err(
            "--token-env takes the NAME of an environment variable (e.g. OPENWOP_API_KEY); \
             the value given is not a variable name (not shown, in case it is the token)"
                .into(),
        )
    }
}

/// The variable `--token-env` names, or the profile's own default.
pub fn token_env(args: &TargetArgs) -> &str {
    match (&args.token_env, args.profile) {
        (Some(name), _) => name,
        (None, ProfileArg::Openai | ProfileArg::OpenaiResponses) => "OPENAI_API_KEY",
        (None, ProfileArg::Anthropic) => "ANTHROPIC_API_KEY",
        (None, _) => "OPENWOP_API_KEY",
    }
}

fn resolve_token(args: &TargetArgs, env: Env) -> Result<Option<Token>, String> {
    let variable = token_env(args);
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

/// The registered protocol `--profile` names.
pub fn protocol_name(profile: ProfileArg) -> &'static str {
    match profile {
        ProfileArg::Openwop => crate::protocol::openwop::PROFILE,
        ProfileArg::Agui => crate::protocol::agui::PROFILE,
        ProfileArg::Openai => crate::protocol::openai::PROFILE,
        ProfileArg::OpenaiResponses => crate::protocol::openai_responses::PROFILE,
        ProfileArg::Anthropic => crate::protocol::anthropic::PROFILE,
        ProfileArg::Agentruntime => crate::protocol::agentruntime::PROFILE,
        ProfileArg::Acp => crate::protocol::acp::PROFILE,
    }
}

/// The run's protocol, and what the target is declared to accept: the reference
/// agent's own declaration, or the user's (`--accepts` or `--claims`); the protocol
/// reads it when the run opens (a protocol with discovery refuses one).
pub fn resolve_protocol(
    args: &TargetArgs,
    target: &TargetChoice,
) -> Result<(&'static str, Claims), String> {
    let name = protocol_name(args.profile);
    let declared = !args.accepts.is_empty() || args.claims.is_some();
    let embedded = match target {
        TargetChoice::Embedded(Embedded::Agent(agent)) => {
            if declared {
                return Err(
                    "the reference agent declares itself: use --reference-accepts, \
                            not --accepts/--claims"
                        .into(),
                );
            }
            Some(EmbeddedClaims {
                accepts: agent.accepts.prefixes().to_vec(),
                sources: agent.sources().iter().map(|s| s.to_string()).collect(),
                echo: agent.echoes(),
                detail: false,
                streaming: false,
                by: "reference agent".into(),
            })
        }
        TargetChoice::Embedded(Embedded::Openai(server)) => {
            if declared {
                return Err(
                    "the reference server declares what its model takes: pick the model \
                     with --model, not --accepts/--claims"
                        .into(),
                );
            }
            Some(super::embedded_openai::claims(&server.model))
        }
        TargetChoice::Embedded(Embedded::Anthropic(server)) => {
            if declared {
                return Err(
                    "the reference server declares what its model takes: pick the model \
                     with --model, not --accepts/--claims"
                        .into(),
                );
            }
            Some(super::embedded_anthropic::claims(&server.model))
        }
        _ => None,
    };
    let claims = Claims {
        accepts: args.accepts.clone(),
        file: args.claims.clone(),
        embedded,
    };
    Ok((name, claims))
}

fn parse_media_ref(raw: &str, profile: ProfileArg) -> Result<(String, String), String> {
    let (modality, reference) = raw
        .split_once('=')
        .ok_or_else(|| format!("--media-ref `{raw}` must look like MODALITY=REF"))?;
    let kinds: &[&str] = match profile {
        ProfileArg::Agui => &agui::PART_KINDS,
        ProfileArg::Openai | ProfileArg::OpenaiResponses => &crate::protocol::openai::KINDS,
        ProfileArg::Anthropic => &crate::protocol::anthropic::KINDS,
        ProfileArg::Openwop | ProfileArg::Agentruntime | ProfileArg::Acp => &NON_TEXT_MODALITIES,
    };
    parse_modalities(&[modality.to_string()], kinds).map_err(|e| format!("--media-ref: {e}"))?;
    if reference.is_empty() {
        return Err(format!("--media-ref `{raw}` has an empty REF"));
    }
    Ok((modality.trim().to_string(), reference.to_string()))
}

/// `--model`: an openai run's, never empty; an embedded server may have chosen already.
fn resolve_model(args: &TargetArgs, chosen: Option<String>) -> Result<Option<String>, String> {
    match args.model.as_deref().map(str::trim) {
        None => Ok(chosen),
        Some(_) if !args.profile.is_openai() => Err(
            "--model names the model of an OpenAI-compatible endpoint: add --profile openai".into(),
        ),
        Some("") => Err("--model must name a model".into()),
        Some(name) => Ok(Some(name.to_string())),
    }
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
        checks: crate::protocol::check_options(args.allow_external_probe_urls),
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
        .map(|f| FilterTerm::parse(f))
        .collect::<Result<Vec<_>, _>>()?;
    let headers = args
        .headers
        .iter()
        .map(|h| parse_header(h))
        .collect::<Result<Vec<_>, _>>()?;
    let media_refs: BTreeMap<String, String> = args
        .media_refs
        .iter()
        .map(|r| parse_media_ref(r, args.profile))
        .collect::<Result<_, _>>()?;
    if let Some(base) = &args.media_base_url {
        url::Url::parse(base).map_err(|e| format!("--media-base-url `{base}`: {e}"))?;
    }
    let (protocol, claims) = resolve_protocol(args, &target)?;
    let (mut config, embedded) = match target {
        TargetChoice::Given(target) => (RunConfig::new(target), None),
        TargetChoice::Embedded(host) => (RunConfig::new(Target::Offline), Some(host)),
    };
    (config.protocol, config.claims) = (Some(protocol), claims);
    config.token = resolve_token(args, env)?;
    config.token_env = token_env(args).to_string();
    config.headers = headers;
    config.timeout = Duration::from_secs_f64(args.timeout);
    config.filters = filters;
    config.filter_text = args.filters.clone();
    config.dialect = match args.dialect {
        DialectArg::Spec => Dialect::Spec,
        DialectArg::Suite => Dialect::Suite,
    };
    config.allow_external_probe_urls = args.allow_external_probe_urls;
    config.openwop_major = match args.openwop_major {
        OpenwopMajorArg::Auto => OpenwopMajor::Auto,
        OpenwopMajorArg::One => OpenwopMajor::One,
        OpenwopMajorArg::Two => OpenwopMajor::Two,
    };
    config.model = resolve_model(args, config.model.take())?;
    config.self_hosted_provider = self_hosted_provider(args)?;
    if config.self_hosted_provider.is_some()
        && config.protocol != Some(crate::protocol::openwop::PROFILE)
    {
        return Err(
            "--self-hosted-provider names an openwop host's self-hosted provider (RFC 0108): it needs --profile openwop".into(),
        );
    }
    config.compat_endpoint = compat_endpoint(env)?;
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
    config.agent = resolve_agent(args, env)?;
    if let Some(endpoint) = &config.compat_endpoint {
        config
            .extra_secrets
            .extend(crate::protocol::openwop::self_hosted::secrets(endpoint));
    }
    let mut embedded = embedded;
    if let Some(Embedded::Host(host)) = &mut embedded {
        reference_self_hosted(host, &mut config);
    }
    config.max_redirects = usize::from(args.max_redirects);
    config.tls = connection.tls;
    config.warnings = connection.warnings;
    environment_secrets(&mut config, &args.mask_env);
    Ok(Resolved { config, embedded })
}

/// `--self-hosted-provider`: an id, never empty.
fn self_hosted_provider(args: &TargetArgs) -> Result<Option<NamedProvider>, String> {
    let Some(id) = &args.self_hosted_provider else {
        return Ok(None);
    };
    let id = id.trim();
    if id.is_empty() {
        return Err("--self-hosted-provider must name a provider id".into());
    }
    Ok(Some(NamedProvider {
        id: id.to_string(),
        named_by: "--self-hosted-provider".into(),
        fallback: false,
    }))
}

/// `OPENWOP_TEST_COMPAT_ENDPOINT`: an http(s) URL with a host. A bad value is a usage
/// error that does not echo it: it is a secret.
fn compat_endpoint(env: Env) -> Result<Option<String>, String> {
    let var = crate::protocol::openwop::self_hosted::ENDPOINT_VAR;
    let Some(raw) = env(var).filter(|v| !v.trim().is_empty()) else {
        return Ok(None);
    };
    match url::Url::parse(raw.trim()) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {
            Ok(Some(raw.trim().to_string()))
        }
        _ => Err(format!(
            "{var} must be an http(s) URL with a host (its value is not shown)"
        )),
    }
}

/// `--target reference`: the embedded host is configured with the endpoint the run
/// looks for (it advertises its self-hosted provider only then, as RFC 0108 §A.2
/// asks), and names its own self-hosted provider unless the user did.
fn reference_self_hosted(host: &mut reference_hosts::ReferenceConfig, config: &mut RunConfig) {
    host.compat_endpoint = config.compat_endpoint.clone();
    if host.compat_endpoint.is_some() && config.self_hosted_provider.is_none() {
        config.self_hosted_provider = Some(NamedProvider {
            id: reference_hosts::COMPAT_PROVIDER.to_string(),
            named_by: "the reference host (--target reference)".into(),
            fallback: true,
        });
    }
}

/// `--target-env`, `--target-unset`, `--target-inherit-env`, `--acp-auth`: only for a
/// target that is a program.
fn resolve_agent(args: &TargetArgs, env: Env) -> Result<crate::config::AgentSettings, String> {
    let program = matches!(args.profile, ProfileArg::Agentruntime | ProfileArg::Acp);
    let shaped =
        !args.target_env.is_empty() || !args.target_unset.is_empty() || args.target_inherit_env;
    if !program && shaped {
        return Err("--target-env, --target-unset and --target-inherit-env shape a started program: use them with --profile acp or agentruntime".into());
    }
    if args.acp_auth.is_some() && args.profile != ProfileArg::Acp {
        return Err("--acp-auth: add --profile acp".into());
    }
    let mut settings = crate::config::AgentSettings {
        unset: args.target_unset.clone(),
        inherit_env: args.target_inherit_env,
        acp_auth: args.acp_auth.clone(),
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
/// long enough to be masked, and the secret-looking variables of this environment
/// (and the `--mask-env` ones), which a started program could have learnt. Warnings
/// for `--mask-env` names that mask nothing.
fn environment_secrets(config: &mut RunConfig, mask_env: &[String]) {
    use crate::redact::environment;
    config.extra_secrets.extend(
        config
            .agent
            .env
            .iter()
            .map(|(_, v)| v.clone())
            .filter(|v| environment::maskable(v)),
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
    // OPENWOP_REQUIRE_BEHAVIOR is read by clap (`--require`'s `env`).
    config.require = args.require;
    let mut opted: Vec<String> = args.opt_out.clone();
    if let Some(list) = env("OPENWOP_OPTED_OUT_PROFILES") {
        opted.extend(
            list.split([',', ' '])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
        );
    }
    opted.dedup();
    config.opted_out_profiles = opted;
    config.waived = args
        .waive
        .iter()
        .map(|w| FilterTerm::parse(w).map_err(|e| format!("--waive: {e}")))
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
    fn a_target_with_the_appended_path_names_the_base() {
        let url = url::Url::parse("http://h:8080/.well-known/openwop").unwrap();
        let fix = appended_path(&url, ProfileArg::Openwop).unwrap();
        assert!(fix.ends_with("pass http://h:8080"), "{fix}");
        let url = url::Url::parse("http://h/v1/chat/completions/").unwrap();
        let fix = appended_path(&url, ProfileArg::Openai).unwrap();
        assert!(fix.ends_with("pass http://h/v1"), "{fix}");
        let base = url::Url::parse("http://h/v1").unwrap();
        assert_eq!(appended_path(&base, ProfileArg::Openai), None);
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
