//! What a file is, from its first bytes (its "magic"), and MIME aliases.
//!
//! A witness compares the MIME type a request declared with what the bytes are, so a
//! PDF labelled `image/png` is caught. Only formats with an unambiguous signature are
//! named; anything else is `None` (unknown, never guessed).

/// The MIME type the bytes' signature names, if it is one of the formats known here.
pub fn sniff_mime(bytes: &[u8]) -> Option<&'static str> {
    let riff = |form: &[u8]| bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(form);
    Some(if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if bytes.starts_with(b"\xFF\xD8\xFF") {
        "image/jpeg"
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        "image/gif"
    } else if riff(b"WEBP") {
        "image/webp"
    } else if riff(b"WAVE") {
        "audio/wav"
    } else if bytes.starts_with(b"ID3") || is_mpeg_audio_frame(bytes) {
        "audio/mpeg"
    } else if bytes.starts_with(b"OggS") {
        "audio/ogg"
    } else if bytes.starts_with(b"fLaC") {
        "audio/flac"
    } else if bytes.starts_with(b"%PDF-") {
        "application/pdf"
    } else if bytes.get(4..8) == Some(b"ftyp") {
        "video/mp4"
    } else {
        return None;
    })
}

/// Every type [`sniff_mime`] can name: bytes declared as one of these and not sniffed
/// as it are not what they claim to be.
const SIGNED: [&str; 10] = [
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

/// Whether `mime` (any alias) is a format [`sniff_mime`] recognises by its signature.
pub fn has_signature(mime: &str) -> bool {
    SIGNED.contains(&canonical_mime(mime).as_str())
}

/// An MPEG audio frame header: 11 sync bits, and a layer (bits 1-2 of the second byte)
/// that is not `00` (that is AAC's ADTS, not MP3).
fn is_mpeg_audio_frame(bytes: &[u8]) -> bool {
    matches!(bytes, [0xFF, second, ..] if second & 0xE0 == 0xE0 && second & 0x06 != 0)
}

/// The MIME type in its usual spelling: lowercase, parameters dropped, and common
/// aliases (`image/jpg`, `audio/x-wav`, `audio/wave`, `audio/mp3`, `audio/x-flac`)
/// mapped to the name [`sniff_mime`] gives, so the two can be compared.
pub fn canonical_mime(mime: &str) -> String {
    let essence = super::mime_essence(mime);
    match essence.as_str() {
        "image/jpg" | "image/pjpeg" => "image/jpeg".into(),
        "audio/x-wav" | "audio/wave" | "audio/vnd.wave" => "audio/wav".into(),
        "audio/mp3" | "audio/mpeg3" | "audio/x-mpeg" => "audio/mpeg".into(),
        "audio/x-flac" => "audio/flac".into(),
        _ => essence,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{generate, supported_mimes};
    use super::*;

    #[test]
    fn every_generated_format_is_recognised() {
        for mime in supported_mimes() {
            assert_eq!(sniff_mime(&generate(mime, "n")), Some(*mime), "{mime}");
        }
        assert_eq!(sniff_mime(&generate("application/x-made-up", "n")), None);
    }

    #[test]
    fn the_signed_types_are_the_sniffed_ones() {
        for mime in supported_mimes() {
            assert!(has_signature(mime), "{mime}");
        }
        assert!(has_signature("image/JPG"));
        assert!(!has_signature("text/plain"));
        assert!(!has_signature("application/octet-stream"));
    }

    #[test]
    fn other_signatures_and_unknown_bytes() {
        assert_eq!(sniff_mime(b"GIF89a...."), Some("image/gif"));
        assert_eq!(sniff_mime(b"OggS\0\x02"), Some("audio/ogg"));
        assert_eq!(sniff_mime(b"fLaC\0\0"), Some("audio/flac"));
        assert_eq!(sniff_mime(&[0xFF, 0xFB, 0x90, 0x00]), Some("audio/mpeg"));
        // ADTS (AAC) has the sync bits but layer 00.
        assert_eq!(sniff_mime(&[0xFF, 0xF1, 0x50, 0x80]), None);
        assert_eq!(sniff_mime(b"RIFF\0\0\0\0AVI "), None);
        for unknown in [&b""[..], b"\x89PN", b"hello", b"%PD"] {
            assert_eq!(sniff_mime(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn aliases_become_the_sniffed_spelling() {
        for (alias, canonical) in [
            ("IMAGE/JPG", "image/jpeg"),
            ("audio/x-wav; rate=8000", "audio/wav"),
            ("audio/wave", "audio/wav"),
            ("audio/mp3", "audio/mpeg"),
            ("application/pdf", "application/pdf"),
            ("text/plain; charset=utf-8", "text/plain"),
        ] {
            assert_eq!(canonical_mime(alias), canonical, "{alias}");
        }
    }
}
