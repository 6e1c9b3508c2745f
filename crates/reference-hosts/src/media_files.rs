//! The media files the AG-UI agent and the OpenAI-compatible server serve at
//! `GET /media/<kind>.<ext>` (`image.png`, `audio.wav`, `document.pdf`, ...), so a url
//! part a run builds from `--media-base-url` names something real. Neither host ever
//! fetches a URL itself: these are for the tester and for an upstream that does.

use crate::agui::kind_of_mime;

/// The nonce stamped in every served file.
pub const MEDIA_NONCE: &str = "reference-media";

/// The extension of the file served for a generated MIME type (`image.png`).
fn extension(mime: &str) -> Option<&'static str> {
    Some(match mime {
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/webp" => "webp",
        "audio/wav" => "wav",
        "audio/mpeg" => "mp3",
        "application/pdf" => "pdf",
        "video/mp4" => "mp4",
        _ => return None,
    })
}

/// The MIME type and bytes of the file `name` (`image.png`), if one is served.
pub fn media_file(name: &str) -> Option<(&'static str, Vec<u8>)> {
    let (kind, ext) = name.split_once('.')?;
    let mime = mmconform_media::supported_mimes()
        .iter()
        .find(|m| kind_of_mime(m) == kind && extension(m) == Some(ext))?;
    Some((mime, mmconform_media::generate(mime, MEDIA_NONCE)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_generated_type_has_one_name() {
        for (name, mime, magic) in [
            ("image.png", "image/png", &b"\x89PNG"[..]),
            ("image.jpg", "image/jpeg", b"\xFF\xD8"),
            ("audio.wav", "audio/wav", b"RIFF"),
            ("document.pdf", "application/pdf", b"%PDF"),
        ] {
            let (served, bytes) = media_file(name).unwrap();
            assert_eq!(served, mime, "{name}");
            assert!(bytes.starts_with(magic), "{name}");
        }
        for missing in ["image.exe", "image.wav", "video.mp4x", "image", ""] {
            assert!(media_file(missing).is_none(), "{missing}");
        }
    }
}
