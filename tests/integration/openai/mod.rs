//! The OpenAI-compatible profile: end to end against the reference server (its two
//! models, declared and not), the fault table (every server fault fails its case), and
//! the model pick and usage errors.

mod faults;
mod profile;
mod usage;
