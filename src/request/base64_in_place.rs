//! Base64 of a media file made in the file's own buffer. A large inline part is tens
//! of MiB: encoding into a new string holds the file and its text (4/3 of it) at once.
//! Here the buffer grows to the text's length and is encoded from the end backwards,
//! each block written at or after where its input was, so only one buffer is ever held.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// Input bytes per block: a multiple of 3, so only the last block is padded.
const BLOCK: usize = 3 * 1024;

/// `bytes` as standard base64 (with padding), the same text `STANDARD.encode` gives.
pub fn encode(mut bytes: Vec<u8>) -> String {
    let len = bytes.len();
    let encoded_len = len.div_ceil(3) * 4;
    bytes.resize(encoded_len, 0);
    let mut block = [0u8; BLOCK];
    // Block k reads [k*BLOCK, ..) and writes [k*4/3*BLOCK, ..): never before its own
    // input, so every block still to be read (before it) is intact.
    let mut start = len - len % BLOCK;
    if start == len && len > 0 {
        start -= BLOCK;
    }
    loop {
        let end = (start + BLOCK).min(len);
        let input = &mut block[..end - start];
        input.copy_from_slice(&bytes[start..end]);
        let out_start = start / 3 * 4;
        let out_end = out_start + (end - start).div_ceil(3) * 4;
        // The output range is exactly the encoded length of the input.
        let written = STANDARD
            .encode_slice(&*input, &mut bytes[out_start..out_end])
            .unwrap_or(0);
        assert_eq!(written, out_end - out_start);
        if start == 0 {
            break;
        }
        start -= BLOCK;
    }
    // Base64 is ASCII.
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_the_text_encode_gives_for_every_length_around_the_blocks() {
        let sizes = [
            0,
            1,
            2,
            3,
            4,
            5,
            BLOCK - 1,
            BLOCK,
            BLOCK + 1,
            BLOCK + 2,
            3 * BLOCK,
            3 * BLOCK + 4,
            10_007,
        ];
        for size in sizes {
            let bytes: Vec<u8> = (0..size).map(|i| (i * 7 + i / 251) as u8).collect();
            assert_eq!(
                encode(bytes.clone()),
                STANDARD.encode(&bytes),
                "{size} bytes"
            );
        }
    }
}
