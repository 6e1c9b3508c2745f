//! The `mediaRef` blob handles the reference host pretends to hold.
//!
//! A `mediaRef` is an opaque host blob handle (RFC 0019) and is not portable across
//! hosts, so a tester can only send one the host told it about. The reference host
//! holds one fixed blob per non-text modality; the tester learns the handles from
//! [`known_media_ref`] instead of from an upload API.

/// The size the reference host attributes to every blob it holds, so a `mediaRef` part
/// is subject to `maxBytesPerPart` like an inline part (RFC 0091 §B: the cap covers
/// "a single inline/mediaRef part").
pub const KNOWN_BLOB_BYTES: u64 = 1024;

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

#[cfg(test)]
mod tests {
    use super::*;

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
