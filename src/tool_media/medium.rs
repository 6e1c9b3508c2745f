//! The media the tool returns, one per case (MCP 2025-06-18, Server Features, Tools,
//! "Tool Result"): what each puts in the result, stamped with the case's medium nonce,
//! and how the judge names what it sent. Every result starts with the case's label (a
//! text block), so a result that arrived without its medium is told from one that never
//! arrived.

use mmconform_media as media;
use serde_json::{Value, json};

/// Pixels on the long edge of the large image: over 2000, where hosts and model APIs
/// start resizing (20 times the generated picture's side).
pub const LARGE_EDGE: u32 = 2080;
/// Its short edge (5 times the generated side): a quarter of a square's pixels, so
/// making and decoding it stays cheap.
pub const LARGE_SHORT_EDGE: u32 = 520;

/// One medium a tool can return (`expect.tool_media` names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Medium {
    /// An `image` block, PNG.
    Png,
    /// An `image` block, JPEG.
    Jpeg,
    /// An `image` block, a PNG over 2000 px on its long edge.
    LargePng,
    /// An `audio` block, WAV.
    Wav,
    /// An embedded `resource` with a PDF `blob`.
    PdfBlob,
    /// An embedded `resource` with `text`.
    TextResource,
    /// A `resource_link` to a PNG file the server wrote.
    ResourceLink,
    /// An `image` block beside `structuredContent` (and its serialized JSON as text).
    ImageStructured,
    /// Text only: the control (the tool's text reaches the model).
    TextOnly,
}

/// A block of a tool result, before it is spelled in MCP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Text(String),
    Image {
        mime: String,
        bytes: Vec<u8>,
    },
    Audio {
        mime: String,
        bytes: Vec<u8>,
    },
    Blob {
        uri: String,
        mime: String,
        bytes: Vec<u8>,
    },
    Resource {
        uri: String,
        mime: String,
        text: String,
    },
    Link {
        uri: String,
        name: String,
        mime: String,
    },
}

/// A whole tool result.
#[derive(Debug, Clone, PartialEq)]
pub struct Produced {
    pub blocks: Vec<Block>,
    pub structured: Option<Value>,
    /// A file the result links to (`resource_link`): its name and bytes, written into
    /// the server's own folder.
    pub file: Option<(String, Vec<u8>)>,
}

/// What a medium is, for the judge: its kind (`image`, `audio`, `document`, `text`,
/// `link`), its type and, for bytes, the bytes themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub kind: &'static str,
    pub mime: &'static str,
    /// The bytes of an image, sound or PDF (`None` for text and links).
    pub bytes: Option<Vec<u8>>,
}

