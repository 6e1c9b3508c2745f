//! GIF: the stamped picture ([`super::picture::gif`]), with the stamp also in a
//! comment extension just before the image.
//!
//! The comment's text is also the padding. A comment is a run of sub-blocks of at most
//! 255 bytes, each after its length byte, ended by an empty one; the stamp stays whole
//! in the first sub-block, followed by at least one filler byte so the next length byte
//! never reads as part of the nonce.

use super::{FILLER, fill, stamp};

/// Extension introducer and comment label, and the block terminator after the text.
const COMMENT_OVERHEAD: usize = 3;
/// A sub-block: one length byte and at most 255 bytes of text.
const MAX_BLOCK: usize = 256;

pub(super) fn min_size(nonce: &str) -> usize {
    let (head, tail) = super::picture::gif(nonce);
    head.len() + tail.len() + COMMENT_OVERHEAD + 1 + stamp(nonce).len() + 1
}

/// The sizes (length byte included) of the sub-blocks that fill `total` bytes: full
/// ones first, never leaving a remainder of one byte (a sub-block holds at least one).
fn blocks(mut total: usize) -> Vec<usize> {
    let mut out = Vec::new();
    while total > 0 {
        let take = match total {
            t if t <= MAX_BLOCK => t,
            t if t - MAX_BLOCK >= 2 => MAX_BLOCK,
            _ => MAX_BLOCK - 1,
        };
        out.push(take);
        total -= take;
    }
    out
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let stamp = stamp(nonce);
    let (head, tail) = super::picture::gif(nonce);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(&head);
    out.extend_from_slice(b"\x21\xfe");
    let text_blocks = size - head.len() - tail.len() - COMMENT_OVERHEAD;
    for (i, block) in blocks(text_blocks).into_iter().enumerate() {
        let len = block - 1;
        out.push(u8::try_from(len).expect("at most 255"));
        if i == 0 {
            out.extend_from_slice(stamp.as_bytes());
            fill(&mut out, FILLER, len - stamp.len());
        } else {
            fill(&mut out, FILLER, len);
        }
    }
    out.push(0);
    out.extend_from_slice(&tail);
    out
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("image/gif", |b| {
            let labels = check::gif(b)?;
            // The comment, then the frame's graphic control extension.
            if labels == [0xfe, 0xf9] {
                Ok(())
            } else {
                Err(format!(
                    "extensions {labels:02x?}, want a comment and a control"
                ))
            }
        });
    }

    #[test]
    fn the_walker_fails_on_broken_files() {
        let good = build("n0nce", min_size("n0nce") + 300);
        assert!(check::gif(&good).is_ok());
        assert!(check::gif(&good[..good.len() - 1]).is_err(), "no trailer");
        let mut extra = good.clone();
        extra.push(0);
        assert!(check::gif(&extra).is_err(), "data after the trailer");
        assert!(check::gif(b"GIF89").is_err());
    }

    #[test]
    fn sub_blocks_cover_the_size_and_each_holds_text() {
        for total in [2, 3, 255, 256, 257, 258, 511, 512, 513, 100_000] {
            let parts = blocks(total);
            assert_eq!(parts.iter().sum::<usize>(), total, "{total}");
            assert!(
                parts.iter().all(|&p| (2..=MAX_BLOCK).contains(&p)),
                "{total}: {parts:?}"
            );
        }
    }
}
