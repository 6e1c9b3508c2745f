//! From what a part carries to what the witness keeps of it: length, SHA-256, stamps
//! and signature, computed a chunk at a time so a 48 MiB file never sits in memory
//! decoded (data URLs are read by [`crate::wire::data_url`]).

use base64::engine::general_purpose::STANDARD;
use mmconform_media::StampScanner;
use sha2::{Digest as _, Sha256};

/// Base64 characters decoded per step (a multiple of 4: padding only ends the last).
const CHUNK_CHARS: usize = 64 * 1024;
/// Bytes of the start of a file kept for its signature.
const HEAD: usize = 16;

/// What the witness keeps of a part's decoded bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    pub len: u64,
    pub sha256: String,
    pub stamps: Vec<String>,
    pub sniffed: Option<&'static str>,
}

/// Feeds decoded bytes piece by piece.
struct Digester {
    hasher: Sha256,
    len: u64,
    stamps: StampScanner,
    head: Vec<u8>,
}

impl Digester {
    fn new() -> Digester {
        Digester {
            hasher: Sha256::new(),
            len: 0,
            stamps: StampScanner::new(),
            head: Vec::with_capacity(HEAD),
        }
    }

    fn feed(&mut self, piece: &[u8]) {
        self.hasher.update(piece);
        self.len += piece.len() as u64;
        self.stamps.feed(piece);
        let room = HEAD - self.head.len();
        self.head.extend_from_slice(&piece[..room.min(piece.len())]);
    }

    fn finish(self) -> Digest {
        Digest {
            len: self.len,
            sha256: crate::digest::hex(&self.hasher.finalize()),
            stamps: self.stamps.finish(),
            sniffed: mmconform_media::sniff_mime(&self.head),
        }
    }
}

/// The digest of bytes already in memory (text, percent-decoded data).
pub fn digest_bytes(bytes: &[u8]) -> Digest {
    let mut digester = Digester::new();
    digester.feed(bytes);
    digester.finish()
}

/// The digest of standard, padded base64 (what data URLs and the wires' `data`
/// fields carry); an error names the first offending character.
pub fn digest_base64(b64: &str) -> Result<Digest, String> {
    digest_with(b64, &STANDARD)
}

/// The digest of a protobuf `bytes` field in its JSON form (the Gemini wire): the
/// proto3 JSON mapping writes standard base64 and accepts the URL-safe alphabet too,
/// padded or not, and clients send either (google-genai sends URL-safe).
pub fn digest_proto_base64(b64: &str) -> Result<Digest, String> {
    use base64::alphabet::{STANDARD as STANDARD_ALPHABET, URL_SAFE};
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    let config =
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
    let url_safe = b64.bytes().any(|b| b == b'-' || b == b'_');
    let alphabet = if url_safe {
        &URL_SAFE
    } else {
        &STANDARD_ALPHABET
    };
    digest_with(b64, &GeneralPurpose::new(alphabet, config))
}

fn digest_with(b64: &str, engine: &impl base64::Engine) -> Result<Digest, String> {
    let mut digester = Digester::new();
    let mut buffer = vec![0u8; CHUNK_CHARS / 4 * 3];
    for (i, chunk) in b64.as_bytes().chunks(CHUNK_CHARS).enumerate() {
        let start = i * CHUNK_CHARS;
        let written = engine
            .decode_slice(chunk, &mut buffer)
            .map_err(|e| match e {
                base64::DecodeSliceError::DecodeError(e) => describe(&e, start),
                // The buffer holds a whole chunk decoded: cannot happen.
                base64::DecodeSliceError::OutputSliceTooSmall => {
                    "invalid base64: decodes to more bytes than it can".to_string()
                }
            })?;
        digester.feed(&buffer[..written]);
    }
    Ok(digester.finish())
}

/// A base64 error with offsets counted from the start of the whole value.
fn describe(error: &base64::DecodeError, start: usize) -> String {
    use base64::DecodeError as E;
    match *error {
        E::InvalidByte(at, byte) => format!(
            "invalid base64: byte 0x{byte:02x} ({}) at character {}",
            char::from(byte).escape_default(),
            start + at
        ),
        E::InvalidLength(_) => {
            "invalid base64: the length is not a whole number of 4-character groups (padding missing?)".into()
        }
        E::InvalidLastSymbol { offset, .. } => format!(
            "invalid base64: the last symbol at character {} has bits that encode nothing",
            start + offset
        ),
        E::InvalidPadding => "invalid base64: padding missing or misplaced".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn a_base64_file_is_digested_like_its_bytes_across_chunks() {
        let png = mmconform_media::generate_sized("image/png", "n-p1", 200_000).unwrap();
        let b64 = STANDARD.encode(&png);
        assert!(b64.len() > 2 * CHUNK_CHARS);
        let digest = digest_base64(&b64).unwrap();
        assert_eq!(digest, digest_bytes(&png));
        assert_eq!(digest.len, 200_000);
        assert_eq!(digest.stamps, ["n-p1"]);
        assert_eq!(digest.sniffed, Some("image/png"));
        assert_eq!(
            digest_bytes(b"abc").sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn invalid_base64_is_named_with_its_offset_in_the_whole_value() {
        let mut b64 = STANDARD.encode(vec![7u8; CHUNK_CHARS]);
        b64.replace_range(CHUNK_CHARS + 5..CHUNK_CHARS + 6, "*");
        let err = digest_base64(&b64).unwrap_err();
        assert!(
            err.contains(&format!("at character {}", CHUNK_CHARS + 5)),
            "{err}"
        );
        assert!(
            digest_base64("abc")
                .unwrap_err()
                .starts_with("invalid base64")
        );
        assert!(digest_base64("ab=c").is_err());
        assert!(digest_base64("aGk=\n").is_err(), "whitespace is not base64");
        assert!(
            digest_base64("-_-_").is_err(),
            "the URL-safe alphabet is not standard"
        );
        assert_eq!(digest_base64("").unwrap().len, 0);
    }
}
