//! RIFF framing shared by WAV and WEBP.
//!
//! Every RIFF chunk is padded to an even length, so a well-formed RIFF file
//! always has an even size. Exact odd sizes are reached with a single zero
//! byte *after* the RIFF form: readers stop at the size in the RIFF header
//! (libwebp, ffmpeg, sox all do), whereas an odd RIFF size with the last pad
//! byte missing is rejected by libwebp's demuxer.

/// Largest RIFF form: its 32-bit size field counts everything after the first 8 bytes.
pub(super) const MAX_FILE: usize = u32::MAX as usize + 8;

/// An empty RIFF form of type `form` for a file of `size` bytes; `finish`
/// fills in the RIFF size.
///
/// # Panics
/// If `size` is more than RIFF can describe (4 GiB).
pub(super) fn start(form: &[u8; 4], size: usize) -> Vec<u8> {
    assert!(
        size <= MAX_FILE,
        "a RIFF file cannot exceed {MAX_FILE} bytes"
    );
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(form);
    out
}

/// Writes a chunk header; the caller then writes exactly `len` bytes of data
/// and calls `pad`.
pub(super) fn chunk_header(out: &mut Vec<u8>, id: &[u8; 4], len: usize) {
    out.extend_from_slice(id);
    out.extend_from_slice(&le32(len));
}

/// The zero byte that keeps the next chunk word-aligned after odd-length data.
pub(super) fn pad(out: &mut Vec<u8>, data_len: usize) {
    if data_len % 2 == 1 {
        out.push(0);
    }
}

/// The size a chunk with `data_len` bytes of data occupies, pad included.
pub(super) fn chunk_span(data_len: usize) -> usize {
    8 + data_len + data_len % 2
}

/// Sets the RIFF size and appends the trailing byte that makes an odd `size`.
pub(super) fn finish(mut out: Vec<u8>, size: usize) -> Vec<u8> {
    let riff_len = out.len() - 8;
    out[4..8].copy_from_slice(&le32(riff_len));
    if size % 2 == 1 {
        out.push(0);
    }
    assert_eq!(out.len(), size);
    out
}

/// Little-endian 32-bit size field; the check in `start` keeps values in range.
pub(super) fn le32(n: usize) -> [u8; 4] {
    u32::try_from(n)
        .expect("RIFF sizes fit in 32 bits")
        .to_le_bytes()
}
