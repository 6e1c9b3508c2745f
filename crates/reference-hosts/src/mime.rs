//! Does a part's `mimeType` fit its modality?
//!
//! RFC 0091 only says `mimeType` is REQUIRED; a host accepting an `image` part labelled
//! `audio/wav` would hand the model bytes it cannot read, so the reference host refuses
//! the mismatch with 415 `unsupported_media_type`, the status HTTP has for it.

use super::error_body::{ErrorCode, Rejection};
use super::{Fault, ReferenceConfig};

/// The lowercase `type/subtype` of a MIME string, parameters dropped; None when it is
/// not of that form (MIME types are case-insensitive, RFC 2045 §5.1).
fn essence(mime: &str) -> Option<String> {
    let essence = mmconform_media::mime_essence(mime);
    let (top, sub) = essence.split_once('/')?;
    let token = |s: &str| !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || c == '/');
    (token(top) && token(sub)).then_some(essence)
}

fn fits(modality: &str, essence: &str) -> bool {
    match modality {
        "image" => essence.starts_with("image/"),
        "audio" => essence.starts_with("audio/"),
        "document" => essence == "application/pdf" || essence.starts_with("text/"),
        // Only reachable under `out-of-enum-modality`.
        "video" => essence.starts_with("video/"),
        _ => false,
    }
}

/// Checks `mime` against `modality` (canonical name).
pub fn check_fit(
    config: &ReferenceConfig,
    modality: &str,
    mime: &str,
    path: &str,
) -> Result<(), Rejection> {
    let refuse = |why: String| {
        Err(Rejection::new(ErrorCode::UnsupportedMediaType, why)
            .at(path)
            .with_detail("mimeType", mime)
            .with_detail("modality", modality))
    };
    let Some(essence) = essence(mime) else {
        return refuse(format!(
            "mimeType `{mime}` is not a type/subtype media type"
        ));
    };
    if !fits(modality, &essence) {
        return refuse(format!(
            "mimeType `{mime}` does not fit a `{modality}` part"
        ));
    }
    if config.faulted(Fault::AcceptsPngOnly) && modality == "image" && essence != "image/png" {
        return refuse(format!("mimeType `{mime}` is not supported for images"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(modality: &str, mime: &str) -> bool {
        check_fit(&ReferenceConfig::default(), modality, mime, "p").is_ok()
    }

    #[test]
    fn each_modality_takes_its_family() {
        assert!(ok("image", "image/png"));
        assert!(ok("image", "image/jpeg"));
        assert!(ok("image", "IMAGE/WebP"));
        assert!(ok("audio", "audio/wav"));
        assert!(ok("audio", "audio/mpeg"));
        assert!(ok("document", "application/pdf"));
        assert!(ok("document", "text/plain; charset=utf-8"));
        assert!(ok("document", "text/markdown"));
    }

    #[test]
    fn mismatches_and_garbage_are_415() {
        for (modality, mime) in [
            ("image", "audio/wav"),
            ("audio", "image/png"),
            ("document", "application/zip"),
            ("document", "image/png"),
            ("image", "png"),
            ("image", "image/"),
            ("image", ""),
        ] {
            let err = check_fit(&ReferenceConfig::default(), modality, mime, "p").unwrap_err();
            assert_eq!(
                err.code,
                ErrorCode::UnsupportedMediaType,
                "{modality} {mime}"
            );
            assert_eq!(err.status().as_u16(), 415);
        }
    }
}
