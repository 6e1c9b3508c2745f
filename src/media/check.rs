//! Test-only structural checkers: small parsers that walk each format the way a
//! decoder would, so a size sweep proves the padding never breaks framing.
//! Real decoders were run on sample output by hand (see fixtures/media/README.md).

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
        "image/webp" => webp(b).map(drop),
        "audio/wav" => wav(b).map(drop),
        "audio/mpeg" => mp3(b).map(drop),
        "application/pdf" => pdf(b).map(drop),
        "video/mp4" => mp4(b).map(drop),
        _ => Ok(()),
    }
}

fn be32(b: &[u8], at: usize) -> Checked<usize> {
    let bytes = b.get(at..at + 4).ok_or(format!("truncated at {at}"))?;
    Ok(u32::from_be_bytes(bytes.try_into().unwrap()) as usize)
}

fn le32(b: &[u8], at: usize) -> Checked<usize> {
    let bytes = b.get(at..at + 4).ok_or(format!("truncated at {at}"))?;
    Ok(u32::from_le_bytes(bytes.try_into().unwrap()) as usize)
}

fn fourcc(b: &[u8], at: usize) -> Checked<[u8; 4]> {
    let bytes = b.get(at..at + 4).ok_or(format!("truncated at {at}"))?;
    Ok(bytes.try_into().unwrap())
}

/// Signature, then every chunk with a verified CRC, ending exactly with IEND.
pub fn png(b: &[u8]) -> Checked<Vec<[u8; 4]>> {
    if !b.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("no PNG signature".into());
    }
    let (mut at, mut chunks) = (8, Vec::new());
    loop {
        let len = be32(b, at)?;
        if len > (1 << 31) - 1 {
            return Err(format!("chunk length {len} over 2^31-1"));
        }
        let body = b.get(at + 4..at + 8 + len).ok_or("chunk past end")?;
        let crc = be32(b, at + 8 + len)?;
        if crc32fast::hash(body) as usize != crc {
            return Err(format!("bad CRC at {at}"));
        }
        let kind = fourcc(b, at + 4)?;
        if chunks.is_empty() && &kind != b"IHDR" {
            return Err("first chunk is not IHDR".into());
        }
        chunks.push(kind);
        at += 12 + len;
        if &kind == b"IEND" {
            return if at == b.len() {
                Ok(chunks)
            } else {
                Err("data after IEND".into())
            };
        }
    }
}

/// Markers from SOI to EOI (SOI itself left out), skipping entropy-coded data.
pub fn jpeg(b: &[u8]) -> Checked<Vec<u8>> {
    if !b.starts_with(&[0xFF, 0xD8]) {
        return Err("no SOI".into());
    }
    let (mut at, mut markers) = (2, Vec::new());
    loop {
        if b.get(at) != Some(&0xFF) {
            return Err(format!("expected a marker at {at}"));
        }
        while b.get(at + 1) == Some(&0xFF) {
            at += 1; // fill bytes
        }
        let marker = *b.get(at + 1).ok_or("truncated marker")?;
        markers.push(marker);
        if marker == 0xD9 {
            return if at + 2 == b.len() {
                Ok(markers)
            } else {
                Err("data after EOI".into())
            };
        }
        let len = usize::from(u16::from_be_bytes([
            *b.get(at + 2).ok_or("truncated length")?,
            *b.get(at + 3).ok_or("truncated length")?,
        ]));
        if len < 2 {
            return Err(format!("segment length {len} at {at}"));
        }
        at += 2 + len;
        if marker == 0xDA {
            // Entropy-coded data ends at the first 0xFF not followed by 0x00 or RSTn.
            loop {
                match (b.get(at), b.get(at + 1)) {
                    (Some(0xFF), Some(0x00 | 0xD0..=0xD7)) => at += 2,
                    (Some(0xFF), Some(_)) => break,
                    (Some(_), _) => at += 1,
                    (None, _) => return Err("no EOI".into()),
                }
            }
        }
    }
}

/// RIFF form walk: chunk sizes (pad bytes included) add up to the RIFF size
/// exactly, and the file is the form plus at most one trailing zero byte.
pub fn riff(b: &[u8], form: &[u8; 4]) -> Checked<Vec<([u8; 4], usize)>> {
    if !b.starts_with(b"RIFF") || b.get(8..12) != Some(form) {
        return Err("not a RIFF form of the expected type".into());
    }
    let end = 8 + le32(b, 4)?;
    match b.len() - end.min(b.len()) {
        0 => {}
        1 if b.len() % 2 == 1 && b[end] == 0 => {}
        _ => {
            return Err(format!(
                "RIFF size {} does not match file size {}",
                end - 8,
                b.len()
            ));
        }
    }
    let (mut at, mut chunks) = (12, Vec::new());
    while at < end {
        let id = fourcc(b, at)?;
        let len = le32(b, at + 4)?;
        let next = at + 8 + len + len % 2;
        if next > end {
            return Err(format!(
                "chunk {:?} overruns the form",
                String::from_utf8_lossy(&id)
            ));
        }
        if len % 2 == 1 && b[next - 1] != 0 {
            return Err("non-zero pad byte".into());
        }
        chunks.push((id, len));
        at = next;
    }
    Ok(chunks)
}

