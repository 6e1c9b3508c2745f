//! `$media.base64_noise`: valid base64 of the generated file with a character outside
//! every base64 alphabet inserted between groups. RFC 4648 §3.3: an implementation MUST
//! reject encoded data containing characters outside the base alphabet unless its
//! specification says otherwise; a lax decoder (one that skips them, as Python's default
//! does) turns this into the valid file, so a host that accepts it decodes leniently.

/// Inserted after every [`GROUP`] characters: not in the standard or URL-safe alphabet,
/// not padding, not whitespace (which some MIME decoders skip by specification).
pub const NOISE: char = '*';
const GROUP: usize = 16;

/// `encoded` with [`NOISE`] after every [`GROUP`] characters (at least one inserted).
pub fn interleave(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len() + encoded.len() / GROUP + 1);
    for (i, c) in encoded.chars().enumerate() {
        if i > 0 && i % GROUP == 0 {
            out.push(NOISE);
        }
        out.push(c);
    }
    if !out.contains(NOISE) {
        out.push(NOISE);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    #[test]
    fn a_strict_decoder_refuses_and_a_lax_one_gets_the_file_back() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        let clean = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let noisy = interleave(&clean);
        assert!(noisy.matches(NOISE).count() >= clean.len() / GROUP - 1);
        assert!(
            base64::engine::general_purpose::STANDARD
                .decode(&noisy)
                .is_err()
        );
        let lax: String = noisy.chars().filter(|c| *c != NOISE).collect();
        assert_eq!(
            base64::engine::general_purpose::STANDARD
                .decode(lax)
                .unwrap(),
            bytes
        );
        assert!(interleave("aGk=").contains(NOISE));
    }

    /// Every literal `$media.data` in the packs is invalid base64 for every decoder,
    /// whatever the run: no placeholder (a nonce's length would change the count), and
    /// a count of alphabet characters (URL-safe ones included) of 1 mod 4, which no
    /// decoder, however lax, turns into bytes.
    #[test]
    fn the_packs_invalid_base64_fails_every_decoder() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
        let mut seen = 0;
        // One folder per pack; files beside them (the malformation table) are no pack.
        let packs = std::fs::read_dir(root).unwrap().map(|e| e.unwrap().path());
        for pack in packs.filter(|p| p.is_dir()) {
            for file in std::fs::read_dir(pack).unwrap() {
                let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
                for line in text.lines().filter(|l| l.contains("$media")) {
                    let Some((_, rest)) = line.split_once("data: \"") else {
                        continue;
                    };
                    let literal = &rest[..rest.find('"').unwrap()];
                    seen += 1;
                    assert!(!literal.contains('{'), "{literal}");
                    let alphabet = literal
                        .chars()
                        .filter(|c| c.is_ascii_alphanumeric() || "+/-_".contains(*c))
                        .count();
                    assert_eq!(alphabet % 4, 1, "{literal}");
                }
            }
        }
        assert!(seen >= 5, "found {seen} literal payloads");
    }
}