impl Medium {
    pub const ALL: [Medium; 9] = [
        Medium::Png,
        Medium::Jpeg,
        Medium::LargePng,
        Medium::Wav,
        Medium::PdfBlob,
        Medium::TextResource,
        Medium::ResourceLink,
        Medium::ImageStructured,
        Medium::TextOnly,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Medium::Png => "png",
            Medium::Jpeg => "jpeg",
            Medium::LargePng => "large-png",
            Medium::Wav => "wav",
            Medium::PdfBlob => "pdf-blob",
            Medium::TextResource => "text-resource",
            Medium::ResourceLink => "resource-link",
            Medium::ImageStructured => "image-structured",
            Medium::TextOnly => "text-only",
        }
    }

    pub fn parse(name: &str) -> Result<Medium, String> {
        Medium::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| {
                let known: Vec<&str> = Medium::ALL.iter().map(|m| m.name()).collect();
                format!("unknown medium {name:?} (known: {})", known.join(", "))
            })
    }

    /// `an image block (image/png)`: what the result carries, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Medium::Png => "an image block (image/png)",
            Medium::Jpeg => "an image block (image/jpeg)",
            Medium::LargePng => "an image block (image/png, 2080x520)",
            Medium::Wav => "an audio block (audio/wav)",
            Medium::PdfBlob => "an embedded resource blob (application/pdf)",
            Medium::TextResource => "an embedded text resource (text/plain)",
            Medium::ResourceLink => "a resource_link to a file (image/png)",
            Medium::ImageStructured => "an image block (image/png) with structuredContent",
            Medium::TextOnly => "a text block",
        }
    }

    /// The medium as the judge compares it: kind, type, bytes.
    pub fn sent(self, case: &str) -> Sent {
        let nonce = super::medium_nonce(case);
        let bytes = |mime: &str| Some(media::generate(mime, &nonce));
        match self {
            Medium::Png | Medium::ImageStructured => Sent {
                kind: "image",
                mime: "image/png",
                bytes: bytes("image/png"),
            },
            Medium::Jpeg => Sent {
                kind: "image",
                mime: "image/jpeg",
                bytes: bytes("image/jpeg"),
            },
            Medium::LargePng => Sent {
                kind: "image",
                mime: "image/png",
                bytes: Some(large_png(&nonce)),
            },
            Medium::Wav => Sent {
                kind: "audio",
                mime: "audio/wav",
                bytes: bytes("audio/wav"),
            },
            Medium::PdfBlob => Sent {
                kind: "document",
                mime: "application/pdf",
                bytes: bytes("application/pdf"),
            },
            Medium::TextResource | Medium::TextOnly => Sent {
                kind: "text",
                mime: "text/plain",
                bytes: None,
            },
            Medium::ResourceLink => Sent {
                kind: "link",
                mime: "image/png",
                bytes: None,
            },
        }
    }

    /// The tool's result for case `case`; `files` is the folder a linked file is
    /// written to (its `file://` URI names it).
    pub fn produce(self, case: &str, files: &std::path::Path) -> Produced {
        let nonce = super::medium_nonce(case);
        let mut blocks = vec![Block::Text(super::label(case))];
        let sent = self.sent(case);
        let mut structured = None;
        let mut file = None;
        let stamped_text = format!("mmconform-nonce:{nonce}");
        match self {
            Medium::Png | Medium::Jpeg | Medium::LargePng => blocks.push(Block::Image {
                mime: sent.mime.into(),
                bytes: sent.bytes.unwrap_or_default(),
            }),
            Medium::ImageStructured => {
                let data = json!({"case": super::label_nonce(case), "mimeType": sent.mime,
                    "width": media::content::pixels::SIDE, "height": media::content::pixels::SIDE});
                // MCP 2025-06-18: a tool returning structured content SHOULD also return
                // its serialized JSON in a text block.
                blocks.push(Block::Text(data.to_string()));
                blocks.push(Block::Image {
                    mime: sent.mime.into(),
                    bytes: sent.bytes.unwrap_or_default(),
                });
                structured = Some(data);
            }
            Medium::Wav => blocks.push(Block::Audio {
                mime: sent.mime.into(),
                bytes: sent.bytes.unwrap_or_default(),
            }),
            Medium::PdfBlob => blocks.push(Block::Blob {
                uri: format!("mmconform://tool-media/{nonce}.pdf"),
                mime: sent.mime.into(),
                bytes: sent.bytes.unwrap_or_default(),
            }),
            Medium::TextResource => blocks.push(Block::Resource {
                uri: format!("mmconform://tool-media/{nonce}.txt"),
                mime: sent.mime.into(),
                text: format!("A note the tool returned. {stamped_text}"),
            }),
            Medium::ResourceLink => {
                let name = format!("{nonce}.png");
                let path = files.join(&name);
                blocks.push(Block::Link {
                    uri: format!("file://{}", path.display()),
                    name: name.clone(),
                    mime: "image/png".into(),
                });
                file = Some((name, media::generate("image/png", &nonce)));
            }
            Medium::TextOnly => blocks.push(Block::Text(format!(
                "The tool's text output. {stamped_text}"
            ))),
        }
        Produced {
            blocks,
            structured,
            file,
        }
    }
}

/// The generated picture stretched to [`LARGE_EDGE`] x [`LARGE_SHORT_EDGE`]: its
/// content stamp (the grid of cells) survives; its metadata stamp does not (see
/// `transform`).
fn large_png(nonce: &str) -> Vec<u8> {
    let small = media::generate("image/png", nonce);
    media::transform::stretch_image(&small, LARGE_EDGE, LARGE_SHORT_EDGE).unwrap_or(small)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for m in Medium::ALL {
            assert_eq!(Medium::parse(m.name()), Ok(m));
        }
        assert!(Medium::parse("gif").unwrap_err().contains("png, jpeg"));
    }

    #[test]
    fn every_result_starts_with_the_label_and_stamps_its_medium() {
        let dir = tempfile::tempdir().unwrap();
        let case = "0123456789abcdef-c3";
        let nonce = super::super::medium_nonce(case);
        for m in Medium::ALL {
            let produced = m.produce(case, dir.path());
            assert_eq!(
                produced.blocks[0],
                Block::Text(super::super::label(case)),
                "{m:?}"
            );
            let stamped = produced.blocks.iter().any(|b| match b {
                Block::Image { bytes, .. }
                | Block::Audio { bytes, .. }
                | Block::Blob { bytes, .. } => {
                    let content = media::content::read(bytes, &Default::default())
                        .ok()
                        .and_then(|c| c.nonce().map(str::to_string));
                    media::find_stamps(bytes).contains(&nonce)
                        || content.as_deref() == Some(nonce.as_str())
                }
                Block::Resource { text, .. } | Block::Text(text) => text.contains(&nonce),
                Block::Link { uri, .. } => uri.contains(&nonce),
            });
            assert!(stamped, "{m:?}");
        }
    }

    #[test]
    fn the_large_image_is_over_2000_pixels_long_and_keeps_its_content_stamp() {
        let sent = Medium::LargePng.sent("0123456789abcdef-c3");
        let bytes = sent.bytes.unwrap();
        match media::content::read(&bytes, &Default::default()).unwrap() {
            media::content::Content::Image {
                width,
                height,
                nonce,
            } => {
                assert_eq!((width, height), (LARGE_EDGE, LARGE_SHORT_EDGE));
                assert_eq!(nonce.as_deref(), Some("0123456789abcdef-p3"));
            }
            other => panic!("{other:?}"),
        }
    }
}
