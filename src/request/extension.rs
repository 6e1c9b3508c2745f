//! File names for generated media.

/// The file extension a MIME type is named with: the media base URL's files
/// (`image.png`), a document's filename, an attachment's.
pub fn extension(mime: &str) -> &'static str {
    match mime {
        "image/png" => "png",
        "image/jpeg" | "image/jpg" => "jpg",
        "image/webp" => "webp",
        "audio/wav" | "audio/x-wav" | "audio/wave" => "wav",
        "audio/mpeg" | "audio/mp3" => "mp3",
        "application/pdf" => "pdf",
        "video/mp4" => "mp4",
        _ => "bin",
    }
}
