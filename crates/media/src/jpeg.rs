//! JPEG: the stamped picture ([`super::picture::jpeg`]) with the stamp also in `COM`
//! segments.
//!
//! The segments go right after SOI, or after the JFIF `APP0` when the picture
//! has one, because JFIF requires its `APP0` to come first. A segment's length
//! field is 16 bits, so large sizes use several `COM` segments.

use super::{FILLER, fill, split_even, stamp};

/// Marker (2) + length field (2); the length field counts itself, not the marker.
const SEGMENT_OVERHEAD: usize = 4;
/// The 16-bit length field includes its own two bytes.
const MAX_DATA: usize = 65_535 - 2;

pub(super) fn min_size(nonce: &str) -> usize {
    super::picture::jpeg(nonce).len() + SEGMENT_OVERHEAD + stamp(nonce).len()
}

/// Where the comments go: after SOI, and after a JFIF `APP0` if it leads.
fn insert_at(base: &[u8]) -> usize {
    let after_soi = 2;
    if base[after_soi..after_soi + 2] == [0xFF, 0xE0] {
        let len = usize::from(u16::from_be_bytes([base[4], base[5]]));
        after_soi + 2 + len
    } else {
        after_soi
    }
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let stamp = stamp(nonce);
    let base = super::picture::jpeg(nonce);
    let (head, tail) = base.split_at(insert_at(&base));
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(head);
    let comments = size - base.len();
    // Even split keeps every segment over half the maximum when there are
    // several, so the first always has room for the stamp.
    for (i, seg_len) in split_even(comments, MAX_DATA + SEGMENT_OVERHEAD).enumerate() {
        let data_len = seg_len - SEGMENT_OVERHEAD;
        let field = u16::try_from(data_len + 2).expect("bounded by MAX_DATA");
        out.extend_from_slice(&[0xFF, 0xFE]);
        out.extend_from_slice(&field.to_be_bytes());
        let mut pad = data_len;
        if i == 0 {
            out.extend_from_slice(stamp.as_bytes());
            pad -= stamp.len();
        }
        fill(&mut out, FILLER, pad);
    }
    out.extend_from_slice(tail);
    out
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn the_picture_walks_from_soi_to_eoi() {
        let markers = check::jpeg(&super::super::picture::jpeg("0123456789abcdef")).unwrap();
        assert_eq!(markers.first(), Some(&0xE0), "the picture has a JFIF APP0");
    }

    #[test]
    fn comments_follow_the_jfif_header() {
        let bytes = build("0123456789abcdef", min_size("0123456789abcdef"));
        let markers = check::jpeg(&bytes).unwrap();
        assert_eq!(&markers[..2], &[0xE0, 0xFE]);
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("image/jpeg", |b| check::jpeg(b).map(drop));
    }

    #[test]
    fn segment_boundaries_are_exact() {
        let nonce = "0123456789abcdef";
        let one = MAX_DATA + SEGMENT_OVERHEAD;
        for extra in [one - 1, one, one + 1, 2 * one, 2 * one + 1, 3 * one + 7] {
            let size = super::super::picture::jpeg(nonce).len() + extra;
            let bytes = build(nonce, size);
            assert_eq!(bytes.len(), size);
            let markers = check::jpeg(&bytes).unwrap();
            let coms = markers.iter().filter(|&&m| m == 0xFE).count();
            assert_eq!(coms, extra.div_ceil(one), "extra {extra}");
        }
    }
}
