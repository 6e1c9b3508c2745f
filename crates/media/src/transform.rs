//! What hosts do to media on the way to a model, for the reference hosts' forwarding
//! faults and the tests that show a content stamp survives them: re-encode a picture
//! in another format, scale it down, read a PDF's page text.
//!
//! Decoding is bounded like the witness's ([`crate::content::Bounds`]).

use crate::content::Bounds;
use image::{DynamicImage, ImageFormat, imageops::FilterType};
use std::io::Cursor;

fn decode(bytes: &[u8]) -> Result<DynamicImage, String> {
    let bounds = Bounds::default();
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(bounds.max_edge);
    limits.max_image_height = Some(bounds.max_edge);
    limits.max_alloc = Some(bounds.max_alloc);
    reader.limits(limits);
    reader.decode().map_err(|e| format!("not a picture: {e}"))
}

fn encode(picture: &DynamicImage, mime: &str) -> Result<Vec<u8>, String> {
    let format = match crate::mime_essence(mime).as_str() {
        "image/png" => ImageFormat::Png,
        "image/jpeg" | "image/jpg" => ImageFormat::Jpeg,
        "image/gif" => ImageFormat::Gif,
        "image/webp" => ImageFormat::WebP,
        other => return Err(format!("cannot encode a picture as {other}")),
    };
    let mut out = Vec::new();
    // JPEG has no alpha and WEBP is written lossless from RGB(A) 8-bit.
    let picture = DynamicImage::ImageRgb8(picture.to_rgb8());
    picture
        .write_to(&mut Cursor::new(&mut out), format)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// The same picture in format `to` (`image/png`, `image/jpeg`, `image/gif`,
/// `image/webp`), without its metadata.
pub fn reencode_image(bytes: &[u8], to: &str) -> Result<Vec<u8>, String> {
    encode(&decode(bytes)?, to)
}

/// The picture stretched to exactly `width` x `height` by repeating pixels (nearest
/// neighbour: cheap, and exact for whole multiples), in the format it came in,
/// without its metadata: a large picture that is still the same stamp.
pub fn stretch_image(bytes: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
    let mime = crate::sniff_mime(bytes).ok_or("not a picture")?;
    let picture = decode(bytes)?;
    encode(
        &picture.resize_exact(width, height, FilterType::Nearest),
        mime,
    )
}

/// The picture scaled to `percent` of its size (at least 1 pixel a side), in the
/// format it came in, without its metadata.
pub fn scale_image(bytes: &[u8], percent: u32) -> Result<Vec<u8>, String> {
    let mime = crate::sniff_mime(bytes).ok_or("not a picture")?;
    let picture = decode(bytes)?;
    let size = |n: u32| (u64::from(n) * u64::from(percent) / 100).clamp(1, 65_535) as u32;
    let scaled = picture.resize_exact(
        size(picture.width()),
        size(picture.height()),
        FilterType::Triangle,
    );
    encode(&scaled, mime)
}

/// The picture scaled down, keeping its proportions, so that its long edge is at most
/// `max_edge` pixels, in the format it came in, without its metadata; `None` when it
/// already fits (hosts resize only large pictures, and leave the others alone).
pub fn fit_image(bytes: &[u8], max_edge: u32) -> Result<Option<Vec<u8>>, String> {
    let mime = crate::sniff_mime(bytes).ok_or("not a picture")?;
    let picture = decode(bytes)?;
    let long = picture.width().max(picture.height());
    if long <= max_edge {
        return Ok(None);
    }
    let size = |n: u32| (u64::from(n) * u64::from(max_edge) / u64::from(long)).max(1) as u32;
    let scaled = picture.resize_exact(
        size(picture.width()),
        size(picture.height()),
        FilterType::Triangle,
    );
    encode(&scaled, mime).map(Some)
}

/// The text a PDF made by this crate shows on its page (the literal strings its
/// content stream shows with `Tj`), or `None` for any other PDF: what a host that
/// extracts a document's text hands its model. Not a general PDF reader.
pub fn page_text(pdf: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(pdf);
    let mut shown = Vec::new();
    for line in text.lines() {
        let Some(start) = line.find("BT ").and_then(|_| line.find('(')) else {
            continue;
        };
        let Some(end) = line.rfind(") Tj") else {
            continue;
        };
        let mut out = String::new();
        let mut escaped = false;
        for c in line[start + 1..end].chars() {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                _ => {
                    out.push(c);
                    escaped = false;
                }
            }
        }
        shown.push(out);
    }
    (!shown.is_empty()).then(|| shown.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{Content, read};

    const NONCE: &str = "5eed0123456789ab-c17";

    #[test]
    fn a_re_encoded_or_scaled_picture_keeps_its_content_stamp_and_loses_its_metadata() {
        let gif = crate::generate("image/gif", NONCE);
        for to in ["image/png", "image/jpeg", "image/gif", "image/webp"] {
            let out = reencode_image(&gif, to).unwrap();
            assert_eq!(crate::sniff_mime(&out), Some(to), "{to}");
            assert!(crate::find_stamps(&out).is_empty(), "{to}");
            let content = read(&out, &Bounds::default()).unwrap();
            assert_eq!(content.nonce(), Some(NONCE), "{to}");
        }
        let half = scale_image(&crate::generate("image/png", NONCE), 50).unwrap();
        assert_eq!(
            read(&half, &Bounds::default()),
            Ok(Content::Image {
                width: 52,
                height: 52,
                nonce: Some(NONCE.into())
            })
        );
        assert!(reencode_image(b"not a picture", "image/png").is_err());
        assert!(reencode_image(&gif, "image/bmp").is_err());
    }

    #[test]
    fn a_large_picture_fitted_to_a_long_edge_keeps_its_stamp_and_a_small_one_is_left_alone() {
        let small = crate::generate("image/png", NONCE);
        assert_eq!(fit_image(&small, 2000), Ok(None));
        let large = stretch_image(&small, 2080, 520).unwrap();
        for edge in [2000, 1568] {
            let fitted = fit_image(&large, edge).unwrap().unwrap();
            let content = read(&fitted, &Bounds::default()).unwrap();
            assert_eq!(content.nonce(), Some(NONCE), "{edge}");
            assert_eq!(
                content,
                Content::Image {
                    width: edge,
                    height: edge / 4,
                    nonce: Some(NONCE.into())
                }
            );
        }
        assert!(fit_image(b"not a picture", 2000).is_err());
    }

    #[test]
    fn the_page_text_of_a_generated_pdf_is_its_stamp() {
        let pdf = crate::generate_sized("application/pdf", "n(1)", 5000).unwrap();
        assert_eq!(page_text(&pdf).as_deref(), Some("mmconform-nonce:n(1)"));
        assert_eq!(page_text(b"%PDF-1.4\n%%EOF\n"), None);
    }
}
