//! Real, small, valid media files stamped with a per-run nonce.
//!
//! A witness host recognises the bytes it received by the stamp text
//! `mmconform-nonce:<nonce>`, which each generator puts in a format-legal place
//! (PNG `tEXt`, JPEG `COM`, a GIF comment extension, WEBP XMP, WAV `LIST/INFO`, MP3 ID3v2 `COMM`, a PDF
//! page's text, an MP4 `free` box). Boundary cases for a host's
//! `maxBytesPerPart` need a valid file of an *exact* size, so every generator
//! can also pad to any length from its minimum upward.
//!
//! Pictures, sounds and PDFs also carry the nonce in their content ([`content`]):
//! pictures show it as a grid of cells, sounds play it as tones, PDFs print it as page
//! text, so a host that re-encodes, scales or resamples a file still delivers a
//! recognisable copy. Pictures are drawn and encoded here (the `image` crate); WAV and
//! PDF are written directly; MP3 is assembled from LAME-encoded frames and MP4 is a
//! tiny fixture, both embedded with `include_bytes!` so building and testing need no
//! tools (see `fixtures/README.md`).
//!
//! [`find_stamps`] reads the metadata nonces back out of any bytes,
//! [`content::read`] the content stamp of a decoded picture or sound, and
//! [`sniff_mime`] names a file's format from its signature, for the witness that
//! receives them.
//!
//! Nonces are expected to be short ASCII (e.g. 16 hex digits); the generators
//! escape them where a format requires it, but do not split them, so a nonce of
//! many kilobytes is out of scope.

pub mod content;
mod gif;
mod jpeg;
mod mp3;
mod mp4;
mod opaque;
mod pdf;
mod picture;
mod png;
mod riff;
mod sniff;
mod stamps;
pub mod transform;
mod wav;
mod webp;

pub use sniff::{canonical_mime, has_signature, sniff_mime};
pub use stamps::{MAX_STAMPS, MAX_TOKEN, StampScanner};

#[cfg(test)]
mod check;

/// Why a file of the requested shape cannot be produced.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MediaError {
    #[error(
        "cannot make a valid {mime} file of {requested} bytes: the smallest one is {min} bytes"
    )]
    TooSmall {
        mime: String,
        requested: usize,
        min: usize,
    },
}

/// The formats with a real generator; everything else is opaque bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Png,
    Jpeg,
    Gif,
    Webp,
    Wav,
    Mp3,
    Pdf,
    Mp4,
    Opaque,
}

impl Kind {
    /// Maps a MIME type (case-insensitive, parameters ignored) to a generator,
    /// so `audio/WAV; codecs=1` still gets a real WAV.
    fn of(mime: &str) -> Kind {
        let essence = mime.split(';').next().unwrap_or("").trim();
        match essence.to_ascii_lowercase().as_str() {
            "image/png" => Kind::Png,
            "image/jpeg" | "image/jpg" => Kind::Jpeg,
            "image/gif" => Kind::Gif,
            "image/webp" => Kind::Webp,
            "audio/wav" | "audio/x-wav" | "audio/wave" => Kind::Wav,
            "audio/mpeg" | "audio/mp3" => Kind::Mp3,
            "application/pdf" => Kind::Pdf,
            "video/mp4" => Kind::Mp4,
            _ => Kind::Opaque,
        }
    }

    fn min_size(self, nonce: &str) -> usize {
        match self {
            Kind::Png => png::min_size(nonce),
            Kind::Jpeg => jpeg::min_size(nonce),
            Kind::Gif => gif::min_size(nonce),
            Kind::Webp => webp::min_size(nonce),
            Kind::Wav => wav::min_size(nonce),
            Kind::Mp3 => mp3::min_size(nonce),
            Kind::Pdf => pdf::min_size(nonce),
            Kind::Mp4 => mp4::min_size(nonce),
            Kind::Opaque => opaque::min_size(nonce),
        }
    }

    /// Builds a file of exactly `size` bytes; callers guarantee `size >= min_size`.
    fn build(self, nonce: &str, size: usize) -> Vec<u8> {
        match self {
            Kind::Png => png::build(nonce, size),
            Kind::Jpeg => jpeg::build(nonce, size),
            Kind::Gif => gif::build(nonce, size),
            Kind::Webp => webp::build(nonce, size),
            Kind::Wav => wav::build(nonce, size),
            Kind::Mp3 => mp3::build(nonce, size),
            Kind::Pdf => pdf::build(nonce, size),
            Kind::Mp4 => mp4::build(nonce, size),
            Kind::Opaque => opaque::build(nonce, size),
        }
    }
}

