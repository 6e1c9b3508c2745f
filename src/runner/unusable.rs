//! What to tell a user whose target cannot be used: the cause in their words, and
//! what to check. One sentence, because a hundred blocked cases share it.

/// A hint for `reason` (why the target, at `base_url`, cannot be used).
pub fn hint(reason: &str, base_url: &str) -> String {
    let lower = reason.to_ascii_lowercase();
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
    format!("cannot use {base_url}: {check}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_usual_causes() {
        let refused = "GET http://127.0.0.1:9/x failed: tcp connect error: Connection refused";
        assert_eq!(
            hint(refused, "http://127.0.0.1:9"),
            "cannot use http://127.0.0.1:9: connection refused: is the host running? check --target"
        );
        assert!(hint("GET u answered HTTP 404", "u").contains("base URL"));
        assert!(hint("GET u answered HTTP 401", "u").contains("token"));
        assert!(hint("did not return a JSON object", "u").contains("base URL"));
        let tls = "GET https://h:1/x failed: received corrupt message of type InvalidContentType";
        assert!(hint(tls, "https://h:1").contains("use http://"));
    }
}
