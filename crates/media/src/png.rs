//! PNG: the stamped picture ([`super::picture::png`]) with the stamp also in a `tEXt`
//! chunk just before `IEND`.
//!
//! The text of that chunk is also the padding, so any size from the minimum up
//! is one chunk; past PNG's 2^31-1 byte chunk limit the text is spread over
//! several `tEXt` chunks (the stamp stays whole in the first).

use super::{FILLER, fill, split_even, stamp};

/// `IEND` is always the last chunk, an empty one: length, type, CRC.
const IEND_LEN: usize = 12;
/// `Comment` is a registered keyword, so viewers show the stamp as a comment.
const KEYWORD: &[u8] = b"Comment\0";
/// Length + type + CRC around every chunk's data.
const CHUNK_OVERHEAD: usize = 12;
/// PNG caps a chunk's data at 2^31-1 bytes.
const MAX_DATA: usize = (1 << 31) - 1;

/// At least one byte of filler follows the stamp: without it the chunk's CRC would
/// follow directly, and a CRC byte that is a letter or digit would read as part of
/// the nonce.
pub(super) fn min_size(nonce: &str) -> usize {
    super::picture::png(nonce).len() + CHUNK_OVERHEAD + KEYWORD.len() + stamp(nonce).len() + 1
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    build_with_max(nonce, size, MAX_DATA)
}

/// `max_data` is a parameter only so tests can exercise the multi-chunk path
/// without allocating gigabytes.
fn build_with_max(nonce: &str, size: usize, max_data: usize) -> Vec<u8> {
    let stamp = stamp(nonce);
    let base = super::picture::png(nonce);
    let (head, iend) = base.split_at(base.len() - IEND_LEN);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(head);
    let text_chunks = size - base.len();
    for (i, chunk_len) in split_even(text_chunks, max_data + CHUNK_OVERHEAD).enumerate() {
        let data_len = chunk_len - CHUNK_OVERHEAD;
        let start = out.len();
        out.extend_from_slice(
            &u32::try_from(data_len)
                .expect("bounded by max_data")
                .to_be_bytes(),
        );
        out.extend_from_slice(b"tEXt");
        out.extend_from_slice(KEYWORD);
        let mut text_len = data_len - KEYWORD.len();
        if i == 0 {
            out.extend_from_slice(stamp.as_bytes());
            text_len -= stamp.len();
        }
        fill(&mut out, FILLER, text_len);
        // The CRC covers the chunk type and data, not the length field.
        let crc = crc32fast::hash(&out[start + 4..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    out.extend_from_slice(iend);
    out
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn the_picture_is_a_bare_png() {
        let chunks = check::png(&super::super::picture::png("0123456789abcdef")).unwrap();
        assert_eq!(chunks, [*b"IHDR", *b"IDAT", *b"IEND"]);
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("image/png", |b| check::png(b).map(drop));
    }

    #[test]
    fn text_spreads_over_several_chunks_past_the_limit() {
        let nonce = "0123456789abcdef";
        let min = min_size(nonce);
        for size in [min, min + 1, min + 250, min + 251, min + 5000] {
            let bytes = build_with_max(nonce, size, 100);
            assert_eq!(bytes.len(), size);
            let chunks = check::png(&bytes).unwrap();
            assert!(chunks.len() >= 4);
            assert!(super::super::contains_nonce(&bytes, nonce));
        }
    }
}