/// WAV: PCM `fmt ` with consistent rates, whole sample frames in `data`, and a
/// `LIST/INFO` whose sub-chunks add up.
pub fn wav(b: &[u8]) -> Checked<Vec<([u8; 4], usize)>> {
    let chunks = riff(b, b"WAVE")?;
    if chunks.first().map(|c| &c.0) != Some(b"fmt ") || chunks[0].1 != 16 {
        return Err("fmt chunk must come first with 16 bytes".into());
    }
    let field = |at: usize| usize::from(u16::from_le_bytes([b[at], b[at + 1]]));
    let (format, channels, rate) = (field(20), field(22), le32(b, 24)?);
    let (byte_rate, align, bits) = (le32(b, 28)?, field(32), field(34));
    if format != 1 || align != channels * bits / 8 || byte_rate != rate * align {
        return Err("inconsistent PCM fmt".into());
    }
    let data = chunks
        .iter()
        .find(|c| &c.0 == b"data")
        .ok_or("no data chunk")?;
    if data.1 == 0 || data.1 % align != 0 {
        return Err("data is not whole sample frames".into());
    }
    let mut at = 12;
    for (id, len) in &chunks {
        if id == b"LIST" {
            if b.get(at + 8..at + 12) != Some(b"INFO") {
                return Err("LIST is not INFO".into());
            }
            let (mut sub, end) = (at + 12, at + 8 + len);
            while sub < end {
                let sub_len = le32(b, sub + 4)?;
                sub += 8 + sub_len + sub_len % 2;
            }
            if sub != end {
                return Err("INFO sub-chunks do not add up".into());
            }
        }
        at += 8 + len + len % 2;
    }
    Ok(chunks)
}

/// WEBP: extended layout whose VP8X flags match the chunks present.
pub fn webp(b: &[u8]) -> Checked<Vec<([u8; 4], usize)>> {
    let chunks = riff(b, b"WEBP")?;
    let has = |id: &[u8; 4]| chunks.iter().any(|c| &c.0 == id);
    let images = chunks
        .iter()
        .filter(|c| &c.0 == b"VP8L" || &c.0 == b"VP8 ")
        .count();
    if images != 1 {
        return Err(format!("{images} image chunks"));
    }
    if chunks[0].0 != *b"VP8X" {
        return if chunks.len() == 1 {
            Ok(chunks)
        } else {
            Err("extra chunks need VP8X".into())
        };
    }
    if chunks[0].1 != 10 {
        return Err("VP8X must have 10 bytes".into());
    }
    let flags = b[20];
    for (bit, id) in [
        (0x20, b"ICCP"),
        (0x08, b"EXIF"),
        (0x04, b"XMP "),
        (0x02, b"ANIM"),
    ] {
        if (flags & bit != 0) != has(id) {
            return Err(format!("VP8X flag {bit:#x} disagrees with chunks"));
        }
    }
    if flags & 0xC1 != 0 || b[21..24] != [0, 0, 0] {
        return Err("reserved VP8X bits set".into());
    }
    Ok(chunks)
}

/// ID3v2 tags (stacked ones included) with well-formed frames and zero
/// padding, then MPEG audio frames starting right at the tag end. Returns the
/// number of tags.
pub fn mp3(b: &[u8]) -> Checked<usize> {
    let (mut at, mut tags) = (0, 0);
    while b[at..].starts_with(b"ID3") {
        let header = b.get(at..at + 10).ok_or("truncated ID3 header")?;
        if !matches!(header[3], 3 | 4) || header[5] != 0 || header[6..].iter().any(|&x| x >= 0x80) {
            return Err("bad ID3v2 header".into());
        }
        let size = header[6..].iter().fold(0, |n, &x| n << 7 | usize::from(x));
        let end = at + 10 + size;
        let mut frame = at + 10;
        while frame + 10 <= end && b[frame] != 0 {
            let id = fourcc(b, frame)?;
            if !id
                .iter()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            {
                return Err(format!("bad frame id at {frame}"));
            }
            frame += 10 + be32(b, frame + 4)?;
        }
        if frame > end
            || b.get(frame..end)
                .ok_or("tag past end")?
                .iter()
                .any(|&x| x != 0)
        {
            return Err("frames overrun the tag or padding is not zero".into());
        }
        (at, tags) = (end, tags + 1);
    }
    if b.get(at) != Some(&0xFF) || b.get(at + 1).is_none_or(|&x| x & 0xE0 != 0xE0) {
        return Err(format!("no MPEG frame sync at tag end {at}"));
    }
    mpeg_frames(&b[at..]).map(|_| tags)
}

