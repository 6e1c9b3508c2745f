//! Opaque bytes for MIME types without a real generator.
//!
//! A host that accepts arbitrary types only needs recognisable bytes of the
//! right size: an ASCII header line naming the nonce, then a repeating pattern.

use super::{FILLER, fill};

/// The line every opaque file starts with; `contains_nonce` looks for it too.
pub(super) fn header(nonce: &str) -> String {
    format!("mmconform-media nonce={nonce}\n")
}

pub(super) fn min_size(nonce: &str) -> usize {
    header(nonce).len()
}

pub(super) fn build(nonce: &str, size: usize) -> Vec<u8> {
    let header = header(nonce);
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(header.as_bytes());
    fill(&mut out, FILLER, size - header.len());
    out
}

#[cfg(test)]
mod tests {
    use super::super::check;
    use super::*;

    #[test]
    fn header_then_pattern() {
        let bytes = build("0123456789abcdef", 60);
        assert_eq!(&bytes[..39], b"mmconform-media nonce=0123456789abcdef\n");
        assert_eq!(&bytes[39..], &FILLER[..21]);
        assert_eq!(bytes[39], b' ');
    }

    #[test]
    fn sizes_sweep() {
        check::sweep("application/x-made-up", |b| {
            b.starts_with(b"mmconform-media nonce=")
                .then_some(())
                .ok_or_else(|| "no header".into())
        });
    }
}
