//! WAV: PCM written directly: the tone stamp ([`crate::content::tones`]), 1.5 s at
//! 8 kHz, with the stamp also as the `LIST/INFO` comment (`ICMT`).
//!
//! `fmt ` and `data` come first, giving the canonical 44-byte header that
//! naive readers assume; metadata and padding follow the samples, where
//! ffmpeg, sox and libsndfile all look for (or skip) extra chunks. Padding is
//! a `JUNK` chunk rather than more samples, so a large file still holds
//! the same sound and a host's byte limit is tested apart from any duration
//! limit.

use super::{riff, stamp};
use crate::content::tones;

const SAMPLE_RATE: u32 = 8_000;
const CHANNELS: u16 = 1;
const BITS: u16 = 16;
/// Samples of the tone stamp at 8 kHz (the same for every nonce).
const SAMPLES: usize = 12_288;
const DATA_LEN: usize = SAMPLES * (BITS as usize / 8) * CHANNELS as usize;
const FMT_LEN: usize = 16;
/// `JUNK` needs its own 8-byte header, so smaller growth goes into the comment.
const JUNK_MIN: usize = 8;

/// `ICMT` holds the stamp as a NUL-terminated string.
fn comment_min(nonce: &str) -> usize {
    stamp(nonce).len() + 1
}

/// RIFF header, `fmt `, `data`, and `LIST` with an `INFO` of one `ICMT`,
/// for a comment of `comment_len` bytes (plus its pad byte when odd).
fn span(comment_len: usize) -> usize {
    12 + riff::chunk_span(FMT_LEN)
        + riff::chunk_span(DATA_LEN)
        + 8
        + 4
        + riff::chunk_span(comment_len)
}

pub(super) fn min_size(nonce: &str) -> usize {
    span(comment_min(nonce))
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let mut out = riff::start(b"WAVE", size);

    let block_align = CHANNELS * BITS / 8;
    riff::chunk_header(&mut out, b"fmt ", FMT_LEN);
    out.extend_from_slice(&1u16.to_le_bytes()); // WAVE_FORMAT_PCM
    out.extend_from_slice(&CHANNELS.to_le_bytes());
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(SAMPLE_RATE * u32::from(block_align)).to_le_bytes());
    out.extend_from_slice(&block_align.to_le_bytes());
    out.extend_from_slice(&BITS.to_le_bytes());

    riff::chunk_header(&mut out, b"data", DATA_LEN);
    let samples = tones::synthesize(nonce, SAMPLE_RATE);
    assert_eq!(samples.len(), SAMPLES);
    for sample in samples {
        let pcm = (sample * f64::from(i16::MAX)).round() as i16;
        out.extend_from_slice(&pcm.to_le_bytes());
    }

    // The form stays even (chunks are padded); `finish` supplies an odd last byte.
    let extra = size - size % 2 - min_size(nonce);
    let (comment_len, junk) = if extra >= JUNK_MIN {
        (comment_min(nonce), Some(extra - JUNK_MIN))
    } else {
        (comment_min(nonce) + extra, None)
    };
    let stamp = stamp(nonce);
    riff::chunk_header(&mut out, b"LIST", 4 + riff::chunk_span(comment_len));
    out.extend_from_slice(b"INFO");
    riff::chunk_header(&mut out, b"ICMT", comment_len);
    out.extend_from_slice(stamp.as_bytes());
    // Trailing spaces absorb the few bytes a `JUNK` chunk cannot.
    out.resize(out.len() + comment_len - 1 - stamp.len(), b' ');
    out.push(0);
    riff::pad(&mut out, comment_len);

    if let Some(junk_len) = junk {
        riff::chunk_header(&mut out, b"JUNK", junk_len);
        out.resize(out.len() + junk_len, 0);
    }
    riff::finish(out, size)
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn starts_with_the_canonical_44_byte_header() {
        let bytes = super::super::generate("audio/wav", "0123456789abcdef");
        let chunks = check::wav(&bytes).unwrap();
        let ids: Vec<&[u8; 4]> = chunks.iter().map(|(id, _)| id).collect();
        assert_eq!(ids, [b"fmt ", b"data", b"LIST"]);
        assert_eq!(&bytes[36..40], b"data");
        assert_eq!(&bytes[20..22], &[1, 0], "PCM");
        assert_eq!(&bytes[24..28], &8000u32.to_le_bytes());
    }

    #[test]
    fn the_tone_stamp_fills_the_samples() {
        assert_eq!(SAMPLES, tones::symbol_start(tones::SYMBOLS, SAMPLE_RATE));
    }

    #[test]
    fn small_growth_goes_into_the_comment_and_large_into_junk() {
        let nonce = "0123456789abcdef";
        let min = min_size(nonce);
        for (size, has_junk) in [
            (min + 6, false),
            (min + 7, false),
            (min + 8, true),
            (min + 10, true),
        ] {
            let bytes = build(nonce, size);
            let chunks = check::wav(&bytes).unwrap();
            let junk = chunks.iter().any(|(id, _)| id == b"JUNK");
            assert_eq!(junk, has_junk, "size {size}");
        }
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("audio/wav", |b| check::wav(b).map(drop));
    }
}