/// Walks MPEG-1 Layer III frames to the exact end; returns the frame count.
pub fn mpeg_frames(b: &[u8]) -> Checked<usize> {
    const KBPS: [usize; 15] = [
        0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320,
    ];
    const RATES: [usize; 3] = [44_100, 48_000, 32_000];
    let (mut at, mut frames) = (0, 0);
    while at < b.len() {
        let h = be32(b, at)?;
        if h >> 21 != 0x7FF || h >> 17 & 0xF != 0b1101 {
            return Err(format!("not an MPEG-1 Layer III header at {at}"));
        }
        let kbps = *KBPS
            .get(h >> 12 & 0xF)
            .filter(|&&k| k > 0)
            .ok_or("bad bitrate")?;
        let rate = *RATES.get(h >> 10 & 3).ok_or("bad sample rate")?;
        at += 144_000 * kbps / rate + (h >> 9 & 1);
        frames += 1;
    }
    if at == b.len() {
        Ok(frames)
    } else {
        Err("last frame truncated".into())
    }
}

/// PDF: every xref offset points at its `N 0 obj`, `startxref` points at
/// `xref`, and each stream's /Length lands on `endstream`. Returns the object count.
pub fn pdf(b: &[u8]) -> Checked<usize> {
    let text = |from: usize, to: usize| String::from_utf8_lossy(&b[from..to]).into_owned();
    if !b.starts_with(b"%PDF-1.") || !b.ends_with(b"\n%%EOF\n") {
        return Err("missing %PDF header or %%EOF".into());
    }
    let tail = text(b.len().saturating_sub(64), b.len());
    let sx = tail.rfind("startxref\n").ok_or("no startxref")?;
    let xref: usize = tail[sx + 10..]
        .lines()
        .next()
        .unwrap()
        .parse()
        .map_err(|_| "startxref")?;
    if !b[xref..].starts_with(b"xref\n0 ") {
        return Err(format!("startxref {xref} does not point at xref"));
    }
    let head = text(xref, (xref + 32).min(b.len()));
    let count: usize = head[7..]
        .lines()
        .next()
        .unwrap()
        .parse()
        .map_err(|_| "xref count")?;
    let entries = xref + 7 + digits(count) + 1;
    for i in 0..count {
        let entry = text(entries + 20 * i, entries + 20 * i + 20);
        let offset: usize = entry[..10].parse().map_err(|_| "xref entry")?;
        if i == 0 {
            if &entry[10..] != " 65535 f \n" {
                return Err("bad free entry".into());
            }
            continue;
        }
        if &entry[10..] != " 00000 n \n"
            || !b[offset..].starts_with(format!("{i} 0 obj\n").as_bytes())
        {
            return Err(format!(
                "xref entry {i} ({offset}) does not point at its object"
            ));
        }
        let window = text(offset, (offset + 300).min(b.len()));
        let object = &window[..window.find("endobj").unwrap_or(window.len())];
        if let (Some(l), Some(s)) = (object.find("/Length "), object.find(">>\nstream\n")) {
            let len: usize = object[l + 8..s].trim().parse().map_err(|_| "bad /Length")?;
            if !b[offset + s + 10 + len..].starts_with(b"\nendstream\nendobj\n") {
                return Err(format!("object {i}: /Length does not end at endstream"));
            }
        }
    }
    let trailer = text(entries + 20 * count, b.len().min(entries + 20 * count + 64));
    if !trailer.starts_with(&format!("trailer\n<< /Size {count} /Root 1 0 R")) {
        return Err("bad trailer".into());
    }
    Ok(count - 1)
}

fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// MP4: top-level box sizes add up to the file size, starting with `ftyp`.
pub fn mp4(b: &[u8]) -> Checked<Vec<[u8; 4]>> {
    let (mut at, mut boxes) = (0, Vec::new());
    while at < b.len() {
        let (mut len, kind) = (be32(b, at)?, fourcc(b, at + 4)?);
        if len == 1 {
            let large = b.get(at + 8..at + 16).ok_or("truncated largesize")?;
            len = usize::try_from(u64::from_be_bytes(large.try_into().unwrap())).unwrap();
        } else if len == 0 {
            len = b.len() - at;
        }
        if len < 8 {
            return Err(format!("box size {len} at {at}"));
        }
        boxes.push(kind);
        at += len;
    }
    if at != b.len() {
        return Err("boxes overrun the file".into());
    }
    if boxes.first() != Some(b"ftyp") {
        return Err("first box is not ftyp".into());
    }
    Ok(boxes)
}

/// The checkers must be able to fail, or the sweeps prove nothing.
#[cfg(test)]
mod tests {
    use super::*;

    fn sample(mime: &str) -> Vec<u8> {
        generate_sized(mime, NONCE, 2000).unwrap()
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
        let even = generate_sized("audio/wav", NONCE, 2000).unwrap();
        let odd = generate_sized("audio/wav", NONCE, 2001).unwrap();
        assert_eq!(&odd[..2000], &even[..]);
        assert_eq!(odd[2000], 0);
        assert!(wav(&odd).is_ok());
        let mut bad = odd.clone();
        bad[2000] = 1;
        assert!(wav(&bad).is_err());
    }
}
