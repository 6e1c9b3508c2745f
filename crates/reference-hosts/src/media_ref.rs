//! The `mediaRef` blob handles the reference host pretends to hold.
//!
//! A `mediaRef` is an opaque host blob handle (RFC 0019) and is not portable across
//! hosts, so a tester can only send one the host told it about. The reference host
//! holds one fixed blob per non-text modality; the tester learns the handles from
//! [`known_media_ref`] instead of from an upload API.

/// The size the reference host attributes to every blob it holds, so a `mediaRef` part
/// is subject to `maxBytesPerPart` like an inline part (RFC 0091 §B: the cap covers
/// "a single inline/mediaRef part").
pub const KNOWN_BLOB_BYTES: u64 = 2048;

/// The `mediaRef` handle the reference host resolves for `modality`, if any.
///
/// `file` (the official suite's spelling of `document`) resolves like `document`.
pub fn known_media_ref(modality: &str) -> Option<&'static str> {
    match modality {
        "image" => Some("mmconform-blob:image"),
        "audio" => Some("mmconform-blob:audio"),
        "document" | "file" => Some("mmconform-blob:document"),
        _ => None,
    }
}

/// The bytes of the blob a known `mediaRef` names, and their MIME type, for a host
/// that forwards it inline: a file of the part's `mimeType` (a real file where the
/// type has a generator, stamped bytes otherwise), or of the modality's default type
/// when the part names none; [`KNOWN_BLOB_BYTES`] long, or the format's smallest file
/// when that is longer (a WAV is).
pub fn blob(modality: &str, mime: Option<&str>) -> (String, Vec<u8>) {
    let mime = mime
        .map(mmconform_media::mime_essence)
        .unwrap_or_else(|| mmconform_media::default_mime(modality).to_owned());
    let stamp = format!("blob-{modality}");
    let bytes = mmconform_media::generate_sized(&mime, &stamp, KNOWN_BLOB_BYTES as usize)
        .unwrap_or_else(|_| mmconform_media::generate(&mime, &stamp));
    (mime, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_are_real_files_of_the_attributed_size() {
        let (mime, bytes) = blob("image", Some("image/jpeg"));
        assert_eq!(mime, "image/jpeg");
        assert_eq!(bytes.len() as u64, KNOWN_BLOB_BYTES);
        assert!(bytes.starts_with(b"\xFF\xD8"));
        let (mime, bytes) = blob("document", Some("Text/Plain; charset=utf-8"));
        assert_eq!(mime, "text/plain");
        assert_eq!(bytes.len() as u64, KNOWN_BLOB_BYTES);
        let (mime, bytes) = blob("audio", None);
        assert_eq!(mime, "audio/wav");
        assert!(bytes.starts_with(b"RIFF"));
        assert_eq!(bytes, mmconform_media::generate("audio/wav", "blob-audio"));
    }

    #[test]
    fn one_handle_per_non_text_modality() {
        assert_eq!(known_media_ref("image"), Some("mmconform-blob:image"));
        assert_eq!(known_media_ref("audio"), Some("mmconform-blob:audio"));
        assert_eq!(known_media_ref("document"), Some("mmconform-blob:document"));
        assert_eq!(known_media_ref("file"), known_media_ref("document"));
        assert_eq!(known_media_ref("text"), None);
        assert_eq!(known_media_ref("video"), None);
    }
}
