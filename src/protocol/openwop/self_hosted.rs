//! RFC 0108 (self-hosted providers): which id is the host's self-hosted provider and
//! who said so, whether that id encodes a location (§A.3), and whether the endpoint the
//! host is configured with shows on the wire (§A.3).
//!
//! At v1 the document names the id (`aiProviders.selfHosted: string[]`, a subset of
//! `supported`); at v2 `selfHosted` is a boolean and cannot name one, so the user does
//! (`--self-hosted-provider`). Without it a v2 run reports that gap (OPENWOP-V2 §7,
//! "self-hosted id at v2"): the cases are blocked, never decided on a guessed id.
//! The endpoint comes from `OPENWOP_TEST_COMPAT_ENDPOINT`, as the official suite reads
//! it; it is a secret to every report (`Protocol::check_options` names it to the
//! redactor).

use super::options::NamedProvider;
use serde_json::{Map, Value, json};
use std::net::IpAddr;

/// The variable holding the endpoint the host's self-hosted provider is configured with.
pub const ENDPOINT_VAR: &str = "OPENWOP_TEST_COMPAT_ENDPOINT";

/// The flag naming the self-hosted provider's id.
pub const FLAG: &str = "--self-hosted-provider";

/// The endpoint name of an ai/call sent through the self-hosted provider.
pub const ENDPOINT: &str = "ai-call-self-hosted";

/// The `openwop.*` facts about the self-hosted provider: `selfHosted` (advertised),
/// `selfHostedId` and `selfHostedIdFrom` (null when nobody named it),
/// `selfHostedIdListed` (whether that id is among the providers: v1 `supported`, v2
/// `providers`; null without an id) and `selfHostedGap` (why no id is known, when
/// advertised without one).
pub fn facts(document: Option<&Value>, named: Option<&NamedProvider>) -> Map<String, Value> {
    let declared = document.and_then(|d| d.pointer("/aiProviders/selfHosted"));
    let listed: Vec<&str> = declared
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let advertised = !listed.is_empty() || declared == Some(&Value::Bool(true));
    let (id, from, gap) = match (named, listed.first()) {
        (Some(named), Some(first)) if *first != named.id && !named.fallback => (
            Some(named.id.clone()),
            format!(
                "{} (the document's selfHosted[0] is `{first}`: the flag wins)",
                named.named_by
            ),
            None,
        ),
        (_, Some(first)) => (
            Some(first.to_string()),
            "aiProviders.selfHosted[0] (v1 document)".to_string(),
            None,
        ),
        (Some(named), None) => (Some(named.id.clone()), named.named_by.clone(), None),
        (None, None) => (None, String::new(), advertised.then(gap)),
    };
    let mut facts = Map::new();
    facts.insert(
        "selfHostedIdListed".into(),
        json!(id.as_deref().map(|id| listed_as_provider(document, id))),
    );
    facts.insert("selfHosted".into(), json!(advertised));
    facts.insert("selfHostedId".into(), json!(id));
    facts.insert(
        "selfHostedIdFrom".into(),
        if id.is_some() {
            json!(from)
        } else {
            Value::Null
        },
    );
    facts.insert("selfHostedGap".into(), json!(gap));
    facts
}

/// Whether `id` is one of the host's providers: v1 `supported` (a list, or `true`: every
/// provider), v2 `providers`.
fn listed_as_provider(document: Option<&Value>, id: &str) -> bool {
    let ai = document.and_then(|d| d.get("aiProviders"));
    let listed = |key: &str| {
        ai.and_then(|ai| ai.get(key))
            .and_then(Value::as_array)
            .is_some_and(|ids| ids.iter().any(|p| p.as_str() == Some(id)))
    };
    let supports_all = ai.and_then(|ai| ai.get("supported")) == Some(&Value::Bool(true));
    supports_all || listed("supported") || listed("providers")
}

/// Why a document advertising a self-hosted provider names none (the v2 boolean).
fn gap() -> String {
    format!(
        "the document says aiProviders.selfHosted but cannot name which provider is self-hosted \
         (RFC 0108 lists ids at v1; openwop 2 made selfHosted a boolean): pass {FLAG} ID"
    )
}

