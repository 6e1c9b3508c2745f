//! Building a case's request body from its template, for every protocol: placeholders,
//! `$media` parts (each protocol spells them), and `$fixture` documents.

pub mod base64_in_place;
pub mod base64_noise;
pub mod body;
pub mod document;
pub mod extension;
pub mod sent;
