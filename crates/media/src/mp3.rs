//! MP3: the tone stamp ([`crate::content::tones`]) as MPEG-1 Layer III frames (48 kHz
//! mono, 32 kbit/s), behind an ID3v2.3 tag whose `COMM` frame holds the stamp too.
//!
//! There is no encoder here: `fixtures/tone-frames.mp3` holds, made once by LAME with
//! the bit reservoir off (so every frame decodes on its own), two consecutive frames
//! of silence and two of each of the 16 tones. A symbol lasts 48 ms, two 24 ms frames,
//! so the file is those pairs in the stamp's order (1.5 s). Where two pairs meet, the
//! decoder's overlap mixes one 12 ms granule of both; the reader reads each symbol's
//! central half, past it.
//!
//! ID3v2 padding (zero bytes after the last frame, counted in the tag size)
//! sizes the file. A tag is at most 2^28-1 bytes (28-bit syncsafe size), so
//! past that several tags are stacked, each with its own `COMM`, which
//! readers such as ffmpeg skip one after another.

use super::{split_even, stamp};

const TONE_FRAMES: &[u8] = include_bytes!("../fixtures/tone-frames.mp3");
/// Bytes of one frame at 48 kHz and 32 kbit/s (never padded at 48 kHz).
const FRAME: usize = 96;
/// Frames per symbol.
const PER_SYMBOL: usize = 2;
/// Bytes of the frames: the tone stamp is the same length for every nonce.
const AUDIO_LEN: usize = crate::content::tones::SYMBOLS * PER_SYMBOL * FRAME;

/// The stamp's frames: each symbol's pair (silence first in the fixture, then tone 0..15).
fn audio(nonce: &str) -> Vec<u8> {
    let pair = PER_SYMBOL * FRAME;
    crate::content::tones::symbols(nonce)
        .into_iter()
        .flat_map(|symbol| {
            let at = symbol.map_or(0, |tone| 1 + tone) * pair;
            TONE_FRAMES[at..at + pair].iter().copied()
        })
        .collect()
}
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
    tag_min(nonce) + AUDIO_LEN
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
    for tag_len in split_even(size - AUDIO_LEN, TAG_HEADER + max_body) {
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
    out.extend_from_slice(&audio(nonce));
    out
}

/// Seven bits per byte, so no byte of the size can look like an MPEG sync.
fn syncsafe(n: usize) -> [u8; 4] {
    assert!(n <= MAX_TAG_BODY);
    [21, 14, 7, 0].map(|shift| u8::try_from(n >> shift & 0x7F).expect("masked to 7 bits"))
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn the_fixture_and_the_stamp_are_whole_mpeg_frames() {
        assert_eq!(check::mpeg_frames(TONE_FRAMES), Ok(34));
        let audio = audio("0123456789abcdef-c1");
        assert_eq!(audio.len(), AUDIO_LEN);
        assert_eq!(check::mpeg_frames(&audio), Ok(64));
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
        for (size, tags) in [(min + 100, 2), (min + 1000, 10), (AUDIO_LEN + 2 * 110, 2)] {
            let bytes = build_with_max(nonce, size, 100);
            assert_eq!(bytes.len(), size);
            assert_eq!(check::mp3(&bytes), Ok(tags), "size {size}");
        }
    }
}
