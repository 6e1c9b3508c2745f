//! MP3: six MPEG-1 Layer III frames (32 kHz mono, 32 kbit/s, made by LAME)
//! behind an ID3v2.3 tag whose `COMM` frame holds the stamp.
//!
//! Six frames rather than one: decoders lose a frame or so to priming, and
//! speech APIs commonly reject audio under 0.1 s, so this keeps ~0.18 s.
//!
//! ID3v2 padding (zero bytes after the last frame, counted in the tag size)
//! sizes the file. A tag is at most 2^28-1 bytes (28-bit syncsafe size), so
//! past that several tags are stacked, each with its own `COMM`, which
//! readers such as ffmpeg skip one after another.

use super::{split_even, stamp};

const AUDIO: &[u8] = include_bytes!("../fixtures/base.mp3");
const TAG_HEADER: usize = 10;
const FRAME_HEADER: usize = 10;
/// Text encoding byte (ISO-8859-1), language, and an empty NUL-terminated description.
const COMM_PREFIX: &[u8] = b"\0eng\0";
/// The syncsafe size field has 28 usable bits.
const MAX_TAG_BODY: usize = (1 << 28) - 1;

fn tag_min(nonce: &str) -> usize {
    TAG_HEADER + FRAME_HEADER + COMM_PREFIX.len() + stamp(nonce).len()
}

pub(super) fn min_size(nonce: &str) -> usize {
    tag_min(nonce) + AUDIO.len()
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    build_with_max(nonce, size, MAX_TAG_BODY)
}

/// `max_body` is a parameter only so tests can exercise stacked tags cheaply.
fn build_with_max(nonce: &str, size: usize, max_body: usize) -> Vec<u8> {
    let stamp = stamp(nonce);
    let frame_len = COMM_PREFIX.len() + stamp.len();
    let mut out = Vec::with_capacity(size);
    // Splitting evenly keeps each stacked tag over half the maximum, far more
    // than the one frame it must hold.
    for tag_len in split_even(size - AUDIO.len(), TAG_HEADER + max_body) {
        let body = tag_len - TAG_HEADER;
        out.extend_from_slice(b"ID3\x03\x00\x00");
        out.extend_from_slice(&syncsafe(body));
        out.extend_from_slice(b"COMM");
        // ID3v2.3 frame sizes are plain big-endian (v2.4 made them syncsafe).
        out.extend_from_slice(&u32::try_from(frame_len).expect("short nonce").to_be_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(COMM_PREFIX);
        out.extend_from_slice(stamp.as_bytes());
        // ID3v2 padding must be zero bytes.
        out.resize(out.len() + body - FRAME_HEADER - frame_len, 0);
    }
    out.extend_from_slice(AUDIO);
    out
}

/// Seven bits per byte, so no byte of the size can look like an MPEG sync.
fn syncsafe(n: usize) -> [u8; 4] {
    debug_assert!(n <= MAX_TAG_BODY);
    [21, 14, 7, 0].map(|shift| u8::try_from(n >> shift & 0x7F).expect("masked to 7 bits"))
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn fixture_is_whole_mpeg_frames() {
        assert_eq!(check::mpeg_frames(AUDIO), Ok(6));
    }

    #[test]
    fn syncsafe_uses_seven_bits_per_byte() {
        assert_eq!(syncsafe(0), [0, 0, 0, 0]);
        assert_eq!(syncsafe(0x80), [0, 0, 1, 0]);
        assert_eq!(syncsafe(MAX_TAG_BODY), [0x7F; 4]);
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("audio/mpeg", |b| check::mp3(b).map(drop));
    }

    #[test]
    fn tags_stack_past_the_tag_limit() {
        let nonce = "0123456789abcdef";
        let min = min_size(nonce);
        for (size, tags) in [(min + 100, 2), (min + 1000, 10), (AUDIO.len() + 2 * 110, 2)] {
            let bytes = build_with_max(nonce, size, 100);
            assert_eq!(bytes.len(), size);
            assert_eq!(check::mp3(&bytes), Ok(tags), "size {size}");
        }
    }
}
