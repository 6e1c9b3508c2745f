//! The bits a content stamp carries: a nonce of the run form, whole, and a checksum.
//!
//! A run's nonce is 16 lowercase hex digits (64 bits); a case's adds `-c<index>` and
//! `media export`'s files `-p<index>`. The stamp holds the 64 bits, a 16-bit tag (2 bits
//! for none, `-c` or `-p`, 14 bits for the index) and a CRC-32 of those ten bytes:
//! [`BITS`] bits in all. A nonce of any other form has no content stamp (its files
//! carry the metadata stamp only), and bits whose CRC does not hold are no stamp at all,
//! never a wrong nonce.

/// Bits of one stamp: 64 (run) + 16 (tag) + 32 (CRC-32).
pub const BITS: usize = 112;
/// The same, in bytes.
pub const BYTES: usize = BITS / 8;
/// Largest index a `-c`/`-p` suffix can carry (14 bits).
pub const MAX_INDEX: u16 = (1 << 14) - 1;

const NONE: u16 = 0;
const CASE: u16 = 1;
const PART: u16 = 2;

/// The stamp's bytes for `nonce`, or `None` when it is not of the run form.
pub fn encode(nonce: &str) -> Option<[u8; BYTES]> {
    let (run, suffix) = nonce.split_at_checked(16)?;
    if !run.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let run = u64::from_str_radix(run, 16).ok()?;
    let tag = match suffix {
        "" => NONE << 14,
        _ => {
            let (kind, digits) = match suffix.get(..2)? {
                "-c" => (CASE, &suffix[2..]),
                "-p" => (PART, &suffix[2..]),
                _ => return None,
            };
            // Only the canonical spelling reads back as what was stamped.
            let canonical = !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'));
            let index: u16 = digits.parse().ok().filter(|_| canonical)?;
            if index > MAX_INDEX {
                return None;
            }
            kind << 14 | index
        }
    };
    let mut out = [0u8; BYTES];
    out[..8].copy_from_slice(&run.to_be_bytes());
    out[8..10].copy_from_slice(&tag.to_be_bytes());
    let crc = crc32fast::hash(&out[..10]);
    out[10..].copy_from_slice(&crc.to_be_bytes());
    Some(out)
}

/// The nonce `bytes` carry, when their CRC holds and their tag is one [`encode`] writes.
pub fn decode(bytes: &[u8; BYTES]) -> Option<String> {
    let crc = u32::from_be_bytes([bytes[10], bytes[11], bytes[12], bytes[13]]);
    if crc32fast::hash(&bytes[..10]) != crc {
        return None;
    }
    let run = u64::from_be_bytes(bytes[..8].try_into().expect("eight bytes"));
    let tag = u16::from_be_bytes([bytes[8], bytes[9]]);
    let index = tag & MAX_INDEX;
    match tag >> 14 {
        NONE if index == 0 => Some(format!("{run:016x}")),
        CASE => Some(format!("{run:016x}-c{index}")),
        PART => Some(format!("{run:016x}-p{index}")),
        _ => None,
    }
}

/// `bytes` as bits, most significant first.
pub fn to_bits(bytes: &[u8; BYTES]) -> [bool; BITS] {
    std::array::from_fn(|i| bytes[i / 8] >> (7 - i % 8) & 1 == 1)
}

/// The inverse of [`to_bits`].
pub fn from_bits(bits: &[bool]) -> [u8; BYTES] {
    let mut out = [0u8; BYTES];
    for (i, _) in bits.iter().enumerate().take(BITS).filter(|(_, b)| **b) {
        out[i / 8] |= 1 << (7 - i % 8);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_case_and_part_nonces_read_back_whole() {
        for nonce in [
            "0123456789abcdef",
            "0123456789abcdef-c0",
            "ffffffffffffffff-c16383",
            "0000000000000000-p3",
            "a1b2c3d4e5f60718-c417",
        ] {
            let bytes = encode(nonce).unwrap_or_else(|| panic!("{nonce}"));
            assert_eq!(decode(&bytes).as_deref(), Some(nonce));
            assert_eq!(from_bits(&to_bits(&bytes)), bytes);
        }
    }

    #[test]
    fn other_forms_have_no_content_stamp() {
        for nonce in [
            "n1",
            "0123456789ABCDEF",
            "0123456789abcde",
            "0123456789abcdef0",
            "0123456789abcdef-c",
            "0123456789abcdef-c01",
            "0123456789abcdef-c16384",
            "0123456789abcdef-x1",
            "0123456789abcdef-c1-p0",
            "reference-file",
            "",
        ] {
            assert_eq!(encode(nonce), None, "{nonce}");
        }
    }

    #[test]
    fn a_single_flipped_bit_is_no_stamp_never_another_nonce() {
        let bytes = encode("0123456789abcdef-c12").unwrap();
        for bit in 0..BITS {
            let mut bits = to_bits(&bytes);
            bits[bit] = !bits[bit];
            assert_eq!(decode(&from_bits(&bits)), None, "bit {bit}");
        }
        assert_eq!(decode(&[0; BYTES]), None);
        assert_eq!(decode(&[0xff; BYTES]), None);
    }

    #[test]
    fn a_reserved_tag_is_no_stamp_even_with_a_good_crc() {
        let mut bytes = [0u8; BYTES];
        bytes[8] = 0xC0;
        let crc = crc32fast::hash(&bytes[..10]);
        bytes[10..].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(decode(&bytes), None);
        bytes[8] = 0x00;
        bytes[9] = 0x05;
        let crc = crc32fast::hash(&bytes[..10]);
        bytes[10..].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(decode(&bytes), None, "no suffix with an index");
    }
}
