//! Inline bytes on the OpenAI wire: `data:<mime>;base64,<b64>` URLs (RFC 2397) and the
//! bare base64 of `input_audio.data`, decoded and checked against what the bytes are.
//!
//! Strict where the wire is: the MIME type is required, only base64 data URLs are
//! taken, base64 is the standard alphabet with padding, and a declared type whose
//! signature mmconform can recognise must be what the bytes are.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// Types whose signature `sniff_mime` knows: for these the bytes must agree.
const SNIFFABLE: [&str; 10] = [
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "audio/wav",
    "audio/mpeg",
    "audio/ogg",
    "audio/flac",
    "application/pdf",
    "video/mp4",
];

/// Decoded inline bytes and their MIME type (canonical spelling).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inline {
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// Why inline bytes are refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InlineError {
    /// The URL has no `data:` scheme (a caller decided it should have one).
    NotDataUrl,
    /// `data:;base64,...` or `data:base64,...`: no type/subtype.
    NoMime,
    /// A data URL without `;base64` (percent-encoded data is not taken).
    NotBase64Encoded,
    /// The payload does not decode as base64.
    BadBase64,
    /// The bytes are something else than declared (`sniffed`: what they are, if known).
    Mismatch {
        declared: String,
        sniffed: Option<&'static str>,
    },
}

impl InlineError {
    /// A human sentence about `what` (`image_url.url`, `input_audio.data`).
    pub fn describe(&self, what: &str) -> String {
        match self {
            InlineError::NotDataUrl => format!("{what} is not a data URL"),
            InlineError::NoMime => format!("{what} is a data URL without a MIME type"),
            InlineError::NotBase64Encoded => format!("{what} is a data URL without `;base64`"),
            InlineError::BadBase64 => format!("{what} is not valid base64"),
            InlineError::Mismatch {
                declared,
                sniffed: Some(sniffed),
            } => format!("{what} is declared {declared} but the bytes are {sniffed}"),
            InlineError::Mismatch { declared, .. } => {
                format!("{what} is declared {declared} but the bytes are not {declared}")
            }
        }
    }
}

/// True when `url` starts with the `data:` scheme (case-insensitive).
pub fn is_data_url(url: &str) -> bool {
    url.get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("data:"))
}

/// Parses and decodes a base64 data URL, and checks the bytes against its type.
#[cfg(test)]
pub fn parse(url: &str) -> Result<Inline, InlineError> {
    parse_with(url, false)
}

/// [`parse`], decoding as a lax decoder does when `lax` (the `lax-base64` fault).
pub fn parse_with(url: &str, lax: bool) -> Result<Inline, InlineError> {
    if !is_data_url(url) {
        return Err(InlineError::NotDataUrl);
    }
    let (header, payload) = url[5..]
        .split_once(',')
        .ok_or(InlineError::NotBase64Encoded)?;
    let mut params = header.split(';');
    let mime = params.next().unwrap_or_default().trim();
    let base64 = params.any(|p| p.trim().eq_ignore_ascii_case("base64"));
    if mime.is_empty() || mime.eq_ignore_ascii_case("base64") || !mime.contains('/') {
        return Err(InlineError::NoMime);
    }
    if !base64 {
        return Err(InlineError::NotBase64Encoded);
    }
    let bytes = decode_with(payload, lax)?;
    let mime = mmconform_media::canonical_mime(mime);
    check_bytes(&mime, &bytes)?;
    Ok(Inline { mime, bytes })
}

/// Standard padded base64 (no whitespace, no URL alphabet), or with `lax` as Python's
/// default decoder does it: every character outside the
/// alphabet is skipped first (RFC 4648 §3.3 says to reject them).
pub fn decode_with(b64: &str, lax: bool) -> Result<Vec<u8>, InlineError> {
    if lax {
        let kept: String = b64
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '='))
            .collect();
        return STANDARD.decode(kept).map_err(|_| InlineError::BadBase64);
    }
    STANDARD.decode(b64).map_err(|_| InlineError::BadBase64)
}

/// Ok when `bytes` can be what `mime` says: their signature names it, or `mime` is a
/// type whose signature is not known here.
pub fn check_bytes(mime: &str, bytes: &[u8]) -> Result<(), InlineError> {
    let declared = mmconform_media::canonical_mime(mime);
    let sniffed = mmconform_media::sniff_mime(bytes);
    let agrees = match sniffed {
        Some(sniffed) => sniffed == declared,
        None => !SNIFFABLE.contains(&declared.as_str()),
    };
    if agrees {
        Ok(())
    } else {
        Err(InlineError::Mismatch { declared, sniffed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(mime: &str, bytes: &[u8]) -> String {
        format!("data:{mime};base64,{}", STANDARD.encode(bytes))
    }

    #[test]
    fn real_files_decode_with_their_canonical_type() {
        let png = mmconform_media::generate("image/png", "n1");
        let inline = parse(&url("image/png", &png)).unwrap();
        assert_eq!(
            inline,
            Inline {
                mime: "image/png".into(),
                bytes: png
            }
        );
        let jpeg = mmconform_media::generate("image/jpeg", "n1");
        assert_eq!(parse(&url("IMAGE/JPG", &jpeg)).unwrap().mime, "image/jpeg");
        let text = url("text/plain;charset=utf-8", b"hello");
        assert_eq!(parse(&text).unwrap().mime, "text/plain");
        assert!(
            parse(&format!(
                "DATA:image/png;base64,{}",
                STANDARD.encode(mmconform_media::generate("image/png", "x"))
            ))
            .is_ok()
        );
    }

    #[test]
    fn every_defect_has_its_error() {
        let png = mmconform_media::generate("image/png", "n1");
        let b64 = STANDARD.encode(&png);
        assert_eq!(parse("https://x.test/a.png"), Err(InlineError::NotDataUrl));
        assert_eq!(
            parse(&format!("data:;base64,{b64}")),
            Err(InlineError::NoMime)
        );
        assert_eq!(
            parse(&format!("data:base64,{b64}")),
            Err(InlineError::NoMime)
        );
        assert_eq!(
            parse("data:image/png,rawbytes"),
            Err(InlineError::NotBase64Encoded)
        );
        assert_eq!(
            parse("data:image/png;base64"),
            Err(InlineError::NotBase64Encoded)
        );
        assert_eq!(
            parse("data:image/png;base64,not base64!"),
            Err(InlineError::BadBase64)
        );
        assert_eq!(
            parse(&url("image/jpeg", &png)),
            Err(InlineError::Mismatch {
                declared: "image/jpeg".into(),
                sniffed: Some("image/png")
            })
        );
        assert_eq!(
            parse(&url("image/png", b"not an image")),
            Err(InlineError::Mismatch {
                declared: "image/png".into(),
                sniffed: None
            })
        );
        let message = InlineError::Mismatch {
            declared: "image/jpeg".into(),
            sniffed: Some("image/png"),
        }
        .describe("image_url.url");
        assert_eq!(
            message,
            "image_url.url is declared image/jpeg but the bytes are image/png"
        );
    }
}
