//! From what a part carries to what the witness keeps of it: length, SHA-256, stamps
//! and signature, computed a chunk at a time so a 48 MiB file never sits in memory
//! decoded (data URLs are read by [`crate::wire::data_url`]). A picture or sound up to
//! [`MAX_CONTENT_BYTES`] is also kept whole while it is digested, to be decoded and its
//! content stamp read ([`mmconform_media::content`]), within that crate's bounds.

use super::record::ContentSeen;
use base64::engine::general_purpose::STANDARD;
use mmconform_media::StampScanner;
use sha2::{Digest as _, Sha256};

/// Base64 characters decoded per step (a multiple of 4: padding only ends the last).
const CHUNK_CHARS: usize = 64 * 1024;
/// Bytes of the start of a file kept for its signature.
const HEAD: usize = 16;
/// Largest picture or sound decoded for its content stamp; a larger one is recorded as
/// unread (a host's copy of a generated file is far smaller).
pub const MAX_CONTENT_BYTES: usize = 16 << 20;

/// What the witness keeps of a part's decoded bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Digest {
    pub len: u64,
    pub sha256: String,
    pub stamps: Vec<String>,
    pub sniffed: Option<&'static str>,
    /// A picture or sound: what decoding it said.
    pub content: Option<ContentSeen>,
}

/// Feeds decoded bytes piece by piece.
struct Digester {
    hasher: Sha256,
    len: u64,
    stamps: StampScanner,
    head: Vec<u8>,
    /// The whole file while it may be a picture or sound of at most
    /// [`MAX_CONTENT_BYTES`]; dropped as soon as it cannot be.
    kept: Option<Vec<u8>>,
}

impl Digester {
    fn new() -> Digester {
        Digester {
            hasher: Sha256::new(),
            len: 0,
            stamps: StampScanner::new(),
            head: Vec::with_capacity(HEAD),
            kept: Some(Vec::new()),
        }
    }

    fn feed(&mut self, piece: &[u8]) {
        self.hasher.update(piece);
        self.len += piece.len() as u64;
        self.stamps.feed(piece);
        let room = HEAD - self.head.len();
        self.head.extend_from_slice(&piece[..room.min(piece.len())]);
        let decodable = self.head.len() < HEAD || has_content(&self.head);
        match &mut self.kept {
            Some(kept) if decodable && kept.len() + piece.len() <= MAX_CONTENT_BYTES => {
                kept.extend_from_slice(piece);
            }
            _ => self.kept = None,
        }
    }

    fn finish(self) -> Digest {
        let sniffed = mmconform_media::sniff_mime(&self.head);
        let content = has_content(&self.head).then(|| match &self.kept {
            Some(kept) => ContentSeen::of(mmconform_media::content::read(
                kept,
                &mmconform_media::content::Bounds::default(),
            )),
            None => ContentSeen::of(Err(format!(
                "larger than the {} MiB the witness decodes",
                MAX_CONTENT_BYTES >> 20
            ))),
        });
        Digest {
            len: self.len,
            sha256: crate::digest::hex(&self.hasher.finalize()),
            stamps: self.stamps.finish(),
            sniffed,
            content,
        }
    }
}

/// Whether a file starting with `head` is a picture or sound with a content stamp reader.
fn has_content(head: &[u8]) -> bool {
    matches!(
        mmconform_media::sniff_mime(head),
        Some("image/png" | "image/jpeg" | "image/gif" | "image/webp" | "audio/wav" | "audio/mpeg")
    )
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
    fn a_picture_or_sound_is_decoded_for_its_content_stamp_and_anything_else_is_not() {
        let nonce = "0123456789abcdef-c4";
        let gif = mmconform_media::generate("image/gif", nonce);
        let digest = digest_base64(&STANDARD.encode(&gif)).unwrap();
        let content = digest.content.unwrap();
        assert_eq!(content.stamp.as_deref(), Some(nonce));
        assert_eq!((content.width, content.height), (Some(104), Some(104)));
        let wav = digest_bytes(&mmconform_media::generate("audio/wav", nonce));
        assert_eq!(wav.content.unwrap().rate, Some(8_000));
        assert_eq!(
            digest_bytes(&mmconform_media::generate("application/pdf", nonce)).content,
            None
        );
        // A picture too large to decode is recorded as unread, with its digest intact.
        let big =
            mmconform_media::generate_sized("image/png", nonce, MAX_CONTENT_BYTES + 1).unwrap();
        let digest = digest_bytes(&big);
        assert_eq!(digest.len, big.len() as u64);
        let unread = digest.content.unwrap().unread.unwrap();
        assert!(unread.contains("larger than"), "{unread}");
        // A broken picture too.
        let broken = digest_bytes(&gif[..40]).content.unwrap();
        assert!(
            broken.unread.is_some() && broken.stamp.is_none(),
            "{broken:?}"
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
