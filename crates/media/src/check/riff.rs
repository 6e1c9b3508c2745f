//! RIFF walkers: the form itself, WAV and WEBP.

use super::{Checked, fourcc, le32};

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
