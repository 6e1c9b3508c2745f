//! JSON that mmconform handles whole documents of: what a target sends, parsed within a
//! memory bound ([`bounded`]); the canonical form a report and a discovery document are
//! named by (keys sorted, no whitespace) and its SHA-256; and the pretty form reports
//! are written in, which `verify` renders again to compare.
//!
//! A crate of its own so that debug builds compile it optimised, as the media crate
//! is: serde_json's serializer is generic, so it is compiled in the crate that calls
//! it, and the test suite parses thousands of answers and renders and hashes hundreds
//! of reports (a fifth of the CPU of a run of one case at level 0).

pub mod bounded;
mod canonical;
mod pretty;

pub use canonical::{canonical_sha256, canonical_sha256_without_key};
pub use pretty::{from_slice, pretty};
