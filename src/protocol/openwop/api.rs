//! What the integration tests and fuzz targets drive of this profile without the
//! binary (through `mmconform::api`): discovery facts and part rendering, for planning
//! cases offline.

pub use super::Dialect;
pub use super::facts::derive as derive_facts;
pub use super::part::{PartInputs, render as render_part};
