//! Content stamps read back from every generated format, after the transformations
//! hosts make (re-encoding, lossy compression, scaling, greyscale, resampling), and
//! never read from what does not carry one.

use super::{Bounds, Content, read};
use image::imageops::FilterType;
use image::{DynamicImage, ImageEncoder as _, ImageFormat};
use std::io::Cursor;

const NONCE: &str = "5eed0123456789ab-c17";

fn nonce_of(bytes: &[u8]) -> Option<String> {
    read(bytes, &Bounds::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .nonce()
        .map(str::to_string)
}

fn encode(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    image.write_to(&mut Cursor::new(&mut out), format).unwrap();
    out
}

fn jpeg(image: &DynamicImage, quality: u8) -> Vec<u8> {
    let mut out = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality);
    image.write_with_encoder(encoder).unwrap();
    out
}

fn decoded(bytes: &[u8]) -> DynamicImage {
    image::load_from_memory(bytes).unwrap()
}

#[test]
fn every_generated_picture_and_sound_carries_its_nonce_in_its_content() {
    for mime in [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "audio/wav",
        "audio/mpeg",
    ] {
        let bytes = crate::generate(mime, NONCE);
        assert_eq!(nonce_of(&bytes).as_deref(), Some(NONCE), "{mime}");
        let padded = crate::generate_sized(mime, NONCE, 70_000).unwrap();
        assert_eq!(nonce_of(&padded).as_deref(), Some(NONCE), "{mime} padded");
    }
}

#[test]
fn the_pixel_stamp_survives_jpeg_at_quality_60_scaling_and_greyscale() {
    let png = decoded(&crate::generate("image/png", NONCE));
    let half = png.resize(png.width() / 2, png.height() / 2, FilterType::Triangle);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("png -> jpeg q60", jpeg(&png, 60)),
        ("png -> jpeg q30", jpeg(&png, 30)),
        ("50 %", encode(&half, ImageFormat::Png)),
        ("50 % -> jpeg q60", jpeg(&half, 60)),
        (
            "50 % nearest",
            encode(&png.resize(52, 52, FilterType::Nearest), ImageFormat::Png),
        ),
        (
            "max edge 64, lanczos",
            encode(&png.resize(64, 64, FilterType::Lanczos3), ImageFormat::Png),
        ),
        (
            "max edge 40",
            jpeg(&png.resize(40, 40, FilterType::CatmullRom), 75),
        ),
        (
            "up to 768",
            jpeg(&png.resize(768, 768, FilterType::Triangle), 60),
        ),
        ("greyscale", encode(&png.grayscale(), ImageFormat::Png)),
        ("greyscale jpeg q60", jpeg(&png.grayscale(), 60)),
        ("gif", encode(&png, ImageFormat::Gif)),
        ("webp lossless", encode(&png, ImageFormat::WebP)),
        ("rotated", encode(&png.rotate90(), ImageFormat::Png)),
    ];
    for (what, bytes) in cases {
        assert_eq!(nonce_of(&bytes).as_deref(), Some(NONCE), "{what}");
    }
}

#[test]
fn pictures_that_carry_no_stamp_read_as_none() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut noise = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 24) as u8
    };
    let pictures = [
        image::RgbImage::from_fn(104, 104, |_, _| image::Rgb([noise(), noise(), noise()])),
        image::RgbImage::from_fn(200, 150, |x, y| image::Rgb([x as u8, y as u8, 128])),
        // Blocks of the stamp's size and colours, at random: the marks or the CRC fail.
        image::RgbImage::from_fn(104, 104, |x, y| {
            let cell = (x / 8 * 31 + y / 8 * 17) ^ 0x5a;
            if cell.count_ones() % 2 == 0 {
                super::pixels::DARK
            } else {
                super::pixels::LIGHT
            }
        }),
        image::RgbImage::from_fn(64, 64, |x, y| {
            if (x / 8 + y / 8) % 2 == 0 {
                image::Rgb([0, 0, 0])
            } else {
                image::Rgb([255, 255, 255])
            }
        }),
    ];
    for (i, picture) in pictures.into_iter().enumerate() {
        let png = encode(&DynamicImage::ImageRgb8(picture), ImageFormat::Png);
        assert_eq!(nonce_of(&png), None, "picture {i}");
    }
    assert_eq!(
        nonce_of(&crate::generate("image/png", "not-a-run-nonce")),
        None
    );
}

#[test]
fn a_stamp_with_one_cell_flipped_is_no_stamp() {
    let mut image = decoded(&crate::generate("image/png", NONCE)).into_rgb8();
    // Cell (row 5, column 6) is a data cell: invert it.
    for y in 40..48 {
        for x in 48..56 {
            let p = image.get_pixel_mut(x, y);
            *p = if *p == super::pixels::DARK {
                super::pixels::LIGHT
            } else {
                super::pixels::DARK
            };
        }
    }
    let png = encode(&DynamicImage::ImageRgb8(image), ImageFormat::Png);
    assert_eq!(nonce_of(&png), None);
}

