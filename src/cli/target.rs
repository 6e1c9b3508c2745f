//! What `--target` (or `--target-cmd`, or the variable the profile names) points a run
//! at: a URL checked as the profile's description says (a base or the endpoint itself,
//! a path mmconform appends itself refused with the base to give), nothing (`--offline`),
//! a program (`target_cmd.rs`), or `--target reference`, the reference host the registry
//! names for the profile, shaped by the `--reference-*` options it takes.

use super::args::TargetArgs;
use super::resolve::{Env, TargetChoice, protocol_of};
use crate::config::Target;
use crate::protocol::{Protocol, TargetKind, UrlTarget};
use crate::reference::{ReferenceRequest, ReferenceTarget};

/// The environment variable that names the target when `--target` (or `--target-cmd`)
/// is absent.
pub fn target_variable(protocol: &dyn Protocol) -> &'static str {
    match &protocol.description().target {
        TargetKind::Url(url) => url.env,
        TargetKind::Command { .. } => super::target_cmd::TARGET_CMD_ENV,
    }
}

/// The profiles whose offline cases `--offline` runs, for its errors.
pub(super) fn offline_profiles() -> String {
    let names: Vec<&str> = crate::registry::protocols()
        .filter(|p| p.description().offline)
        .map(|p| p.name())
        .collect();
    names.join("/")
}

pub fn resolve_target(args: &TargetArgs, offline: bool, env: Env) -> Result<TargetChoice, String> {
    let protocol = protocol_of(args)?;
    let description = protocol.description();
    let url_target = match &description.target {
        TargetKind::Url(url) if args.target_cmd.is_none() => url,
        _ => return super::target_cmd::resolve(args, protocol, offline, env),
    };
    let name = protocol.name();
    if offline {
        if !description.offline {
            return Err(format!(
                "--offline runs {}'s schema checks; an {name} run needs a --target",
                offline_profiles()
            ));
        }
        return Ok(TargetChoice::Given(Target::Offline));
    }
    let variable = url_target.env;
    let raw = match (&args.target, env(variable)) {
        (Some(t), _) => t.clone(),
        (None, Some(t)) if !t.trim().is_empty() => t,
        _ => return Err(no_target(description.offline, url_target)),
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
        return match reference(args, protocol)? {
            ReferenceTarget::Embedded(host) => Ok(TargetChoice::Embedded(host)),
            ReferenceTarget::Command(command) => Ok(TargetChoice::Given(Target::Command(command))),
        };
    }
    refuse_reference_flags(args)?;
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
    if let Some(fix) = appended_path(&url, url_target.appended_path) {
        return Err(format!("--target `{raw}` {fix}"));
    }
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(format!(
            "--target `{raw}` must be an http(s) URL with a host"
        ));
    }
    // A target given as the endpoint itself is sent as given; a base has paths
    // appended to it.
    if (url.query().is_some() && !url_target.as_given) || url.fragment().is_some() {
        return Err(format!(
            "--target `{raw}` must not carry a query or fragment"
        ));
    }
    Ok(TargetChoice::Given(Target::Url(url)))
}

/// No target given: what to pass instead.
fn no_target(offline: bool, target: &UrlTarget) -> String {
    let variable = target.env;
    match (offline, target.what) {
        (true, _) => format!(
            "no target: pass --target URL (or `--target reference`), \
             set {variable}, or use --offline"
        ),
        (false, Some(what)) => format!(
            "no target: pass --target URL ({what}) or `--target reference`, or set {variable}"
        ),
        (false, None) => {
            format!("no target: pass --target URL or `--target reference`, or set {variable}")
        }
    }
}

/// The embedded host's options mean nothing to a real target: silently ignoring one
/// would run against a host the user did not describe.
pub(super) fn refuse_reference_flags(args: &TargetArgs) -> Result<(), String> {
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
    Ok(())
}

/// `--target reference`: the reference host of the run's profile, shaped by the
/// `--reference-*` options it takes.
pub(super) fn reference(
    args: &TargetArgs,
    protocol: &dyn Protocol,
) -> Result<ReferenceTarget, String> {
    use crate::reference::ReferenceFlag;
    let host = crate::registry::reference_of(protocol.name())
        .ok_or_else(|| format!("--profile {} has no reference host", protocol.name()))?;
    let reference = &args.reference;
    for (flag, given) in [
        (
            ReferenceFlag::Accepts,
            !reference.reference_accepts.is_empty(),
        ),
        (
            ReferenceFlag::EmitsOutbound,
            reference.reference_emits_outbound,
        ),
    ] {
        if given && !host.takes().contains(&flag) {
            let owners: Vec<&str> = crate::registry::REGISTRY
                .iter()
                .filter(|r| r.reference.takes().contains(&flag))
                .filter_map(|r| r.protocol.map(|p| p.name()))
                .collect();
            return Err(format!(
                "{} shapes the reference of --profile {}: add one of those",
                flag.flag(),
                owners.join(", ")
            ));
        }
    }
    let upstream = reference
        .reference_upstream
        .as_deref()
        .map(|raw| {
            crate::reference::upstream_url(
                raw,
                args.allow_external_probe_urls,
                "--reference-upstream",
            )
        })
        .transpose()?;
    host.target(&ReferenceRequest {
        profile: protocol.name(),
        modalities: reference.reference_modalities.clone(),
        max_bytes_per_part: reference.reference_max_bytes_per_part,
        fault: reference.reference_fault.clone(),
        accepts: reference.reference_accepts.clone(),
        emits_outbound: reference.reference_emits_outbound,
        upstream,
        options: super::resolve::resolve_options(args, protocol, &|_| None)?.0,
        user_declared: !args.accepts.is_empty() || args.claims.is_some(),
    })
}

/// The path mmconform appends to a target itself (`own`), when `url` already ends with
/// it, and the base URL to give instead.
fn appended_path(url: &url::Url, own: Option<&str>) -> Option<String> {
    let own = own?;
    let path = url.path().trim_end_matches('/');
    let base = path.strip_suffix(own)?;
    let mut fixed = url.clone();
    fixed.set_path(base);
    Some(format!(
        "ends with {own}, which mmconform appends itself: pass {}",
        fixed.as_str().trim_end_matches('/')
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_with_the_appended_path_names_the_base() {
        let url = url::Url::parse("http://h:8080/.well-known/openwop").unwrap();
        let fix = appended_path(&url, Some("/.well-known/openwop")).unwrap();
        assert!(fix.ends_with("pass http://h:8080"), "{fix}");
        let url = url::Url::parse("http://h/v1/chat/completions/").unwrap();
        let fix = appended_path(&url, Some("/chat/completions")).unwrap();
        assert!(fix.ends_with("pass http://h/v1"), "{fix}");
        let base = url::Url::parse("http://h/v1").unwrap();
        assert_eq!(appended_path(&base, Some("/chat/completions")), None);
    }
}
