//! The connection-level flags and environment of a run: which values are secrets to
//! mask everywhere, the TLS trust to use, and the warnings every report must carry
//! (a secret on the command line, `--insecure`, a proxy in the path).

use super::args::TargetArgs;
use super::resolve::Env;
use crate::http::TlsSettings;
use crate::redact::Redactor;

const PROXY_VARIABLES: [&str; 6] = [
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "ALL_PROXY",
    "all_proxy",
];

/// What the connection-level flags and the environment add to a run: secrets to mask,
/// TLS trust, and warnings for the reports.
pub struct Connection {
    pub secret_headers: Vec<String>,
    pub extra_secrets: Vec<String>,
    pub tls: TlsSettings,
    pub warnings: Vec<String>,
    /// The proxy the environment names for the target (`$HTTP_PROXY (URL)`, its
    /// password masked in the reports), for the hint of a connection that fails.
    pub proxy: Option<String>,
}

/// `target` is the URL of a host outside this process; `None` for an offline run or an
/// embedded host, which no proxy sits in front of and no URL credentials reach.
pub fn resolve_connection(
    args: &TargetArgs,
    headers: &[(String, String)],
    target: Option<&url::Url>,
    env: Env,
) -> Result<Connection, String> {
    let mut secret_headers = Vec::new();
    for name in &args.secret_headers {
        let name = name.trim().to_ascii_lowercase();
        if !headers.iter().any(|(h, _)| h.eq_ignore_ascii_case(&name)) {
            return Err(format!(
                "--secret-header {name}: no --header of that name is given"
            ));
        }
        secret_headers.push(name);
    }
    let mut extra_secrets = Vec::new();
    let mut warnings = Vec::new();
    secret_header_values(headers, &secret_headers, &mut extra_secrets, &mut warnings);
    let proxy = target
        .and_then(|url| target_credentials_and_proxy(url, env, &mut extra_secrets, &mut warnings));
    let tls = tls_settings(args, &mut warnings)?;
    Ok(Connection {
        secret_headers,
        extra_secrets,
        tls,
        warnings,
        proxy,
    })
}

/// Secret header values given with `--header` are masked everywhere, with a warning
/// that the command line was not the place for them.
fn secret_header_values(
    headers: &[(String, String)],
    secret_headers: &[String],
    extra_secrets: &mut Vec<String>,
    warnings: &mut Vec<String>,
) {
    let redactor = Redactor::default().with_sensitive_headers(secret_headers);
    for (name, value) in headers {
        if !redactor.is_sensitive_header(name) {
            continue;
        }
        extra_secrets.push(value.clone());
        // A host may echo only the credential inside the value: `Bearer x`, or the
        // values of `a=x; b=y` cookies. Mask those parts too (short ones would mask
        // ordinary words everywhere, and cannot be secrets worth the name).
        for part in value.split([' ', ';', ',']).map(str::trim) {
            let credential = part.split_once('=').map_or(part, |(_, v)| v).trim();
            if credential.len() >= 6 && credential != value.as_str() {
                extra_secrets.push(credential.to_string());
            }
        }
        warnings.push(format!(
            "the secret value of header {name} was given on the command line, where the \
             process list and shell history keep it; pass the bearer token with \
             --token-env or --token-file instead"
        ));
    }
}

/// Credentials in the target URL are never sent (and masked); a proxy from the
/// environment is named in a warning, its password masked, and returned.
fn target_credentials_and_proxy(
    url: &url::Url,
    env: Env,
    extra_secrets: &mut Vec<String>,
    warnings: &mut Vec<String>,
) -> Option<String> {
    if let Some(password) = url.password() {
        extra_secrets.push(password.to_string());
    }
    if !url.username().is_empty() || url.password().is_some() {
        warnings.push(
            "credentials in the --target URL are not sent (they were on the command line); \
             use --token-env or --token-file"
                .into(),
        );
    }
    let proxy = PROXY_VARIABLES
        .iter()
        .find_map(|variable| Some((variable, env(variable).filter(|v| !v.trim().is_empty())?)));
    let (variable, value) = proxy?;
    if let Ok(proxy) = url::Url::parse(value.trim())
        && let Some(password) = proxy.password()
    {
        extra_secrets.push(password.to_string());
    }
    warnings.push(format!(
        "requests may go through the proxy in ${variable} ({}); NO_PROXY is {}; a \
         proxy can change what the host appears to answer",
        value.trim(),
        env("NO_PROXY")
            .or_else(|| env("no_proxy"))
            .map(|v| format!("`{v}`"))
            .unwrap_or_else(|| "unset".into()),
    ));
    Some(format!("${variable} ({})", value.trim()))
}

/// `--cacert FILE` (checked to hold certificates) and `--insecure` (with its warning).
fn tls_settings(args: &TargetArgs, warnings: &mut Vec<String>) -> Result<TlsSettings, String> {
    let mut tls = TlsSettings::default();
    if let Some(path) = &args.cacert {
        let pem = std::fs::read(path).map_err(|e| format!("--cacert {}: {e}", path.display()))?;
        let certificates = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
            format!(
                "--cacert {}: not a PEM certificate bundle: {e}",
                path.display()
            )
        })?;
        if certificates.is_empty() {
            return Err(format!(
                "--cacert {}: no certificate in the file",
                path.display()
            ));
        }
        tls.cacert_pem = Some(pem);
        tls.cacert_path = Some(path.display().to_string());
    }
    if args.insecure {
        tls.insecure = true;
        warnings.push(
            "TLS certificates are NOT verified (--insecure): anyone on the path could have \
             answered in the host's name, so this evidence proves less"
                .into(),
        );
    }
    Ok(tls)
}
