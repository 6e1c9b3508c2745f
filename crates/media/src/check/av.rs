//! MP3 (ID3v2 + MPEG frames) and MP4 (ISO-BMFF boxes) walkers.

use super::{Checked, be32, fourcc};

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
