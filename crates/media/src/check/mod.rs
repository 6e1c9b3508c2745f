//! Test-only structural checkers: small parsers that walk each format the way a
//! decoder would, so a size sweep proves the padding never breaks framing.
//! Real decoders were run on sample output by hand (see crates/media/fixtures/README.md).

mod av;
mod image;
mod pdf;
mod riff;

pub use av::{mp3, mp4, mpeg_frames};
pub use image::{gif, jpeg, png};
pub use pdf::pdf;
pub use riff::{wav, webp};

use super::{contains_nonce, generate, generate_sized};

pub type Checked<T> = Result<T, String>;

const NONCE: &str = "0123456789abcdef";

/// Sizes every generator must hit exactly: the smallest few, then values around
/// the 16-bit boundaries that JPEG segments and typical limits sit on.
pub fn sweep(mime: &str, check: impl Fn(&[u8]) -> Checked<()>) {
    let min = generate(mime, NONCE).len();
    let fixed = [
        1000,
        4096,
        65_535,
        65_536,
        65_537,
        70_001,
        131_074,
        131_075,
        200_003,
        1 << 20,
    ];
    let sizes = (min..min + 4).chain(fixed.into_iter().filter(|&s| s >= min + 4));
    for size in sizes {
        let bytes = generate_sized(mime, NONCE, size).unwrap();
        assert_eq!(bytes.len(), size, "{mime} size");
        assert!(contains_nonce(&bytes, NONCE), "{mime} {size}: no nonce");
        if let Err(e) = check(&bytes) {
            panic!("{mime} {size}: {e}");
        }
    }
}

/// The checker for a MIME type, for tests that loop over all formats.
pub fn structure(mime: &str, b: &[u8]) -> Checked<()> {
    match mime {
        "image/png" => png(b).map(drop),
        "image/jpeg" => jpeg(b).map(drop),
        "image/gif" => gif(b).map(drop),
        "image/webp" => webp(b).map(drop),
        "audio/wav" => wav(b).map(drop),
        "audio/mpeg" => mp3(b).map(drop),
        "application/pdf" => pdf(b).map(drop),
        "video/mp4" => mp4(b).map(drop),
        _ => Ok(()),
    }
}

pub(super) fn be32(b: &[u8], at: usize) -> Checked<usize> {
    let bytes = b.get(at..at + 4).ok_or(format!("truncated at {at}"))?;
    Ok(u32::from_be_bytes(bytes.try_into().unwrap()) as usize)
}

pub(super) fn le32(b: &[u8], at: usize) -> Checked<usize> {
    let bytes = b.get(at..at + 4).ok_or(format!("truncated at {at}"))?;
    Ok(u32::from_le_bytes(bytes.try_into().unwrap()) as usize)
}

pub(super) fn fourcc(b: &[u8], at: usize) -> Checked<[u8; 4]> {
    let bytes = b.get(at..at + 4).ok_or(format!("truncated at {at}"))?;
    Ok(bytes.try_into().unwrap())
}

/// The checkers must be able to fail, or the sweeps prove nothing.
#[cfg(test)]
mod tests {
    use super::*;

    fn sample(mime: &str) -> Vec<u8> {
        generate_sized(mime, NONCE, 30_000).unwrap()
    }

    fn broken(mime: &str, edit: impl FnOnce(&mut Vec<u8>)) -> Checked<()> {
        let mut bytes = sample(mime);
        assert_eq!(structure(mime, &bytes), Ok(()), "{mime} sample");
        edit(&mut bytes);
        structure(mime, &bytes)
    }

    #[test]
    fn checkers_reject_corruption() {
        let flip_last = |b: &mut Vec<u8>| *b.last_mut().unwrap() ^= 1;
        let trailing = |b: &mut Vec<u8>| b.extend_from_slice(&[0, 0]);
        assert!(broken("image/png", |b| b[100] ^= 1).is_err(), "CRC");
        assert!(broken("image/png", trailing).is_err());
        assert!(broken("image/jpeg", flip_last).is_err(), "EOI");
        assert!(broken("image/jpeg", |b| b[23] ^= 1).is_err(), "COM length");
        assert!(broken("image/webp", |b| b[20] = 0).is_err(), "XMP flag");
        assert!(broken("image/webp", trailing).is_err());
        assert!(broken("audio/wav", |b| b[4] += 2).is_err(), "RIFF size");
        assert!(broken("audio/wav", |b| b[40] ^= 2).is_err(), "data size");
        assert!(broken("audio/mpeg", |b| b[9] ^= 1).is_err(), "tag size");
        assert!(broken("audio/mpeg", |b| b.truncate(b.len() - 1)).is_err());
        assert!(
            broken("application/pdf", |b| {
                let n = b.len();
                b[n - 8] ^= 1;
            })
            .is_err(),
            "startxref"
        );
        assert!(
            broken("application/pdf", |b| b.insert(20, b' ')).is_err(),
            "offsets"
        );
        assert!(broken("video/mp4", |b| b.push(0)).is_err());
        assert!(broken("video/mp4", |b| b[3] ^= 4).is_err(), "ftyp size");
    }

    #[test]
    fn riff_allows_exactly_one_trailing_zero_on_odd_files() {
        let even = generate_sized("audio/wav", NONCE, 30_000).unwrap();
        let odd = generate_sized("audio/wav", NONCE, 30_001).unwrap();
        assert_eq!(&odd[..30_000], &even[..]);
        assert_eq!(odd[30_000], 0);
        assert!(wav(&odd).is_ok());
        let mut bad = odd.clone();
        bad[30_000] = 1;
        assert!(wav(&bad).is_err());
    }
}
