//! MP4: a real one-frame 16x16 H.264 movie (made by ffmpeg) followed by a
//! top-level `free` box holding the stamp.
//!
//! Appending after the last box leaves every absolute offset (the `stco`
//! chunk offsets into `mdat`) untouched, and `free` boxes are skipped by every
//! ISO-BMFF reader. The box's payload is the padding; past 4 GiB it switches to
//! the 64-bit `largesize` form.

use super::{FILLER, fill, stamp};

const BASE: &[u8] = include_bytes!("../fixtures/base.mp4");
const HEADER: usize = 8;
/// Size 1 + type + 64-bit largesize.
const LARGE_HEADER: usize = 16;

pub(super) fn min_size(nonce: &str) -> usize {
    BASE.len() + HEADER + stamp(nonce).len()
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(BASE);
    let box_len = size - BASE.len();
    let header = match u32::try_from(box_len) {
        Ok(len) => {
            out.extend_from_slice(&len.to_be_bytes());
            out.extend_from_slice(b"free");
            HEADER
        }
        Err(_) => {
            out.extend_from_slice(&1u32.to_be_bytes());
            out.extend_from_slice(b"free");
            out.extend_from_slice(&(box_len as u64).to_be_bytes());
            LARGE_HEADER
        }
    };
    let stamp = stamp(nonce);
    out.extend_from_slice(stamp.as_bytes());
    fill(&mut out, FILLER, box_len - header - stamp.len());
    out
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn fixture_is_a_faststart_movie() {
        let boxes = check::mp4(BASE).unwrap();
        assert_eq!(boxes, [*b"ftyp", *b"moov", *b"free", *b"mdat"]);
    }

    #[test]
    fn stamp_box_comes_last() {
        let bytes = super::super::generate("video/mp4", "0123456789abcdef");
        let boxes = check::mp4(&bytes).unwrap();
        assert_eq!(boxes.last(), Some(b"free"));
        assert_eq!(boxes.len(), 5);
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("video/mp4", |b| check::mp4(b).map(drop));
    }
}