/// The lowercase `type/subtype` part of a MIME string, parameters dropped (MIME types
/// are case-insensitive, RFC 2045 §5.1). Not checked to be well formed.
pub fn mime_essence(mime: &str) -> String {
    mime.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Default MIME type for a content-part type: image -> image/png, audio -> audio/wav,
/// document -> application/pdf, video -> video/mp4, anything else -> application/octet-stream.
pub fn default_mime(part_type: &str) -> &'static str {
    match part_type {
        "image" => "image/png",
        "audio" => "audio/wav",
        "document" => "application/pdf",
        "video" => "video/mp4",
        _ => "application/octet-stream",
    }
}

/// MIME types with a real generator (png, jpeg, webp, wav, mpeg, pdf, mp4, gif); others fall back to opaque bytes.
pub fn supported_mimes() -> &'static [&'static str] {
    &[
        "image/png",
        "image/jpeg",
        "image/webp",
        "audio/wav",
        "audio/mpeg",
        "application/pdf",
        "video/mp4",
        "image/gif",
    ]
}

/// The smallest valid file of this MIME type carrying `nonce` somewhere in its bytes (metadata/comment/text).
pub fn generate(mime: &str, nonce: &str) -> Vec<u8> {
    let kind = Kind::of(mime);
    kind.build(nonce, kind.min_size(nonce))
}

/// A valid file of exactly `size` bytes carrying `nonce`. Err(MediaError::TooSmall{min}) if size < the minimum possible.
///
/// RIFF files (WAV, WEBP) are word-aligned, so an odd size is reached with one
/// zero byte after the RIFF form, which RIFF readers stop before.
///
/// # Panics
/// For WAV and WEBP above 4 GiB, which RIFF's 32-bit sizes cannot describe.
pub fn generate_sized(mime: &str, nonce: &str, size: usize) -> Result<Vec<u8>, MediaError> {
    let kind = Kind::of(mime);
    let min = kind.min_size(nonce);
    if size < min {
        return Err(MediaError::TooSmall {
            mime: mime.to_string(),
            requested: size,
            min,
        });
    }
    Ok(kind.build(nonce, size))
}

/// True when `bytes` contain the nonce stamp (a plain substring search is fine).
///
/// Opaque bytes carry the nonce in their own header line, so that form counts too.
pub fn contains_nonce(bytes: &[u8], nonce: &str) -> bool {
    find(bytes, stamp(nonce).as_bytes()) || find(bytes, opaque::header(nonce).trim_end().as_bytes())
}

/// Every nonce stamped in `bytes`, whatever it is: distinct, in order of first
/// appearance, at most [`MAX_STAMPS`] (see [`StampScanner`] for reading in pieces).
///
/// The inverse of the generators: `find_stamps(&generate(mime, n)) == [n]` for every
/// MIME type, opaque ones included.
pub fn find_stamps(bytes: &[u8]) -> Vec<String> {
    let mut scanner = StampScanner::new();
    scanner.feed(bytes);
    scanner.finish()
}

/// The text every real generator embeds.
fn stamp(nonce: &str) -> String {
    format!("mmconform-nonce:{nonce}")
}

/// Substring search that only compares where the first byte matches, so a
/// 32 MiB file of padding is scanned in one linear pass.
fn find(haystack: &[u8], needle: &[u8]) -> bool {
    let Some((&first, _)) = needle.split_first() else {
        return true;
    };
    if haystack.len() < needle.len() {
        return false;
    }
    let last_start = haystack.len() - needle.len();
    haystack[..=last_start]
        .iter()
        .enumerate()
        .any(|(i, &b)| b == first && &haystack[i..i + needle.len()] == needle)
}

/// Printable filler for text-like padding (comments, free boxes, opaque bytes):
/// readable in a hex dump, and free of bytes that need escaping anywhere. It
/// starts with a space so the stamp it follows stays a separate word.
const FILLER: &[u8] = b" mmconform padding 0123456789 abcdefghijklmnopqrstuvwxyz";

/// Appends `n` bytes of `pattern` repeated, copying whole patterns at a time.
fn fill(buf: &mut Vec<u8>, pattern: &[u8], n: usize) {
    buf.reserve(n);
    let mut left = n;
    while left >= pattern.len() {
        buf.extend_from_slice(pattern);
        left -= pattern.len();
    }
    buf.extend_from_slice(&pattern[..left]);
}

