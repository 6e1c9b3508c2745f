//! IPv6 addresses that carry an IPv4 address (RFC 0196 §B.5/§B.6): an address is judged
//! by the IPv4 it embeds, whatever its spelling. `[::ffff:7f00:1]` is 127.0.0.1 as much
//! as `[::ffff:127.0.0.1]` is; a guard (or a loopback check) that matched only the dotted
//! spelling let requests reach a loopback listener.

use std::net::{Ipv4Addr, Ipv6Addr};

/// How an IPv6 address embeds an IPv4 one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Embedding {
    /// `::ffff:0:0/96` (IPv4-mapped, RFC 4291): the IPv4 address itself (MUST).
    Mapped,
    /// `::/96` except `::` and `::1` (IPv4-compatible, deprecated).
    Compatible,
    /// `64:ff9b::/96` (the NAT64 well-known prefix, RFC 6052).
    Nat64,
    /// `2002::/16` (6to4, RFC 3056): the IPv4 address in bits 16-47.
    SixToFour,
}

/// The IPv4 address `ip` embeds, and how.
pub fn embedded_ipv4(ip: Ipv6Addr) -> Option<(Ipv4Addr, Embedding)> {
    let s = ip.segments();
    let low = Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some((v4, Embedding::Mapped));
    }
    if s[..6] == [0; 6] && !ip.is_unspecified() && !ip.is_loopback() {
        return Some((low, Embedding::Compatible));
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some((low, Embedding::Nat64));
    }
    if s[0] == 0x2002 {
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        return Some((v4, Embedding::SixToFour));
    }
    None
}

/// Whether `ip` is loopback, itself or through the IPv4 address it embeds.
pub fn is_loopback_v6(ip: Ipv6Addr) -> bool {
    ip.is_loopback() || embedded_ipv4(ip).is_some_and(|(v4, _)| v4.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v6(s: &str) -> Ipv6Addr {
        s.parse().unwrap()
    }

    #[test]
    fn every_embedding_yields_its_ipv4() {
        let lo = Ipv4Addr::LOCALHOST;
        assert_eq!(
            embedded_ipv4(v6("::ffff:7f00:1")),
            Some((lo, Embedding::Mapped))
        );
        assert_eq!(
            embedded_ipv4(v6("::ffff:127.0.0.1")),
            Some((lo, Embedding::Mapped))
        );
        assert_eq!(
            embedded_ipv4(v6("::7f00:1")),
            Some((lo, Embedding::Compatible))
        );
        assert_eq!(
            embedded_ipv4(v6("64:ff9b::7f00:1")),
            Some((lo, Embedding::Nat64))
        );
        assert_eq!(
            embedded_ipv4(v6("2002:7f00:1::")),
            Some((lo, Embedding::SixToFour))
        );
        let metadata = Ipv4Addr::new(169, 254, 169, 254);
        assert_eq!(
            embedded_ipv4(v6("::ffff:a9fe:a9fe")),
            Some((metadata, Embedding::Mapped))
        );
        assert_eq!(embedded_ipv4(v6("::1")), None);
        assert_eq!(embedded_ipv4(v6("::")), None);
        assert_eq!(embedded_ipv4(v6("2606:2800:220:1::1")), None);
    }

    #[test]
    fn loopback_is_judged_by_the_embedded_address() {
        for lo in [
            "::1",
            "::ffff:7f00:1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::",
            "::7f00:1",
        ] {
            assert!(is_loopback_v6(v6(lo)), "{lo}");
        }
        // RFC 0196's accepted example: NAT64 of a public address.
        assert!(!is_loopback_v6(v6("64:ff9b::5db8:d822")));
        assert!(!is_loopback_v6(v6("::ffff:a9fe:a9fe")));
    }
}
