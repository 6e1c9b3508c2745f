//! PNG, JPEG and GIF walkers.

use super::{Checked, be32, fourcc};

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

/// Header and logical screen, the global colour table, then extensions (each a run of
/// sub-blocks ended by an empty one) and images, ending exactly with the trailer.
/// Returns the labels of the extensions seen.
pub fn gif(b: &[u8]) -> Checked<Vec<u8>> {
    if !(b.starts_with(b"GIF89a") || b.starts_with(b"GIF87a")) {
        return Err("no GIF signature".into());
    }
    let packed = *b.get(10).ok_or("no logical screen")?;
    let mut at = 13;
    if packed & 0x80 != 0 {
        at += 3 * (2 << (packed & 0x07));
    }
    let sub_blocks = |mut at: usize| -> Checked<usize> {
        loop {
            let len = usize::from(*b.get(at).ok_or("sub-blocks past end")?);
            at += 1 + len;
            if len == 0 {
                return Ok(at);
            }
        }
    };
    let mut labels = Vec::new();
    loop {
        match b.get(at) {
            Some(0x21) => {
                labels.push(*b.get(at + 1).ok_or("extension without label")?);
                at = sub_blocks(at + 2)?;
            }
            Some(0x2c) => {
                let packed = *b.get(at + 9).ok_or("short image descriptor")?;
                at += 10;
                if packed & 0x80 != 0 {
                    at += 3 * (2 << (packed & 0x07));
                }
                at = sub_blocks(at + 1)?;
            }
            Some(0x3b) if at + 1 == b.len() => return Ok(labels),
            Some(0x3b) => return Err("data after the trailer".into()),
            Some(other) => return Err(format!("unknown block {other:#04x} at {at}")),
            None => return Err("no trailer".into()),
        }
    }
}
