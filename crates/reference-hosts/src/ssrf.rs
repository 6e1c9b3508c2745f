//! The SSRF guard applied to `url` sources (RFC 0091 §C, RFC 0076).
//!
//! The reference host never fetches anything, so this guard only decides whether a URL
//! WOULD be allowed. It judges the literal host: names are never resolved, because
//! resolving would itself be outbound traffic. A real host must also check the
//! addresses a name resolves to (DNS rebinding); that is outside what a conformance
//! probe can observe.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use url::{Host, Url};

/// Why a URL is refused; the text goes straight into the error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlProblem {
    /// Not an absolute http(s) URL with a host.
    Malformed(String),
    /// Parses, but points somewhere the SSRF guard blocks.
    Blocked(String),
}

/// Host names that always mean "this machine" or a cloud metadata service.
const BLOCKED_NAMES: &[&str] = &["localhost", "metadata.google.internal", "metadata"];

/// Parses `raw` as an absolute http(s) URL; with `guard` on, also refuses internal
/// destinations.
#[cfg(test)]
pub fn check_url(raw: &str, guard: bool) -> Result<Url, UrlProblem> {
    check_url_with(raw, if guard { Guard::Full } else { Guard::Off })
}

/// How much of the SSRF guard runs (a fault may weaken it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    Off,
    Full,
    /// Mapped addresses are recognised only in their dotted spelling
    /// (`[::ffff:127.0.0.1]`), as the measured bypass of RFC 0196 did.
    DottedMappedOnly,
    /// NAT64, 6to4 and IPv4-compatible addresses are not judged by the IPv4 they embed.
    NoEmbeddedPrefixes,
}

/// [`check_url`] with the guard as given.
pub fn check_url_with(raw: &str, guard: Guard) -> Result<Url, UrlProblem> {
    let url = Url::parse(raw)
        .map_err(|err| UrlProblem::Malformed(format!("not an absolute URL ({err})")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(UrlProblem::Malformed(format!(
            "scheme `{}` is not http or https",
            url.scheme()
        )));
    }
    let Some(host) = url.host() else {
        return Err(UrlProblem::Malformed("URL has no host".into()));
    };
    match (guard, &host) {
        (Guard::Off, _) => {}
        // The bypass RFC 0196 measured: a mapped address written in hex is let through.
        (Guard::DottedMappedOnly, Host::Ipv6(ip))
            if ip.to_ipv4_mapped().is_some() && !bracketed(raw).contains('.') => {}
        (Guard::NoEmbeddedPrefixes, Host::Ipv6(ip))
            if ip.to_ipv4_mapped().is_none() && embedded_ipv4(*ip).is_some() => {}
        _ => check_host(&host)?,
    }
    Ok(url)
}

/// The text between `[` and `]` in a raw URL (its IPv6 host as written).
fn bracketed(raw: &str) -> &str {
    let open = raw.find('[').map_or(0, |i| i + 1);
    let close = raw[open..].find(']').map_or(raw.len(), |i| open + i);
    &raw[open..close]
}

/// The IPv4 address an IPv6 one carries (RFC 0196 §B.5/§B.6): mapped (`::ffff:0:0/96`),
/// IPv4-compatible (`::/96` but `::` and `::1`), NAT64 (`64:ff9b::/96`), 6to4
/// (`2002::/16`, bits 16-47).
fn embedded_ipv4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let octets =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if let Some(v4) = ip.to_ipv4_mapped() {
        Some(v4)
    } else if (s[..6] == [0; 6] && !ip.is_unspecified() && !ip.is_loopback())
        || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
    {
        // IPv4-compatible and NAT64: the last 32 bits.
        Some(octets(s[6], s[7]))
    } else if s[0] == 0x2002 {
        Some(octets(s[1], s[2]))
    } else {
        None
    }
}

fn check_host(host: &Host<&str>) -> Result<(), UrlProblem> {
    match host {
        Host::Domain(name) => {
            // The url crate lowercases names; a trailing dot is the same name.
            let name = name.trim_end_matches('.');
            if BLOCKED_NAMES.contains(&name) || name.ends_with(".localhost") {
                return Err(UrlProblem::Blocked(format!(
                    "host `{name}` is a local or metadata name"
                )));
            }
            Ok(())
        }
        Host::Ipv4(ip) => check_ip(IpAddr::V4(*ip)),
        Host::Ipv6(ip) => check_ip(IpAddr::V6(*ip)),
    }
}

fn check_ip(ip: IpAddr) -> Result<(), UrlProblem> {
    let reason = match ip {
        IpAddr::V4(v4) => blocked_v4(v4),
        IpAddr::V6(v6) => blocked_v6(v6),
    };
    match reason {
        Some(reason) => Err(UrlProblem::Blocked(format!("address {ip} is {reason}"))),
        None => Ok(()),
    }
}

