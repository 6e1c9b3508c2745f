//! Finding the stamps a file carries, without knowing its nonce in advance.
//!
//! A witness receives bytes from a host and must say which nonces they carry. The
//! generators write `mmconform-nonce:<nonce>` (and opaque files start with
//! `mmconform-media nonce=<nonce>`); a nonce is read as the longest run of ASCII
//! letters, digits, `-` and `_` after the prefix, cut at [`MAX_TOKEN`] characters.
//!
//! [`StampScanner`] reads a file in pieces (a witness decodes base64 a chunk at a time
//! so a 48 MiB file never sits in memory whole); [`super::find_stamps`] is the one-shot
//! form. Both give the distinct nonces in order of first appearance, at most
//! [`MAX_STAMPS`] of them.

/// The prefixes a stamp can follow: the real generators' and the opaque header's.
const PREFIXES: [&[u8]; 2] = [b"mmconform-nonce:", b"mmconform-media nonce="];
/// Longest nonce read after a prefix; longer runs are cut here.
pub const MAX_TOKEN: usize = 128;
/// Most distinct nonces kept per scan; a file stuffed with stamps keeps the first ones.
pub const MAX_STAMPS: usize = 16;
/// Bytes a stamp can span from its first byte to the byte that ends its nonce.
const SPAN: usize = 22 + MAX_TOKEN + 1;

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Collects stamps from a file fed in consecutive pieces.
#[derive(Debug, Default)]
pub struct StampScanner {
    /// The tail of what was fed whose stamps could still continue in the next piece.
    carry: Vec<u8>,
    found: Vec<String>,
}

impl StampScanner {
    pub fn new() -> StampScanner {
        StampScanner::default()
    }

    /// Scans the next piece of the file.
    pub fn feed(&mut self, piece: &[u8]) {
        let mut window = std::mem::take(&mut self.carry);
        window.extend_from_slice(piece);
        // A stamp starting before `decided` ends inside the window: read it now. Later
        // starts wait for the next piece, so nothing is read twice or cut short.
        let decided = window.len().saturating_sub(SPAN - 1);
        self.scan(&window, decided);
        self.carry = window.split_off(decided);
    }

    /// Every stamp seen, once the whole file was fed.
    pub fn finish(mut self) -> Vec<String> {
        let rest = std::mem::take(&mut self.carry);
        self.scan(&rest, rest.len());
        self.found
    }

    /// Reads the stamps starting at offsets below `until`.
    fn scan(&mut self, window: &[u8], until: usize) {
        for start in 0..until {
            if window[start] != b'm' || self.found.len() >= MAX_STAMPS {
                continue;
            }
            let Some(prefix) = PREFIXES.iter().find(|p| window[start..].starts_with(p)) else {
                continue;
            };
            let token_start = start + prefix.len();
            let token_len = window[token_start..]
                .iter()
                .take(MAX_TOKEN)
                .take_while(|&&b| is_token_byte(b))
                .count();
            if token_len == 0 {
                continue;
            }
            // Token bytes are ASCII, so this is always valid UTF-8.
            let token =
                String::from_utf8_lossy(&window[token_start..token_start + token_len]).into_owned();
            if !self.found.contains(&token) {
                self.found.push(token);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{find_stamps, generate, generate_sized, supported_mimes};
    use super::*;

    #[test]
    fn every_generated_format_yields_its_nonce() {
        let mut all = supported_mimes().to_vec();
        all.push("application/x-made-up");
        for mime in all {
            let bytes = generate(mime, "0123456789abcdef-p3");
            assert_eq!(find_stamps(&bytes), ["0123456789abcdef-p3"], "{mime}");
            let big = generate_sized(mime, "n_1", 300_000).unwrap();
            assert_eq!(find_stamps(&big), ["n_1"], "{mime}");
        }
    }

    #[test]
    fn the_nonce_ends_where_it_ends_in_every_format_whatever_follows() {
        // What follows a stamp (a CRC, a marker, a length) must never read as more
        // nonce: many nonces make a lucky byte unlikely to hide a missing delimiter.
        let mut all = supported_mimes().to_vec();
        all.push("application/x-made-up");
        for mime in all {
            for i in 0..300 {
                let nonce = format!("n{i}-p{}", i % 7);
                let bytes = generate(mime, &nonce);
                assert_eq!(find_stamps(&bytes), std::slice::from_ref(&nonce), "{mime}");
                let min = bytes.len();
                let bigger = generate_sized(mime, &nonce, min + 1 + i % 5).unwrap();
                assert_eq!(find_stamps(&bigger), [nonce], "{mime}");
            }
        }
    }

    #[test]
    fn distinct_stamps_in_order_of_first_appearance() {
        let text = b"x mmconform-nonce:bbb y mmconform-nonce:aaa mmconform-nonce:bbb.";
        assert_eq!(find_stamps(text), ["bbb", "aaa"]);
        assert!(find_stamps(b"mmconform-nonce: spaced mmconform-nonce:").is_empty());
        assert!(find_stamps(b"").is_empty());
        assert_eq!(find_stamps(b"mmconform-nonce:a(b)"), ["a"]);
    }

    #[test]
    fn long_tokens_are_cut_and_stamps_are_capped() {
        let long = format!("mmconform-nonce:{}", "z".repeat(500));
        assert_eq!(find_stamps(long.as_bytes()), ["z".repeat(MAX_TOKEN)]);
        let many: String = (0..40).map(|i| format!("mmconform-nonce:n{i} ")).collect();
        let found = find_stamps(many.as_bytes());
        assert_eq!(found.len(), MAX_STAMPS);
        assert_eq!(found[0], "n0");
    }

    #[test]
    fn pieces_give_the_same_stamps_as_the_whole_whatever_the_cuts() {
        let mut file = vec![b'.'; 1000];
        file.extend_from_slice(b"mmconform-nonce:first-p0 ");
        file.extend(vec![b'm'; 300]);
        file.extend_from_slice(b"mmconform-media nonce=second\n");
        let whole = find_stamps(&file);
        assert_eq!(whole, ["first-p0", "second"]);
        for size in [1, 2, 7, 16, 23, 64, 151, 152, 153, 999, 5000] {
            let mut scanner = StampScanner::new();
            for piece in file.chunks(size) {
                scanner.feed(piece);
            }
            assert_eq!(scanner.finish(), whole, "pieces of {size}");
        }
    }
}