/// The self-hosted id a case is planned with and who named it, or why none is known.
pub fn id_of(context: &Value) -> Result<(String, String), String> {
    let facts = &context["openwop"];
    match (
        facts["selfHostedId"].as_str(),
        facts["selfHostedIdFrom"].as_str(),
    ) {
        (Some(id), from) => Ok((id.to_string(), from.unwrap_or_default().to_string())),
        (None, _) => Err(facts["selfHostedGap"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(gap)),
    }
}

/// `body` naming `id` as its provider (whatever it named before).
pub fn name_in(body: Option<Value>, id: &str) -> Option<Value> {
    match body {
        Some(Value::Object(mut map)) => {
            map.insert("provider".into(), json!(id));
            Some(Value::Object(map))
        }
        other => other,
    }
}

/// DNS suffixes that name a place, for a two-label id (`ollama.internal`): the
/// special-use and private-network names (RFC 6761, RFC 8375, `.internal`) and the
/// commonest public ones. A two-label id under any other suffix (`acme.compat`) is
/// read as a namespaced name, not a location, so an honest host is never failed on a guess.
const LOCATION_SUFFIXES: [&str; 16] = [
    "local",
    "localhost",
    "internal",
    "intranet",
    "lan",
    "home",
    "corp",
    "arpa",
    "test",
    "invalid",
    "example",
    "com",
    "net",
    "org",
    "io",
    "ai",
];

/// Why `id` encodes a location (RFC 0108 §A.3), or `None` when it does not. An id
/// encodes one when it is a URL (`://`), carries userinfo (`@`), is an IP address
/// (bracketed or not, with or without a port), is `name:port`, is `localhost`, or is
/// a DNS name: three labels or more, or two ending in a [`LOCATION_SUFFIXES`] suffix.
pub fn id_location(id: &str) -> Option<String> {
    let id = id.trim();
    if id.contains("://") {
        return Some("it is a URL (contains `://`)".into());
    }
    if id.contains('@') {
        return Some("it carries a userinfo@host".into());
    }
    if is_ip(id) {
        return Some("it is an IP address".into());
    }
    if let Some((host, port)) = id.rsplit_once(':')
        && !port.is_empty()
        && port.chars().all(|c| c.is_ascii_digit())
        && !host.is_empty()
        && !host.contains(':')
    {
        return Some("it is host:port".into());
    }
    let lower = id.to_ascii_lowercase();
    if lower == "localhost" {
        return Some("it is the host name localhost".into());
    }
    let labels: Vec<&str> = lower.split('.').collect();
    let dns_label =
        |l: &&str| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let last_alpha = labels
        .last()
        .is_some_and(|l| l.len() >= 2 && l.chars().all(|c| c.is_ascii_alphabetic()));
    if labels.len() >= 2 && labels.iter().all(dns_label) && last_alpha {
        let suffix = labels.last().copied().unwrap_or_default();
        if labels.len() >= 3 || LOCATION_SUFFIXES.contains(&suffix) {
            return Some("it is a DNS host name".into());
        }
    }
    None
}

fn is_ip(id: &str) -> bool {
    let bare = id.trim_start_matches('[');
    let bare = bare.split(']').next().unwrap_or(bare);
    bare.parse::<IpAddr>().is_ok()
        || id
            .rsplit_once(':')
            .is_some_and(|(host, _)| host.parse::<IpAddr>().is_ok())
}

/// What to look for in answers: the endpoint as configured, its `host:port` and its
/// bare host (as the official suite greps), each once, lower-case. A loopback bare host
/// (`127.0.0.1`, `[::1]`, `localhost`) is left out: a host on the same machine may name
/// its own address for other reasons, and that address says nothing of where its
/// self-hosted provider lives (its `host:port` is still looked for).
pub fn needles(endpoint: &str) -> Vec<String> {
    let endpoint = endpoint.trim();
    let mut out = vec![endpoint.trim_end_matches('/').to_ascii_lowercase()];
    if let Ok(url) = url::Url::parse(endpoint)
        && let Some(host) = url.host_str()
    {
        if let Some(port) = url.port() {
            out.push(format!("{host}:{port}").to_ascii_lowercase());
        }
        if !is_loopback_host(host) {
            out.push(host.to_ascii_lowercase());
        }
    }
    out.retain(|n| !n.is_empty());
    out.dedup();
    out
}

fn is_loopback_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_matches(['[', ']'])
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The values the redactor masks: the endpoint as configured and everything
/// [`needles`] looks for.
pub fn secrets(endpoint: &str) -> Vec<String> {
    let mut out = vec![endpoint.trim().to_string()];
    out.extend(needles(endpoint));
    out
}

/// The surfaces (by name) whose text holds any needle, in JSON-escaped form too
/// (`http:\/\/host`). Case-insensitive: host names are.
pub fn leaks(needles: &[String], surfaces: &[(String, String)]) -> Vec<String> {
    surfaces
        .iter()
        .filter(|(_, text)| {
            let text = text.to_ascii_lowercase();
            needles
                .iter()
                .any(|n| text.contains(n.as_str()) || text.contains(&n.replace('/', "\\/")))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// A response's body and headers as named surfaces for [`leaks`].
pub fn surfaces_of(label: &str, response: &crate::http::HttpResponse) -> Vec<(String, String)> {
    let mut out = vec![(
        format!("{label} body"),
        String::from_utf8_lossy(&response.body).into_owned(),
    )];
    out.extend(
        response
            .raw_headers
            .iter()
            .map(|(k, v)| (format!("{label} header {k}"), v.clone())),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(id: &str) -> NamedProvider {
        NamedProvider {
            id: id.into(),
            named_by: FLAG.into(),
            fallback: false,
        }
    }

    #[test]
    fn the_v1_list_names_the_id_and_a_flag_overrides_it_saying_so() {
        let v1 = json!({"aiProviders": {"supported": ["compat"], "selfHosted": ["compat"]}});
        let f = facts(Some(&v1), None);
        assert_eq!(f["selfHosted"], json!(true));
        assert_eq!(f["selfHostedId"], json!("compat"));
        assert_eq!(
            f["selfHostedIdFrom"],
            json!("aiProviders.selfHosted[0] (v1 document)")
        );
        assert_eq!(f["selfHostedIdListed"], json!(true));
        let f = facts(Some(&v1), Some(&named("local")));
        assert_eq!(f["selfHostedId"], json!("local"));
        assert_eq!(f["selfHostedIdListed"], json!(false));
        assert!(
            f["selfHostedIdFrom"]
                .as_str()
                .unwrap()
                .contains("the flag wins")
        );
        let f = facts(Some(&v1), Some(&named("compat")));
        assert_eq!(
            f["selfHostedIdFrom"],
            json!("aiProviders.selfHosted[0] (v1 document)")
        );
        // A fallback (the embedded host's own id) never overrides the document.
        let fallback = NamedProvider {
            fallback: true,
            ..named("local")
        };
        assert_eq!(
            facts(Some(&v1), Some(&fallback))["selfHostedId"],
            json!("compat")
        );
    }

    #[test]
    fn the_v2_boolean_needs_the_flag_and_says_so_without_it() {
        let v2 = json!({"aiProviders": {"providers": ["compat", "x"], "selfHosted": true}});
        let f = facts(Some(&v2), None);
        assert_eq!(f["selfHosted"], json!(true));
        assert_eq!(f["selfHostedId"], Value::Null);
        assert!(f["selfHostedGap"].as_str().unwrap().contains(FLAG));
        let context = json!({"openwop": f});
        assert!(id_of(&context).unwrap_err().contains("boolean"));
        assert_eq!(f["selfHostedIdListed"], Value::Null);
        let f = facts(Some(&v2), Some(&named("compat")));
        assert_eq!(f["selfHostedIdListed"], json!(true));
        let context = json!({"openwop": f});
        assert_eq!(id_of(&context).unwrap(), ("compat".into(), FLAG.into()));
        // Not advertised: no gap to report, whatever the flag says.
        let none = facts(Some(&json!({"aiProviders": {"selfHosted": false}})), None);
        assert_eq!(none["selfHosted"], json!(false));
        assert_eq!(none["selfHostedGap"], Value::Null);
    }

    #[test]
    fn ids_that_encode_a_location_are_named_and_plain_ones_are_not() {
        for id in [
            "http://127.0.0.1:8089/v1",
            "https://ollama.internal/v1",
            "127.0.0.1",
            "[::1]:11434",
            "::1",
            "10.0.0.7:8000",
            "ollama:11434",
            "localhost",
            "ollama.internal",
            "gpu1.lab.acme",
            "api.example.com",
            "user@host",
        ] {
            assert!(id_location(id).is_some(), "{id} encodes a location");
        }
        for id in [
            "compat",
            "self-hosted",
            "ollama",
            "acme.compat",
            "gpt-4.1",
            "llama3_8b",
        ] {
            assert_eq!(id_location(id), None, "{id} is opaque");
        }
    }

    #[test]
    fn needles_are_the_url_its_authority_and_host_and_leaks_name_only_surfaces() {
        let n = needles("http://Compat.Example.invalid:8089/v1/");
        assert_eq!(
            n,
            vec![
                "http://compat.example.invalid:8089/v1",
                "compat.example.invalid:8089",
                "compat.example.invalid"
            ]
        );
        let surfaces = vec![
            ("a body".to_string(), r#"{"ok": true}"#.to_string()),
            (
                "b body".to_string(),
                r#"{"u": "http:\/\/compat.example.invalid:8089\/v1"}"#.to_string(),
            ),
            (
                "c header x-upstream".to_string(),
                "COMPAT.EXAMPLE.INVALID".to_string(),
            ),
        ];
        assert_eq!(leaks(&n, &surfaces), vec!["b body", "c header x-upstream"]);
        // A loopback bare host is neither looked for nor masked; its host:port is both.
        let s = secrets("http://127.0.0.1:9/v1");
        assert!(s.contains(&"127.0.0.1:9".to_string()));
        assert!(!s.contains(&"127.0.0.1".to_string()));
        assert!(!needles("http://localhost:9/v1").contains(&"localhost".to_string()));
        assert!(secrets("http://gpu.internal:9/v1").contains(&"gpu.internal".to_string()));
    }
}
