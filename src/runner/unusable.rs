//! What to tell a user whose target cannot be used: the cause in their words, and
//! what to check. One sentence, because a hundred blocked cases share it.

/// A hint for `reason` (why the target cannot be used); `proxy` is the proxy the
/// environment names for it (`$HTTP_PROXY (URL)`), when one does.
pub fn hint(reason: &str, target: &super::ResolvedTarget, proxy: Option<&str>) -> String {
    let shown = &target.label;
    let lower = reason.to_ascii_lowercase();
    // A program run as the target (agentruntime's bridge, an ACP agent) has no URL.
    if lower.contains("cannot be started") || lower.contains("before its first line") {
        return format!(
            "cannot use {shown}: the program does not run; check --target-cmd (its stderr is quoted below)"
        );
    }
    let base_url = target.base_url.as_str();
    let connection_failed = [
        "connection refused",
        "dns",
        "resolve",
        "timed out",
        "timeout",
    ]
    .iter()
    .any(|w| lower.contains(w));
    if let Some(proxy) = proxy.filter(|_| connection_failed) {
        // The connection that failed may well be the proxy's: "is the host running?"
        // sends the user to a host that may be up.
        let loopback = url::Url::parse(base_url).is_ok_and(|u| match u.host() {
            Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        });
        let fix = if loopback {
            "a loopback target is normally reached directly: set NO_PROXY=127.0.0.1,localhost,::1 (or unset the proxy variable)"
        } else {
            "is the proxy running? set NO_PROXY to reach the host directly"
        };
        return format!(
            "cannot use {shown}: the connection went through the proxy in {proxy} and failed; {fix}"
        );
    }
    let plain_http = base_url.starts_with("https://")
        && (lower.contains("invalidcontenttype") || lower.contains("corrupt message"));
    let check = if plain_http {
        // TLS sent to a port that answers plain HTTP: rustls reads an HTTP answer as a
        // record of the wrong content type.
        "the port answers plain HTTP, not TLS: use http:// in --target"
    } else if lower.contains("connection refused") {
        "connection refused: is the host running? check --target"
    } else if lower.contains("dns") || lower.contains("resolve") {
        "the host name does not resolve: check --target"
    } else if lower.contains("timed out") || lower.contains("timeout") || lower.contains("deadline")
    {
        "no answer in time: is the host up? raise --timeout if it is only slow"
    } else if lower.contains("certificate") || lower.contains("tls") {
        "TLS failed: check --cacert (or --insecure, for a test host only)"
    } else if lower.contains("answered http 401") || lower.contains("answered http 403") {
        "the host wants credentials: set the token (--token-env / --token-file)"
    } else if lower.contains("answered http") || lower.contains("answered 404") {
        "the host answered, but not with its description: is --target its base URL?"
    } else if lower.contains("json") {
        "the answer is not the description mmconform expects: is --target the host's base URL?"
    } else {
        "check --target and that the host is running"
    };
    format!("cannot use {shown}: {check}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(url: &str) -> crate::runner::ResolvedTarget {
        crate::runner::ResolvedTarget {
            base_url: url.into(),
            label: url.into(),
        }
    }

    #[test]
    fn a_program_that_does_not_run_is_sent_to_target_cmd() {
        let target = crate::runner::ResolvedTarget::offline(Some("node bridge.mjs".into()));
        let why = "the bridge exited 1 before its first line: Error: Cannot find module";
        let hint = hint(why, &target, None);
        assert!(hint.starts_with("cannot use node bridge.mjs: "), "{hint}");
        assert!(
            hint.contains("--target-cmd") && !hint.contains("127.0.0.1"),
            "{hint}"
        );
    }

    #[test]
    fn names_the_usual_causes() {
        let refused = "GET http://127.0.0.1:9/x failed: tcp connect error: Connection refused";
        assert_eq!(
            hint(refused, &at("http://127.0.0.1:9"), None),
            "cannot use http://127.0.0.1:9: connection refused: is the host running? check --target"
        );
        assert!(hint("GET u answered HTTP 404", &at("u"), None).contains("base URL"));
        assert!(hint("GET u answered HTTP 401", &at("u"), None).contains("token"));
        assert!(hint("did not return a JSON object", &at("u"), None).contains("base URL"));
        let tls = "GET https://h:1/x failed: received corrupt message of type InvalidContentType";
        assert!(hint(tls, &at("https://h:1"), None).contains("use http://"));
    }

    #[test]
    fn a_failed_connection_through_a_proxy_names_the_proxy_not_the_host() {
        let refused = "GET http://127.0.0.1:9/x failed: tcp connect error: Connection refused";
        let proxy = Some("$HTTP_PROXY (http://127.0.0.1:3128)");
        let loopback = hint(refused, &at("http://127.0.0.1:9"), proxy);
        assert!(
            loopback.contains("through the proxy in $HTTP_PROXY (http://127.0.0.1:3128)")
                && loopback.contains("NO_PROXY=127.0.0.1,localhost"),
            "{loopback}"
        );
        assert!(!loopback.contains("is the host running"), "{loopback}");
        let remote = hint(refused, &at("https://host.example"), proxy);
        assert!(remote.contains("is the proxy running?"), "{remote}");
        // A host that answered is no proxy problem.
        let answered = hint("GET u answered HTTP 404", &at("http://127.0.0.1:9"), proxy);
        assert!(answered.contains("base URL"), "{answered}");
    }
}