fn blocked_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_private() {
        Some("private (RFC 1918)")
    } else if ip.is_link_local() {
        // Includes 169.254.169.254, the cloud instance-metadata address.
        Some("link-local / metadata")
    } else if a == 0 {
        // 0.0.0.0/8 "this network": 0.0.0.0 reaches the local host on most stacks.
        Some("unspecified")
    } else if a == 100 && (64..128).contains(&b) {
        // Shared address space (RFC 6598); some clouds put metadata services here.
        Some("shared address space (RFC 6598)")
    } else if ip.is_broadcast() || ip.is_multicast() {
        Some("broadcast / multicast")
    } else {
        None
    }
}

fn blocked_v6(ip: Ipv6Addr) -> Option<&'static str> {
    // An embedded IPv4 address is judged as itself, whatever the spelling (RFC 0196):
    // NAT64 of a public address stays allowed, the prefixes are not denied wholesale.
    if let Some(v4) = embedded_ipv4(ip) {
        return blocked_v4(v4);
    }
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_unspecified() {
        Some("unspecified")
    } else if first & 0xfe00 == 0xfc00 {
        Some("unique-local (fc00::/7)")
    } else if first & 0xffc0 == 0xfe80 {
        Some("link-local (fe80::/10)")
    } else if ip.is_multicast() {
        Some("multicast")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(raw: &str) -> bool {
        matches!(check_url(raw, true), Err(UrlProblem::Blocked(_)))
    }

    #[test]
    fn public_urls_pass() {
        for raw in [
            "https://example.com/cat.png",
            "http://93.184.216.34/a.jpg",
            "https://[2606:2800:220:1:248:1893:25c8:1946]/x.wav",
            "https://172.32.0.1/just-outside-rfc1918.pdf",
            // NAT64 of a public address (RFC 0196's accepted example).
            "https://[64:ff9b::5db8:d822]/",
        ] {
            assert!(check_url(raw, true).is_ok(), "{raw}");
        }
    }

    #[test]
    fn internal_destinations_are_blocked() {
        for raw in [
            "http://127.0.0.1/x",
            "http://127.8.9.10:8080/x",
            "http://localhost/x",
            "http://LOCALHOST./x",
            "http://api.localhost/x",
            "http://10.0.0.1/x",
            "http://172.16.0.1/x",
            "http://172.31.255.255/x",
            "http://192.168.1.1/x",
            "http://169.254.169.254/latest/meta-data/",
            "http://169.254.1.1/x",
            "http://metadata.google.internal/computeMetadata/v1/",
            "http://0.0.0.0/x",
            "http://100.100.100.200/x",
            "http://[::1]/x",
            "http://[::]/x",
            "http://[fc00::1]/x",
            "http://[fd00:ec2::254]/x",
            "http://[fe80::1]/x",
            "http://[::ffff:127.0.0.1]/x",
            // RFC 0196: embedded IPv4 in every spelling.
            "http://[::ffff:7f00:1]/x",
            "https://[::ffff:a9fe:a9fe]/",
            "https://[64:ff9b::7f00:1]/",
            "http://[2002:7f00:1::]/x",
            "http://[::7f00:1]/x",
            "http://0x7f000001/x",
            "http://127.1/x",
            // Alternative spellings of loopback that the url crate normalises.
            "http://2130706433/x",
            "http://0x7f.1/x",
        ] {
            assert!(blocked(raw), "{raw} should be blocked");
        }
    }

    #[test]
    fn malformed_urls_are_not_blocked_but_malformed() {
        for raw in [
            "not a url",
            "/relative/path.png",
            "ftp://example.com/x",
            "file:///etc/passwd",
            "data:image/png;base64,AAAA",
        ] {
            assert!(
                matches!(check_url(raw, true), Err(UrlProblem::Malformed(_))),
                "{raw}"
            );
        }
    }

    #[test]
    fn weakened_guards_miss_exactly_their_spellings() {
        let dotted = |raw| check_url_with(raw, Guard::DottedMappedOnly).is_ok();
        assert!(dotted("http://[::ffff:7f00:1]/x"));
        assert!(!dotted("http://[::ffff:127.0.0.1]/x"));
        assert!(!dotted("http://[64:ff9b::7f00:1]/x"));
        let prefixes = |raw| check_url_with(raw, Guard::NoEmbeddedPrefixes).is_ok();
        assert!(prefixes("http://[64:ff9b::7f00:1]/x"));
        assert!(prefixes("http://[2002:7f00:1::]/x"));
        assert!(!prefixes("http://[::ffff:7f00:1]/x"));
        assert!(!prefixes("http://127.0.0.1/x"));
    }

    #[test]
    fn guard_off_accepts_loopback_but_still_needs_http() {
        assert!(check_url("http://127.0.0.1/x", false).is_ok());
        assert!(check_url("ftp://127.0.0.1/x", false).is_err());
    }
}