#[test]
fn sounds_that_carry_no_stamp_read_as_none() {
    assert_eq!(
        nonce_of(&crate::generate("audio/wav", "not-a-run-nonce")),
        None
    );
    assert_eq!(
        nonce_of(&crate::generate("audio/mpeg", "not-a-run-nonce")),
        None
    );
}

#[test]
fn what_is_read_says_what_it_is() {
    let png = crate::generate("image/png", NONCE);
    let side = super::pixels::SIDE;
    assert_eq!(
        read(&png, &Bounds::default()),
        Ok(Content::Image {
            width: side,
            height: side,
            nonce: Some(NONCE.into())
        })
    );
    match read(&crate::generate("audio/wav", NONCE), &Bounds::default()) {
        Ok(Content::Audio {
            rate: 8_000,
            channels: 1,
            millis: 1536,
            nonce: Some(n),
        }) => assert_eq!(n, NONCE),
        other => panic!("{other:?}"),
    }
    assert!(
        read(
            &crate::generate("application/pdf", NONCE),
            &Bounds::default()
        )
        .is_err()
    );
    assert!(read(b"", &Bounds::default()).is_err());
}

/// A file made by a real tool from a generated one (`fixtures/README.md` says how).
fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/fixtures/transformed/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The nonce the transformed fixtures were made from.
const FIXTURE_NONCE: &str = "5eed0123456789ab-c17";

#[test]
fn the_tone_stamp_survives_resampling_channel_mixing_and_real_mp3_encoders() {
    for (name, rate, channels) in [
        ("sox-44k1-stereo-to-16k-mono.wav", 16_000, 1),
        ("lame-44k1-stereo-48kbps.mp3", 22_050, 2),
        ("ffmpeg-mp3-to-16k-24kbps.mp3", 16_000, 1),
    ] {
        match read(&fixture(name), &Bounds::default()) {
            Ok(Content::Audio {
                rate: r,
                channels: c,
                nonce,
                ..
            }) => {
                assert_eq!((r, c), (rate, channels), "{name}");
                assert_eq!(nonce.as_deref(), Some(FIXTURE_NONCE), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn the_pixel_stamp_survives_a_real_lossy_webp_encoder() {
    assert_eq!(
        nonce_of(&fixture("cwebp-q50.webp")).as_deref(),
        Some(FIXTURE_NONCE)
    );
}

#[test]
fn the_tone_stamp_survives_resampling_here_too() {
    // 44.1 kHz stereo to 16 kHz mono by linear interpolation, the crudest resampler.
    let source = super::tones::synthesize(NONCE, 44_100);
    let ratio = 44_100.0 / 16_000.0;
    let resampled: Vec<f32> = (0..(source.len() as f64 / ratio) as usize - 1)
        .map(|i| {
            let at = i as f64 * ratio;
            let (n, frac) = (at as usize, at.fract());
            let left = source[n] * (1.0 - frac) + source[n + 1] * frac;
            let right = left * 0.5;
            ((left + right) / 2.0) as f32
        })
        .collect();
    assert_eq!(
        super::tones::read(&resampled, 16_000).as_deref(),
        Some(NONCE)
    );
}

#[test]
fn hostile_pictures_and_sounds_are_errors_within_bounds_never_panics() {
    let bounds = Bounds::default();
    // A decompression bomb: 6000x6000 of one grey, 36 MB decoded from a few kilobytes.
    let bomb = {
        let mut out = Vec::new();
        image::codecs::png::PngEncoder::new_with_quality(
            &mut out,
            image::codecs::png::CompressionType::Best,
            image::codecs::png::FilterType::NoFilter,
        )
        .write_image(
            &vec![7u8; 6000 * 6000],
            6000,
            6000,
            image::ExtendedColorType::L8,
        )
        .unwrap();
        out
    };
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let err = read(&bomb, &bounds).unwrap_err();
    assert!(err.contains("not decoded"), "{err}");
    // A huge declared size: the header is patched to 100000x100000 (CRC fixed up).
    let mut huge = crate::generate("image/png", NONCE);
    huge[16..24].copy_from_slice(&[0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0]);
    let crc = crc32fast::hash(&huge[12..29]);
    huge[29..33].copy_from_slice(&crc.to_be_bytes());
    assert!(read(&huge, &bounds).is_err());
    // Truncated files of every kind: an error or a picture without its stamp.
    for mime in [
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
        "audio/wav",
        "audio/mpeg",
    ] {
        let whole = crate::generate(mime, NONCE);
        for keep in [whole.len() / 2, whole.len() / 3, 40, 12] {
            let _ = read(&whole[..keep], &bounds);
        }
    }
    let mut garbage = crate::generate("image/jpeg", NONCE);
    for b in garbage.iter_mut().skip(700) {
        *b = b.wrapping_mul(31).wrapping_add(7);
    }
    let _ = read(&garbage, &bounds);
}
