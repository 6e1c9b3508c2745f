//! The stamped picture ([`crate::content::pixels`]) encoded in each image format, as
//! the bare file the format's generator then stamps in metadata and pads.
//!
//! Every encoder is deterministic, so the same nonce always gives the same bytes (a
//! case's sent parts are generated again to be compared with what arrived). Encoding
//! is most of a medium's cost (a PNG's deflate at its best compression) and a run asks
//! for the same picture several times (its minimum size, the file, the copy a sent part
//! is compared with), so the last few encodings are kept ([`remembered`]).

use crate::content::pixels;
use image::ImageEncoder as _;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::codecs::webp::WebPEncoder;
use image::{ExtendedColorType, RgbImage};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Quality of the generated JPEG: its cells fill whole 8x8 blocks, so any quality is
/// exact; a high one keeps the blocks' edges clean for a re-encoder.
const JPEG_QUALITY: u8 = 90;

fn drawn(nonce: &str) -> RgbImage {
    pixels::draw(nonce)
}

/// How many encodings [`remembered`] keeps: a run's cases in flight at once (`-j`), each
/// with a few formats.
const REMEMBERED: usize = 64;

/// `encode(nonce)` for `format`, from the last [`REMEMBERED`] encodings when it is one of
/// them. The lock is never held while encoding.
fn remembered(format: &'static str, nonce: &str, encode: fn(&str) -> Vec<u8>) -> Vec<u8> {
    type Kept = VecDeque<(&'static str, String, Arc<[u8]>)>;
    static KEPT: Mutex<Kept> = Mutex::new(VecDeque::new());
    let found = |kept: &Kept| {
        kept.iter()
            .find(|(f, n, _)| *f == format && n == nonce)
            .map(|(_, _, bytes)| bytes.to_vec())
    };
    if let Some(bytes) = found(&KEPT.lock().unwrap_or_else(|e| e.into_inner())) {
        return bytes;
    }
    let bytes = encode(nonce);
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if found(&kept).is_none() {
        if kept.len() == REMEMBERED {
            kept.pop_front();
        }
        kept.push_back((format, nonce.to_string(), Arc::from(bytes.as_slice())));
    }
    bytes
}

/// An 8-bit RGB PNG: `IHDR`, `IDAT`, `IEND`.
pub fn png(nonce: &str) -> Vec<u8> {
    remembered("png", nonce, encode_png)
}

fn encode_png(nonce: &str) -> Vec<u8> {
    let image = drawn(nonce);
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Best, FilterType::Adaptive)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            ExtendedColorType::Rgb8,
        )
        .expect("a small picture always encodes");
    out
}

/// A colour baseline JFIF.
pub fn jpeg(nonce: &str) -> Vec<u8> {
    remembered("jpeg", nonce, encode_jpeg)
}

fn encode_jpeg(nonce: &str) -> Vec<u8> {
    let image = drawn(nonce);
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            ExtendedColorType::Rgb8,
        )
        .expect("a small picture always encodes");
    out
}

/// A lossless WEBP in the simple format (`RIFF WEBP VP8L`).
pub fn webp(nonce: &str) -> Vec<u8> {
    remembered("webp", nonce, encode_webp)
}

fn encode_webp(nonce: &str) -> Vec<u8> {
    let image = drawn(nonce);
    let mut out = Vec::new();
    WebPEncoder::new_lossless(&mut out)
        .write_image(
            image.as_raw(),
            image.width(),
            image.height(),
            ExtendedColorType::Rgb8,
        )
        .expect("a small picture always encodes");
    out
}

/// A GIF89a with the two colours as its global table, split where a comment may go: after the
/// table, before the frame (its control extension, descriptor and data, the trailer).
pub fn gif(nonce: &str) -> (Vec<u8>, Vec<u8>) {
    let image = drawn(nonce);
    let side = u16::try_from(image.width()).expect("a small picture");
    let indices: Vec<u8> = image
        .pixels()
        .map(|p| u8::from(*p == pixels::LIGHT))
        .collect();
    let [dark, light] = [pixels::DARK.0, pixels::LIGHT.0];
    let palette = [dark, light].concat();
    let mut out = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, side, side, &palette).expect("writing to memory");
        encoder
            .write_frame(&gif::Frame::from_indexed_pixels(side, side, indices, None))
            .expect("writing to memory");
    }
    // Header (6) and logical screen (7), whose flags give the global table's size.
    let table = 3 << ((out[10] & 0x07) + 1);
    let tail = out.split_off(13 + table);
    (out, tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_encoding_is_the_encoding() {
        for nonce in ["0123456789abcdef-p1", "0123456789abcdef-p2"] {
            assert_eq!(png(nonce), encode_png(nonce));
            assert_eq!(png(nonce), encode_png(nonce), "{nonce}, asked again");
            assert_eq!(jpeg(nonce), encode_jpeg(nonce));
            assert_eq!(webp(nonce), encode_webp(nonce));
        }
        assert_ne!(png("0123456789abcdef-p1"), png("0123456789abcdef-p2"));
    }
}
