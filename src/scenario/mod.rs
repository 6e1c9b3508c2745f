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
pub mod path;
pub mod position;
pub mod stream;
pub mod suite;
pub mod template;
pub mod witness_checks;