/// Splits `total` bytes into the fewest pieces of at most `max` bytes, as
/// evenly as possible. With two or more pieces each is over `max / 2`, which is
/// what lets callers rely on every piece having room for a header and a stamp.
fn split_even(total: usize, max: usize) -> impl Iterator<Item = usize> {
    let count = total.div_ceil(max).max(1);
    let (base, extra) = (total / count, total % count);
    (0..count).map(move |i| base + usize::from(i < extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: &str = "0123456789abcdef";

    #[test]
    fn default_mime_maps_part_types() {
        assert_eq!(default_mime("image"), "image/png");
        assert_eq!(default_mime("audio"), "audio/wav");
        assert_eq!(default_mime("document"), "application/pdf");
        assert_eq!(default_mime("video"), "video/mp4");
        assert_eq!(default_mime("text"), "application/octet-stream");
        assert_eq!(default_mime(""), "application/octet-stream");
    }

    #[test]
    fn supported_mimes_have_real_generators() {
        for mime in supported_mimes() {
            assert_ne!(Kind::of(mime), Kind::Opaque, "{mime}");
        }
        assert_eq!(supported_mimes().len(), 8);
    }

    #[test]
    fn aliases_map_to_the_same_generator() {
        for (alias, canonical) in [
            ("audio/x-wav", "audio/wav"),
            ("audio/wave", "audio/wav"),
            ("audio/mp3", "audio/mpeg"),
            ("image/jpg", "image/jpeg"),
            ("IMAGE/PNG", "image/png"),
            ("audio/wav; codecs=1", "audio/wav"),
        ] {
            assert_eq!(Kind::of(alias), Kind::of(canonical), "{alias}");
            assert_eq!(
                generate(alias, NONCE),
                generate(canonical, NONCE),
                "{alias}"
            );
            assert_eq!(
                generate_sized(alias, NONCE, 30_000),
                generate_sized(canonical, NONCE, 30_000)
            );
        }
    }

    #[test]
    fn unknown_mimes_are_opaque() {
        for mime in ["application/x-made-up", "text/plain", "video/webm", ""] {
            let bytes = generate(mime, NONCE);
            assert_eq!(bytes, b"mmconform-media nonce=0123456789abcdef\n");
            assert!(contains_nonce(&bytes, NONCE));
        }
    }

    #[test]
    fn every_format_carries_the_nonce_and_rejects_too_small() {
        let mut all = supported_mimes().to_vec();
        all.push("application/octet-stream");
        for mime in all {
            let min_file = generate(mime, NONCE);
            let min = min_file.len();
            assert!(contains_nonce(&min_file, NONCE), "{mime}");
            assert!(!contains_nonce(&min_file, "fedcba9876543210"), "{mime}");
            assert_eq!(
                generate_sized(mime, NONCE, min).as_deref(),
                Ok(&min_file[..])
            );
            assert_eq!(
                generate_sized(mime, NONCE, min - 1),
                Err(MediaError::TooSmall {
                    mime: mime.to_string(),
                    requested: min - 1,
                    min
                })
            );
            assert!(generate_sized(mime, NONCE, 0).is_err());
        }
    }

    #[test]
    fn every_format_reaches_32_mib_exactly() {
        let mut all = supported_mimes().to_vec();
        all.push("application/octet-stream");
        for mime in all {
            for size in [32 << 20, (32 << 20) + 1] {
                let bytes = generate_sized(mime, NONCE, size).unwrap();
                assert_eq!(bytes.len(), size, "{mime}");
                assert!(contains_nonce(&bytes, NONCE), "{mime}");
                check::structure(mime, &bytes).unwrap_or_else(|e| panic!("{mime} {size}: {e}"));
            }
        }
    }

    #[test]
    fn too_small_message_names_the_minimum() {
        let err = generate_sized("image/png", NONCE, 3).unwrap_err();
        let min = generate("image/png", NONCE).len();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot make a valid image/png file of 3 bytes: the smallest one is {min} bytes"
            )
        );
    }

    #[test]
    fn find_is_a_plain_substring_search() {
        assert!(find(b"abcabd", b"abd"));
        assert!(!find(b"abcab", b"abd"));
        assert!(find(b"x", b""));
        assert!(!find(b"", b"a"));
        assert!(find(b"a", b"a"));
    }

    #[test]
    fn fill_and_split_are_exact() {
        let mut v = Vec::new();
        fill(&mut v, b"abc", 7);
        assert_eq!(v, b"abcabca");
        for (total, max) in [(0, 5), (5, 5), (6, 5), (11, 5), (131_075, 65_537)] {
            let parts: Vec<usize> = split_even(total, max).collect();
            assert_eq!(parts.iter().sum::<usize>(), total);
            assert!(parts.iter().all(|&p| p <= max));
            assert_eq!(parts.len(), total.div_ceil(max).max(1));
        }
    }
}
