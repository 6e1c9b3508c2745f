//! The stamped picture ([`crate::content::pixels`]) encoded in each image format, as
//! the bare file the format's generator then stamps in metadata and pads.
//!
//! Every encoder is deterministic, so the same nonce always gives the same bytes (a
//! case's sent parts are generated again to be compared with what arrived).

use crate::content::pixels;
use image::ImageEncoder as _;
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::codecs::webp::WebPEncoder;
use image::{ExtendedColorType, RgbImage};

/// Quality of the generated JPEG: its cells fill whole 8x8 blocks, so any quality is
/// exact; a high one keeps the blocks' edges clean for a re-encoder.
const JPEG_QUALITY: u8 = 90;

fn drawn(nonce: &str) -> RgbImage {
    pixels::draw(nonce)
}

/// An 8-bit RGB PNG: `IHDR`, `IDAT`, `IEND`.
pub fn png(nonce: &str) -> Vec<u8> {
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
