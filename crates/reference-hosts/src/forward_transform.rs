//! The faults that transform media before they are mapped to any model wire, as
//! agents and gateways do: re-encode a picture, scale it down, replace it by a
//! placeholder, reduce a PDF to its page text. The first two are faithful (the same
//! picture reaches the model); the last two are not. The openwop host's forwarding
//! faults and the reference AgentRuntime's use them alike.
//!
//! A part that cannot be transformed (not a picture the decoder reads, a PDF whose text
//! cannot be read) goes on unchanged: the fault shows only on the media it can change.

use super::Fault;
use super::openai_wire::{Body, Media, WireContent, WireMessage, WirePart};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use mmconform_media::transform::{page_text, reencode_image, scale_image};

/// What the image placeholder fault puts where the picture was.
pub const IMAGE_PLACEHOLDER: &str = "[image]";

/// One way media are transformed on their way to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transformation {
    /// A PNG as JPEG, any other picture as PNG.
    ReencodesImages,
    /// Pictures at half their size, in their own format.
    DownscalesImages,
    /// Every image part as the text [`IMAGE_PLACEHOLDER`].
    ImagePlaceholder,
    /// An inline PDF as a text part holding its page text.
    ExtractsPdfText,
}

/// The transformation an openwop forwarding fault makes, if it is one of these.
pub fn of_fault(fault: Option<Fault>) -> Option<Transformation> {
    Some(match fault? {
        Fault::ForwardReencodesImages => Transformation::ReencodesImages,
        Fault::ForwardDownscalesImages => Transformation::DownscalesImages,
        Fault::ForwardImagePlaceholder => Transformation::ImagePlaceholder,
        Fault::ForwardExtractsPdfText => Transformation::ExtractsPdfText,
        _ => return None,
    })
}

/// `messages` as `transformation` hands them on (unchanged for none).
pub fn apply(
    messages: Vec<WireMessage>,
    transformation: Option<Transformation>,
) -> Vec<WireMessage> {
    let Some(fault) = transformation else {
        return messages;
    };
    messages
        .into_iter()
        .map(|m| WireMessage {
            role: m.role,
            content: match m.content {
                WireContent::Parts(parts) => {
                    WireContent::Parts(parts.into_iter().map(|p| part(p, fault)).collect())
                }
                text => text,
            },
        })
        .collect()
}

fn part(part: WirePart, fault: Transformation) -> WirePart {
    let WirePart::Media(media) = part else {
        return part;
    };
    if fault == Transformation::ImagePlaceholder && media.kind == "image" {
        return WirePart::Text(IMAGE_PLACEHOLDER.into());
    }
    let Body::Base64(b64) = &media.body else {
        return WirePart::Media(media);
    };
    let Ok(bytes) = STANDARD.decode(b64) else {
        return WirePart::Media(media);
    };
    match (fault, media.kind.as_str()) {
        (Transformation::ReencodesImages, "image") => {
            let to = match mmconform_media::sniff_mime(&bytes) {
                Some("image/png") => "image/jpeg",
                _ => "image/png",
            };
            replaced(media, reencode_image(&bytes, to).ok(), to)
        }
        (Transformation::DownscalesImages, "image") => {
            let mime = media.mime.clone();
            replaced(media, scale_image(&bytes, 50).ok(), &mime)
        }
        (Transformation::ExtractsPdfText, "document") => match page_text(&bytes) {
            Some(text) => WirePart::Text(text),
            None => WirePart::Media(media),
        },
        _ => WirePart::Media(media),
    }
}

/// `media` with `bytes` of type `mime` instead, or unchanged when there are none.
fn replaced(media: Media, bytes: Option<Vec<u8>>, mime: &str) -> WirePart {
    WirePart::Media(match bytes {
        Some(bytes) => Media {
            kind: media.kind,
            mime: mime.to_owned(),
            body: Body::bytes(&bytes),
        },
        None => media,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONCE: &str = "5eed0123456789ab-c3";

    fn media(kind: &str, mime: &str) -> WirePart {
        WirePart::Media(Media {
            kind: kind.into(),
            mime: mime.into(),
            body: Body::bytes(&mmconform_media::generate(mime, NONCE)),
        })
    }

    fn through(fault: Fault, parts: Vec<WirePart>) -> Vec<WirePart> {
        let message = WireMessage {
            role: "user".into(),
            content: WireContent::Parts(parts),
        };
        match apply(vec![message], of_fault(Some(fault)))
            .remove(0)
            .content
        {
            WireContent::Parts(parts) => parts,
            WireContent::Text(_) => panic!("parts became text"),
        }
    }

    fn bytes_of(part: &WirePart) -> (String, Vec<u8>) {
        match part {
            WirePart::Media(Media {
                mime,
                body: Body::Base64(b64),
                ..
            }) => (mime.clone(), STANDARD.decode(b64).unwrap()),
            other => panic!("{other:?}"),
        }
    }

    fn content_nonce(bytes: &[u8]) -> Option<String> {
        mmconform_media::content::read(bytes, &Default::default())
            .ok()?
            .nonce()
            .map(str::to_string)
    }

    #[test]
    fn re_encoded_and_scaled_pictures_are_the_same_picture_in_other_bytes() {
        let parts = vec![
            WirePart::Text("look".into()),
            media("image", "image/gif"),
            media("image", "image/png"),
            media("audio", "audio/wav"),
        ];
        let out = through(Fault::ForwardReencodesImages, parts.clone());
        assert_eq!(out[0], parts[0]);
        assert_eq!(out[3], parts[3], "audio is left alone");
        for (part, want) in [(&out[1], "image/png"), (&out[2], "image/jpeg")] {
            let (mime, bytes) = bytes_of(part);
            assert_eq!(mime, want);
            assert_eq!(mmconform_media::sniff_mime(&bytes), Some(want));
            assert_eq!(content_nonce(&bytes).as_deref(), Some(NONCE));
        }
        let out = through(Fault::ForwardDownscalesImages, parts.clone());
        let (mime, bytes) = bytes_of(&out[1]);
        assert_eq!(mime, "image/gif");
        assert_ne!(bytes, mmconform_media::generate("image/gif", NONCE));
        assert_eq!(content_nonce(&bytes).as_deref(), Some(NONCE));
    }

    #[test]
    fn a_placeholder_and_a_pdf_s_text_replace_the_part() {
        let parts = vec![
            media("image", "image/png"),
            media("document", "application/pdf"),
        ];
        let out = through(Fault::ForwardImagePlaceholder, parts.clone());
        assert_eq!(out[0], WirePart::Text(IMAGE_PLACEHOLDER.into()));
        assert_eq!(out[1], parts[1]);
        let out = through(Fault::ForwardExtractsPdfText, parts.clone());
        assert_eq!(out[0], parts[0]);
        assert_eq!(out[1], WirePart::Text(format!("mmconform-nonce:{NONCE}")));
    }

    #[test]
    fn other_faults_change_nothing_here() {
        let parts = vec![media("image", "image/png")];
        assert_eq!(through(Fault::ForwardWrongMime, parts.clone()), parts);
    }
}
