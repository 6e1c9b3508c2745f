//! The Anthropic Messages profile: end to end against the Anthropic reference server
//! (its two models, with and without a witness), and the fault table (every fault of
//! the server fails its case).

mod faults;
mod profile;
