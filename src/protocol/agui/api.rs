//! What the integration tests drive of this profile without the binary (through
//! `mmconform::api`): its own reading of the wire, which the reference agent must
//! agree with.

pub use super::classify::{Classifier, ECHO_EVENT_NAME, ReadEnd, StreamClass};
pub use super::echo::parse as parse_echo;
pub use super::run_input::run_input;
pub use super::{Declaration, PART_KINDS, SOURCE_KINDS, kind_of_mime};
