//! WEBP: the stamped picture ([`super::picture::webp`], lossless) rewritten in the
//! extended format, with the stamp also in an XMP packet.
//!
//! The simple format (`RIFF WEBP VP8L`) has no place for metadata, so the file
//! becomes `VP8X` (XMP flag set) + the picture's image chunk + `XMP `. The XMP
//! packet's own padding mechanism, whitespace before the closing
//! `<?xpacket end?>`, sizes the file.

use super::{riff, stamp};

/// Offset of the picture's image chunk, right after `RIFF <size> WEBP`.
const IMAGE_AT: usize = 12;
const VP8X_DATA: usize = 10;
/// VP8X flag bits, as libwebp names them.
const ALPHA_FLAG: u8 = 0x10;
const XMP_FLAG: u8 = 0x04;

const XMP_HEAD: &str = concat!(
    "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n",
    "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">",
    "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">",
    "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\" dc:identifier=\"",
);
const XMP_BODY_END: &str = "\"/></rdf:RDF></x:xmpmeta>\n";
const XMP_TAIL: &str = "<?xpacket end=\"w\"?>";
/// XMP padding is whitespace; the newlines keep lines short for line-based tools.
const XMP_PAD: &[u8] = b"                               \n";

/// The picture's image chunk (header, data and pad byte), copied verbatim.
fn image_chunk(nonce: &str) -> Vec<u8> {
    let base = super::picture::webp(nonce);
    let len = u32::from_le_bytes([base[16], base[17], base[18], base[19]]);
    let span = riff::chunk_span(usize::try_from(len).expect("the picture is small"));
    base[IMAGE_AT..IMAGE_AT + span].to_vec()
}

/// Canvas size and whether the image may use alpha, from the bitstream header.
fn canvas(chunk: &[u8]) -> (u32, u32, bool) {
    let data = &chunk[8..];
    match &chunk[..4] {
        // VP8L: signature 0x2f, then 14 bits width-1, 14 bits height-1, 1 bit alpha hint.
        b"VP8L" => {
            let bits = u32::from_le_bytes([data[1], data[2], data[3], data[4]]);
            let alpha = bits >> 28 & 1 == 1;
            ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1, alpha)
        }
        // VP8 (lossy): 3-byte frame tag, 3-byte start code, then 14-bit width and height.
        _ => {
            let w = u32::from(u16::from_le_bytes([data[6], data[7]]) & 0x3FFF);
            let h = u32::from(u16::from_le_bytes([data[8], data[9]]) & 0x3FFF);
            (w, h, false)
        }
    }
}

/// The escaped stamp as it appears inside the `dc:identifier` attribute.
fn xmp_stamp(nonce: &str) -> String {
    let mut out = String::new();
    for c in stamp(nonce).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

fn xmp_min(nonce: &str) -> usize {
    XMP_HEAD.len() + xmp_stamp(nonce).len() + XMP_BODY_END.len() + XMP_TAIL.len()
}

/// Everything but the XMP data: RIFF header, VP8X chunk, image chunk, XMP chunk header.
fn fixed(chunk: &[u8]) -> usize {
    12 + riff::chunk_span(VP8X_DATA) + chunk.len() + 8
}

pub(super) fn min_size(nonce: &str) -> usize {
    let xmp = xmp_min(nonce);
    fixed(&image_chunk(nonce)) + xmp + xmp % 2
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let mut out = riff::start(b"WEBP", size);
    let chunk = image_chunk(nonce);
    let (w, h, alpha) = canvas(&chunk);
    riff::chunk_header(&mut out, b"VP8X", VP8X_DATA);
    out.push(XMP_FLAG | if alpha { ALPHA_FLAG } else { 0 });
    out.extend_from_slice(&[0; 3]);
    out.extend_from_slice(&(w - 1).to_le_bytes()[..3]);
    out.extend_from_slice(&(h - 1).to_le_bytes()[..3]);
    out.extend_from_slice(&chunk);

    // The RIFF form is even-sized; an odd `size` gets its last byte from `finish`.
    // An even XMP length means the chunk needs no pad byte.
    let xmp_len = size - size % 2 - fixed(&chunk);
    riff::chunk_header(&mut out, b"XMP ", xmp_len);
    out.extend_from_slice(XMP_HEAD.as_bytes());
    out.extend_from_slice(xmp_stamp(nonce).as_bytes());
    out.extend_from_slice(XMP_BODY_END.as_bytes());
    super::fill(&mut out, XMP_PAD, xmp_len - xmp_min(nonce));
    out.extend_from_slice(XMP_TAIL.as_bytes());
    riff::finish(out, size)
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn the_picture_is_simple_lossless() {
        let nonce = "0123456789abcdef";
        let base = super::super::picture::webp(nonce);
        let chunk = image_chunk(nonce);
        assert_eq!(&base[..4], b"RIFF");
        assert_eq!(&base[8..12], b"WEBP");
        assert_eq!(&chunk[..4], b"VP8L");
        assert_eq!(IMAGE_AT + chunk.len(), base.len());
        let side = crate::content::pixels::SIDE;
        assert_eq!(canvas(&chunk), (side, side, false));
    }

    #[test]
    fn extended_layout_declares_its_xmp() {
        let bytes = super::super::generate("image/webp", "0123456789abcdef");
        let chunks = check::webp(&bytes).unwrap();
        let ids: Vec<&[u8; 4]> = chunks.iter().map(|(id, _)| id).collect();
        assert_eq!(ids, [b"VP8X", b"VP8L", b"XMP "]);
        assert_eq!(bytes[20], XMP_FLAG);
        // The canvas is stored as width-1 and height-1.
        let less = (crate::content::pixels::SIDE - 1).to_le_bytes();
        assert_eq!(
            &bytes[24..30],
            &[less[0], less[1], less[2], less[0], less[1], less[2]]
        );
    }

    #[test]
    fn sizes_sweep_and_stay_valid() {
        check::sweep("image/webp", |b| check::webp(b).map(drop));
    }

    #[test]
    fn nonce_is_escaped_inside_xml() {
        assert_eq!(
            xmp_stamp("a&b\"<>"),
            "mmconform-nonce:a&amp;b&quot;&lt;&gt;"
        );
        let bytes = super::super::generate("image/webp", "a&b");
        assert!(check::webp(&bytes).is_ok());
    }
}
