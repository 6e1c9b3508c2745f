//! Which modalities the host advertises, and what it does with a part's `type`.
//!
//! This is where RFC 0091 §A's central MUST lives: a part whose type is not advertised
//! is rejected with `unsupported_modality`, never silently dropped. Most type-related
//! faults are therefore decided here.

use super::error_body::{ErrorCode, Rejection};
use super::{Fault, ReferenceConfig};

/// The non-text members of the closed `aiProviders.input.modalities` enum.
pub const MEDIA_MODALITIES: [&str; 3] = ["image", "audio", "document"];

/// The official suite's spelling of a `document` part (docs/wire.md, "Content parts"), accepted as an
/// alias so a `--dialect suite` run passes too.
const SUITE_DOCUMENT_ALIAS: &str = "file";

/// The modality `out-of-enum-modality` advertises although the enum cannot hold it.
const OUT_OF_ENUM: &str = "video";

/// What `aiProviders.input.modalities` says, in order (None when there is no input block).
pub fn advertised_input(config: &ReferenceConfig) -> Option<Vec<String>> {
    if !config.advertise_input {
        return None;
    }
    let mut list = config.modalities.clone();
    if config.faulted(Fault::OutOfEnumModality) && !list.iter().any(|m| m == OUT_OF_ENUM) {
        list.push(OUT_OF_ENUM.to_owned());
    }
    Some(list)
}

/// The advertised modalities with the implicit `text` made explicit (first, when the
/// host omitted it): what a successful call echoes as `advertised`.
pub fn advertised_with_text(config: &ReferenceConfig) -> Vec<String> {
    let mut list = advertised_input(config).unwrap_or_default();
    if !list.iter().any(|m| m == "text") {
        list.insert(0, "text".to_owned());
    }
    list
}

fn is_advertised(config: &ReferenceConfig, modality: &str) -> bool {
    advertised_input(config).is_some_and(|list| list.iter().any(|m| m == modality))
}

/// The modality a part `type` names: the suite alias `file` means `document`.
pub fn canonical(part_type: &str) -> &str {
    if part_type == SUITE_DOCUMENT_ALIAS {
        "document"
    } else {
        part_type
    }
}

/// What to do with a part, decided from its `type` alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartKind {
    /// A `text` part: check its `text` field.
    Text,
    /// An accepted media modality (canonical name): check mimeType and source.
    Media(String),
    /// Only under `silently-drops-unadvertised`: skip the part and say nothing.
    Drop,
}

/// Decides from `part_type` whether a part may proceed to shape validation.
pub fn classify(config: &ReferenceConfig, part_type: &str) -> Result<PartKind, Rejection> {
    if part_type == "text" {
        // Text is implicit (RFC 0091 §B) whether or not "text" is listed.
        if config.faulted(Fault::RejectsTextPartUnlessListed) && !is_advertised(config, "text") {
            return Err(unsupported(config, part_type));
        }
        return Ok(PartKind::Text);
    }
    let modality = canonical(part_type);
    if MEDIA_MODALITIES.contains(&modality) {
        if config.faulted(Fault::RejectsAdvertisedModality) {
            return Err(unsupported(config, part_type));
        }
        if is_advertised(config, modality) {
            return Ok(PartKind::Media(modality.to_owned()));
        }
        return match config.fault {
            Some(Fault::AcceptsUnadvertised) => Ok(PartKind::Media(modality.to_owned())),
            Some(Fault::SilentlyDropsUnadvertised) => Ok(PartKind::Drop),
            Some(Fault::WrongErrorCode) => Err(wrong_code(part_type)),
            _ => Err(unsupported(config, part_type)),
        };
    }
    if modality == OUT_OF_ENUM && config.faulted(Fault::OutOfEnumModality) {
        return Ok(PartKind::Media(modality.to_owned()));
    }
    // Outside the closed enum: no host can advertise it, so it is always refused
    // (even when a misconfigured host lists it).
    match config.fault {
        Some(Fault::CrashOnUnknownType) => Err(Rejection::new(
            ErrorCode::InternalError,
            format!("internal error while handling content part type `{part_type}`"),
        )),
        Some(Fault::WrongErrorCode) => Err(wrong_code(part_type)),
        _ => Err(unsupported(config, part_type)),
    }
}

fn unsupported(config: &ReferenceConfig, part_type: &str) -> Rejection {
    let advertised = advertised_with_text(config);
    Rejection::new(
        ErrorCode::UnsupportedModality,
        format!(
            "content part type `{part_type}` is not an advertised input modality (advertised: {})",
            advertised.join(", ")
        ),
    )
    .with_detail("type", part_type)
    .with_detail("advertised", advertised)
}

fn wrong_code(part_type: &str) -> Rejection {
    Rejection::new(
        ErrorCode::InvalidRequest,
        format!("invalid content part type `{part_type}`"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(modalities: &[&str]) -> ReferenceConfig {
        ReferenceConfig {
            modalities: modalities.iter().map(|m| m.to_string()).collect(),
            ..ReferenceConfig::default()
        }
    }

    #[test]
    fn text_is_implicit() {
        let cfg = config(&["image"]);
        assert_eq!(classify(&cfg, "text"), Ok(PartKind::Text));
        assert_eq!(advertised_with_text(&cfg), ["text", "image"]);
        let no_input = ReferenceConfig {
            advertise_input: false,
            ..cfg
        };
        assert_eq!(advertised_input(&no_input), None);
        assert_eq!(advertised_with_text(&no_input), ["text"]);
        assert_eq!(classify(&no_input, "text"), Ok(PartKind::Text));
    }

    #[test]
    fn advertised_media_proceed_and_file_is_document() {
        let cfg = config(&["text", "image", "document"]);
        assert_eq!(classify(&cfg, "image"), Ok(PartKind::Media("image".into())));
        assert_eq!(
            classify(&cfg, "file"),
            Ok(PartKind::Media("document".into()))
        );
        assert_eq!(
            classify(&cfg, "audio").unwrap_err().code,
            ErrorCode::UnsupportedModality
        );
    }

    #[test]
    fn text_only_host_refuses_every_media_type() {
        let cfg = ReferenceConfig {
            advertise_input: false,
            ..config(&["text", "image"])
        };
        for t in ["image", "audio", "document", "file", "video", "hologram"] {
            assert_eq!(
                classify(&cfg, t).unwrap_err().code,
                ErrorCode::UnsupportedModality,
                "{t}"
            );
        }
    }

    #[test]
    fn out_of_enum_types_are_refused_even_when_configured() {
        let cfg = config(&["text", "video"]);
        let err = classify(&cfg, "video").unwrap_err();
        assert_eq!(err.code, ErrorCode::UnsupportedModality);
        assert_eq!(err.details.unwrap()["type"], "video");
    }
}
