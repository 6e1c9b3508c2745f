//! Content stamps: the nonce carried in what a file shows or plays, so a copy that was
//! re-encoded, scaled, resampled or turned grey is still recognised as the file sent.
//!
//! A metadata stamp (`mmconform-nonce:` in a comment) is lost the moment a host
//! re-encodes a file; a content stamp is not. Pictures carry a grid of cells
//! ([`pixels`]), sounds a sequence of tones ([`tones`]); both hold the nonce's bits and
//! a CRC ([`payload`]), and bits whose CRC fails are no stamp. PDFs carry the stamp as
//! page text already, which text extraction keeps.
//!
//! [`read`] decodes what a witness received, bounded ([`Bounds`]): a decompression
//! bomb, a huge declared size or a truncated file is an error, never a panic or an
//! unbounded allocation.

mod decode;
pub mod payload;
pub mod pixels;
pub mod tones;

#[cfg(test)]
mod tests;

pub use decode::{Bounds, Content, read};
