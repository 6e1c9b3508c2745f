//! Scenario files: loading, validation with file:line:col diagnostics, the typed model.

pub mod builtin;
pub mod checks;
pub mod diagnostic;
pub mod external_gate;
pub mod id;
pub mod load;
pub mod media_objects;
pub mod media_size;
pub mod model;
// The malformation table against the packs, and docs/guide/malformations.md from it,
// checked and written by their own tests (`make parity-table`).
#[cfg(test)]
mod parity;
#[cfg(test)]
mod parity_page;
pub mod path;
pub mod position;
pub mod stream;
pub mod suite;
pub mod template;
pub mod witness_checks;
